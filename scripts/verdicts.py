"""Record every environment's verdicts on its reference and wrong variants, and diff two records.

    python scripts/verdicts.py record [--select GLOB] [--seed-index 0] [--registry R] --out after.json
    python scripts/verdicts.py record --checkout ../before --out before.json   # the code of another checkout
    python scripts/verdicts.py diff before.json after.json                    # exit 1 if a verdict changed

`record` grades, for each selected environment, task 0 (or --seed-index): its reference, every wrong
variant the checks try (the environment's `wrong_answers` and the reference of another task of
it), the empty response and its reward hacks, and writes one JSON object: per environment the
label and, per response (by kind, note and a digest of the text), reward, passed and components.
`--checkout DIR` imports rlhub and its plugins from DIR (a `git worktree add DIR REV` of the code
before a change) instead of this checkout, so the two records come from the two versions of the
code on the same machine. `diff` lists every response whose verdict differs (reward beyond 1e-9,
passed or components), and environments or responses present on one side only.

Verdicts are computed here, in this process, through the catalog (the sandbox included): what
the checks compare, without their pass/fail rules.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TOLERANCE = 1e-9


def use_checkout(root: Path) -> None:
    """Import rlhub and every plugin from `root` (as /work/wt/env.sh does for a worktree)."""
    paths = [root] + sorted(p for p in (root / "plugins").glob("*/*") if p.is_dir())
    paths = [p / "src" if (p / "src").is_dir() else p for p in paths]
    sys.path[:0] = [str(p) for p in paths]
    os.environ["PYTHONPATH"] = os.pathsep.join([*map(str, paths), os.environ.get("PYTHONPATH", "")])


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def record(select: str | None, index: int, registry: str | None) -> dict:
    import hub
    from hub.config.catalog import Catalog
    from hub.checks.library import _wrong_variants

    cat = Catalog.load(registry)
    out = {"code": str(Path(hub.__file__).resolve().parent.parent), "select": select, "index": index, "envs": {}}
    for renv in cat.select(select):
        start = time.perf_counter()
        entry: dict = {"responses": {}}
        try:
            label = renv.label(index)
            task = cat.task(label)
            entry["label"] = label.to_json()
            responses = [("reference", "", task.reference), ("empty", "", "")]
            responses += [(f"wrong:{v.kind}", v.note, v.response) for v in _wrong_variants(cat, renv, index, task)]
            responses += [(f"hack:{h.kind}", h.note, h.response) for h in renv.verifier.hacks(task)]
        except Exception as exc:  # an environment that cannot even build its task: recorded as such
            entry["error"] = f"{type(exc).__name__}: {exc}"[:500]
            out["envs"][renv.id] = entry
            continue
        for kind, note, response in responses:
            key = f"{kind} | {note} | {_digest(response)}"
            try:
                v = cat.verify(label, response, task=task)
                entry["responses"][key] = {"reward": v.reward, "passed": v.passed,
                                           "components": v.components, "error": v.error}
            except Exception as exc:
                entry["responses"][key] = {"exception": f"{type(exc).__name__}: {exc}"[:500]}
        entry["seconds"] = round(time.perf_counter() - start, 3)
        out["envs"][renv.id] = entry
        print(f"{renv.id}: {len(entry['responses'])} verdicts, {entry['seconds']:.1f} s", file=sys.stderr, flush=True)
    return out


def _same(a: dict, b: dict) -> bool:
    if set(a) != set(b):
        return False
    for key in a:
        x, y = a[key], b[key]
        if key == "reward" and isinstance(x, (int, float)) and isinstance(y, (int, float)):
            if abs(x - y) > TOLERANCE:
                return False
        elif key == "components" and isinstance(x, dict) and isinstance(y, dict):
            if set(x) != set(y) or any(abs(x[k] - y[k]) > TOLERANCE for k in x):
                return False
        elif x != y:
            return False
    return True


def diff(before: dict, after: dict) -> list[str]:
    lines = []
    for env in sorted(set(before["envs"]) | set(after["envs"])):
        a, b = before["envs"].get(env), after["envs"].get(env)
        if a is None or b is None:
            lines.append(f"{env}: only {'after' if a is None else 'before'}")
            continue
        if a.get("label") != b.get("label") or a.get("error") != b.get("error"):
            lines.append(f"{env}: label or error differs: {a.get('label')}/{a.get('error')} vs {b.get('label')}/{b.get('error')}")
        for key in sorted(set(a["responses"]) | set(b["responses"])):
            x, y = a["responses"].get(key), b["responses"].get(key)
            if x is None or y is None:
                lines.append(f"{env}: {key}: only {'after' if x is None else 'before'}")
            elif not _same(x, y):
                lines.append(f"{env}: {key}: {json.dumps(x)} -> {json.dumps(y)}")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record", help="grade every selected environment's reference and wrong variants")
    rec.add_argument("--select", help="environments matching this glob (default: all)")
    rec.add_argument("--seed-index", type=int, default=0, help="which task of each environment (default 0)")
    rec.add_argument("--registry", help="registry file (default: ./registry.yaml, else the installed plugins')")
    rec.add_argument("--checkout", type=Path, help="import rlhub and its plugins from this checkout instead")
    rec.add_argument("--out", type=Path, required=True)
    dif = sub.add_parser("diff", help="every verdict that differs between two records (exit 1 if any)")
    dif.add_argument("before", type=Path)
    dif.add_argument("after", type=Path)
    dif.add_argument("--out", type=Path, help="also write the differences here, as JSON")
    args = ap.parse_args()
    if args.cmd == "record":
        if args.checkout:
            use_checkout(args.checkout.resolve())
        start = time.perf_counter()
        data = record(args.select, args.seed_index, args.registry)
        data["seconds"] = round(time.perf_counter() - start, 1)
        args.out.write_text(json.dumps(data, indent=1, sort_keys=True))
        n = sum(len(e["responses"]) for e in data["envs"].values())
        print(f"{len(data['envs'])} environments, {n} verdicts, {data['seconds']} s -> {args.out} (code: {data['code']})")
        return 0
    before, after = json.loads(args.before.read_text()), json.loads(args.after.read_text())
    lines = diff(before, after)
    if args.out:
        args.out.write_text(json.dumps(lines, indent=1))
    n = sum(len(e["responses"]) for e in after["envs"].values())
    print("\n".join(lines) if lines else f"no verdict differs: {len(after['envs'])} environments, {n} verdicts "
                                         f"({before['code']} vs {after['code']})")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
