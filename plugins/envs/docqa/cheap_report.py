"""Report: what answers that take no reading earn, per question kind, and whether the right
forms each question invites pass. Prints one table row per kind, averaged over every world's
text environment of that kind and `--tasks` tasks each:

    best constant   the best of the verifier's constants (0, 0 trillion, yes, unanswerable, ...)
    heuristic       the issue's cheap heuristic: count -> 0 trillion, yes/no -> yes, list -> every
                    row label of the table named in the question, anything else -> 0 trillion
    best cheap      the best of the environment's own cheap answers (a random number of the
                    table, its labels), where it names them
    right forms     the share of the environment's right forms that earn what the reference earns

    python plugins/envs/docqa/cheap_report.py [--tasks 10] [--registry registry.yaml]

With --memorised TRAIN TEST it measures instead, per environment, the blind policy "the answer
other tasks of the same question wording have": the most common gold per wording (rlhub_docqa.
wording: the table's entity, ids and years dropped), also with its years moved to the prompt's
title year, learned over tasks 0..TRAIN-1 and played on the next TEST tasks (one answer, no
reading). It prints every environment over 0.05 and the max over all:

    python plugins/envs/docqa/cheap_report.py --memorised 150 100 [--jobs 8]

The heuristic reads row labels off the prompt itself, so the same script measures an older
rlhub (run with that checkout first on PYTHONPATH) for a before/after table.
"""

from __future__ import annotations

import argparse
import re
import statistics
from collections import defaultdict

from hub.config.catalog import Catalog

CONSTANTS = ["0", "1", "0 trillion", "0k", "0.0 bn", "0 million", "1 million", "yes", "no", "unanswerable"]


def table_labels(prompt: str, title: str) -> list[str]:
    """The first-column labels of the table titled `title` in a Markdown, HTML or text document."""
    start = prompt.find(title, prompt.find("<document>"))
    body = prompt[start:start + 6000]
    labels = re.findall(r"^\| ([^|]+?) \|", body, re.M)[1:]  # markdown, header dropped
    if not labels:
        labels = [html for html in re.findall(r"<tr><td>([^<]+)</td>", body)]
    if not labels:
        lines = body.split("\n")
        dash = next((i for i, line in enumerate(lines) if re.match(r"^-{3,}", line)), None)
        for line in lines[dash + 1:] if dash is not None else []:
            if not line.strip() or line.isupper():
                break
            labels.append(re.split(r"\s{2,}", line.strip())[0])
    return [label.strip() for label in labels if label.strip()]


def heuristic(kind: str, prompt: str) -> str:
    if kind == "count":
        return r"\boxed{0 trillion}"
    if kind == "yesno":
        return r"\boxed{yes}"
    if kind == "list":
        title = re.search(r'In the table "([^"]+)"', prompt.split("Question:")[-1])
        return r"\boxed{" + "; ".join(table_labels(prompt, title.group(1)) if title else []) + "}"
    return r"\boxed{0 trillion}"


_CAT = None


def _memorised_one(job) -> tuple[str, float, float]:
    """(env id, held-out mean of the plain memorised gold, of the year-moved one)."""
    global _CAT
    registry, env_id, train, test = job
    from rlhub_docqa.wording import learn, policies

    _CAT = _CAT or Catalog.load(registry)
    renv = next(iter(_CAT.select(env_id)))
    samples = []
    for i in range(train):
        p = renv.env.params(i)
        samples.append((p.question.text, p.title, p.question.shown))
    memo, got = learn(samples), defaultdict(list)
    for i in range(train, train + test):
        label, p = renv.label(i), renv.env.params(i)
        task = _CAT.task(label)
        for name, responses in policies(memo, p.question.text, p.title).items():
            got[name].append(_CAT.verify(label, responses[0], task=task).reward if responses else 0.0)
    plain, moved = (statistics.mean(v) for v in got.values())
    return env_id, plain, moved


def memorised_report(registry: str, train: int, test: int, jobs: int) -> None:
    from multiprocessing import Pool

    ids = [r.id for r in Catalog.load(registry).select("docqa/*")
           if not r.id.endswith(("-vision-v1", "-128k-v1", "-1m-v1", "-tools-v1"))]
    with Pool(jobs) as pool:
        rows = sorted(pool.map(_memorised_one, [(registry, i, train, test) for i in ids]), key=lambda r: -max(r[1:]))
    print(f"memorised gold per wording: learned on tasks 0..{train - 1}, played on {train}..{train + test - 1}")
    print(f"{'environment':<40}{'plain':>8}{'years moved':>13}")
    for env_id, plain, moved in rows:
        if max(plain, moved) > 0.05:
            print(f"{env_id:<40}{plain:>8.3f}{moved:>13.3f}")
    best = rows[0]
    print(f"max over {len(rows)} environments: {max(best[1:]):.3f} ({best[0]}); "
          f"over 0.1: {sum(max(r[1:]) > 0.1 for r in rows)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", type=int, default=10, help="tasks per environment")
    ap.add_argument("--registry", default="registry.yaml")
    ap.add_argument("--memorised", type=int, nargs=2, metavar=("TRAIN", "TEST"),
                    help="measure the memorised-gold-per-wording policy instead")
    ap.add_argument("--jobs", type=int, default=8)
    args = ap.parse_args()
    if args.memorised:
        memorised_report(args.registry, *args.memorised, args.jobs)
        return
    cat = Catalog.load(args.registry)
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for renv in cat.select("docqa/*"):
        name = renv.id.removeprefix("docqa/").removesuffix("-v1")
        if name.endswith(("-vision", "-128k", "-1m")):
            continue
        kind = name.split("-", 1)[1]
        per_constant, cheap, heur = defaultdict(list), defaultdict(list), []
        for i in range(args.tasks):
            label = renv.label(i)
            task = cat.task(label)
            grade = lambda r: cat.verify(label, r, task=task)
            for c in CONSTANTS:
                per_constant[c].append(grade(rf"\boxed{{{c}}}").reward)
            heur.append(grade(heuristic(kind, task.prompt_text())).reward)
            for policy, responses in getattr(renv.env, "cheap_answers", lambda t: {})(task).items():
                cheap[policy].append(statistics.mean(grade(r).reward for r in responses) if responses else 0.0)
            ref = grade(task.reference).reward
            forms = renv.env.right_answers(task)
            rows[kind]["right forms"].extend(float(grade(f).reward == ref) for f in forms)
        rows[kind]["best constant"].append(max(statistics.mean(v) for v in per_constant.values()))
        rows[kind]["heuristic"].append(statistics.mean(heur))
        if cheap:
            rows[kind]["best cheap"].append(max(statistics.mean(v) for v in cheap.values()))
    cols = ["best constant", "heuristic", "best cheap", "right forms"]
    print(f"{'kind':<16}" + "".join(f"{c:>15}" for c in cols) + f"{'envs':>6}")
    everything = defaultdict(list)
    for kind in sorted(rows):
        values = rows[kind]
        cells = []
        for c in cols:
            v = values.get(c, [])
            everything[c] += v
            cells.append(f"{statistics.mean(v):>15.3f}" if v else f"{'-':>15}")
        print(f"{kind:<16}" + "".join(cells) + f"{len(values['heuristic']):>6}")
    print(f"{'all (mean)':<16}" + "".join(f"{statistics.mean(everything[c]):>15.3f}" if everything[c] else f"{'-':>15}"
                                         for c in cols))


if __name__ == "__main__":
    main()
