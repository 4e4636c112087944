"""Repository-scale sessions and grading (rlhub-swe), each against a baseline from the same run.

    python benchmarks/bench_swe.py [--repeats 7] [--kinds ledger,conf] [--registry REG.yaml] [--seed 1000]

  episode start    catalog.episode(label) for a seed not seen before (the project rendered), reset(),
                   and the first command (`true`), which opens the session and writes the repository;
                   baseline: an empty sandbox session opened and `true` run in it
  warm step        `python -m pytest -x -q tests/test_<area>.py` in an open session of the kind's largest
                   project (~4,000 lines for ledger); baseline: a `true` step in the same session
  hidden tests     swe_tests grading the reference diff (hidden FAIL_TO_PASS + PASS_TO_PASS in the
                   sandbox), per project kind; baseline: a three-test pytest file on the same warm pool
  scripted agent   a whole bug episode (rlhub_swe.scripted: explore, reproduce, fix, re-run, submit,
                   graded); baseline: an episode that submits at once (opened, read back, refused)

Medians over --repeats, fresh seeds each time. Issue #17's targets on 2 cores: warm step <= 1 s,
episode start <= 0.3 s. `uptime` is printed before and after: the figures mean little on a busy machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

PYTEST_FILE = "def test_a():\n    assert 1 + 1 == 2\n\n\ndef test_b():\n    assert 'ab' + 'c' == 'abc'\n\n\ndef test_c():\n    assert [1][0] == 1\n"
TARGETS = {"warm step": 1.0, "episode start": 0.3}


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5, check=False).stdout.strip()
    except OSError:
        return f"load average {os.getloadavg()}"


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def row(name: str, what: str, values: list[float], base: list[float] | None = None, note: str = "") -> None:
    med = median_ms(values)
    ratio = f"{med / median_ms(base):6.1f}x" if base else "      "
    target = TARGETS.get(name)
    verdict = ("" if target is None else f"target <= {target * 1000:.0f} ms: "
               + ("met" if med <= target * 1000 else "MISSED"))
    print(f"{name:<16} {what:<46} {med:>9.0f} {ratio}  {verdict}{'; ' if verdict and note else ''}{note}", flush=True)


def bug_env(name: str, mode: str = "session") -> str:
    from rlhub_swe.projects.kinds import kind

    return f"swe/{name}-bug-{kind(name).bugs[0].cls.replace('_', '-')}-{mode}-v1"


def bench_episode_start(cat, kinds, repeats, seed0):
    from hub.sandbox import get_sandbox

    profile = cat.get(bug_env(kinds[0])).profile
    sb = get_sandbox()

    def empty_session():
        with sb.session(profile) as s:
            assert s.run(["true"]).exit_code == 0

    empty_session()  # the first session of a process pays for imports
    base = [timed(empty_session) for _ in range(repeats)]
    for name in kinds:
        starts, builds, lines = [], [], []
        for i in range(repeats):
            label = {"env": bug_env(name), "seed": seed0 + i}
            t = time.perf_counter()
            ep = cat.episode(label)
            built = time.perf_counter()
            ep.reset()
            step = ep.step("```bash\ntrue\n```")
            starts.append(time.perf_counter() - t)
            builds.append(built - t)
            lines.append(ep.task.metadata["lines"])
            assert "exit code 0" in step.observation, step.observation
            ep.close()
        row("episode start", f"{name} (~{statistics.median(lines):.0f} lines)", starts, base,
            f"task build (render) {median_ms(builds):.0f} ms of it")
    row("", "baseline: empty session + `true`", base)


def large_session(cat, name: str):
    """An open session over the kind's project at its largest unit count, and the test file to run."""
    from rlhub_swe.projects.kinds import kind
    from rlhub_swe.tasks import Params, build

    from hub import Task, VerifyContext
    from hub.core.task import Label

    k = kind(name)
    renv = cat.get(bug_env(name))
    fam = renv.env.family
    p = Params(name, 11, "bug", k.bugs[0].id, units=k.units.count[1])
    task = Task(prompt=fam.prompt(p, "session"), hidden=fam.hidden(p, "session"), reference=fam.reference(p, "session"),
                label=Label(env=renv.id, seed=0))
    ep = renv.env.episode(task, renv.verifier, VerifyContext(profile=renv.profile))
    ep.reset()
    ep.step("```bash\ntrue\n```")
    b = build(p)
    tests = sorted((len(t), path) for path, t in b.base.files.items() if path.startswith("tests/test_"))
    return ep, tests[-1][1], b.base.lines


def bench_warm_step(cat, kinds, repeats):
    for name in kinds:
        ep, test_file, lines = large_session(cat, name)
        command = f"```bash\npython -m pytest -x -q {test_file}\n```"
        first = ep.step(command)
        assert "passed" in first.observation, first.observation
        steps = [timed(lambda ep=ep, command=command: ep.step(command)) for _ in range(repeats)]
        base = [timed(lambda ep=ep: ep.step("```bash\ntrue\n```")) for _ in range(repeats)]
        ep.close()
        row("warm step", f"{name}: {test_file} ({lines} lines)", steps, base)
        row("", "baseline: `true` in the same session", base)


def bench_hidden_tests(cat, kinds, repeats, seed0):
    from hub.sandbox import get_sandbox

    profile = cat.get(bug_env(kinds[0], "diff")).profile
    sb = get_sandbox()
    sb.warm(profile.merged(preload=("pytest", "hub.testing.probes")), "hub.testing.probes:run_pytest")
    floor_profile = profile.merged(preload=("pytest", "hub.testing.probes"))

    def floor():
        r = sb.call(floor_profile, "hub.testing.probes:run_pytest", files={"test_x.py": PYTEST_FILE}, args={})
        assert "3 passed" in r.stdout, (r.stdout, r.stderr, r.infra_error)

    floor()
    base = [timed(floor) for _ in range(repeats)]
    for name in kinds:
        times, tests = [], []
        for i in range(repeats):
            label = {"env": bug_env(name, "diff"), "seed": seed0 + i}
            task = cat.task(label)
            t = time.perf_counter()
            v = cat.verify(label, task.reference, task=task)
            times.append(time.perf_counter() - t)
            assert v.reward == 1.0, v.details
            tests.append(v.details["tests_total"])
        row("hidden tests", f"{name} ({statistics.median(tests):.0f} tests)", times, base)
    row("", "baseline: 3-test pytest file, warm pool", base)


def bench_scripted_agent(cat, kinds, repeats, seed0):
    from rlhub_swe import scripted
    from rlhub_swe.tasks import build

    for name in kinds:
        full, idle = [], []
        for i in range(repeats):
            label = {"env": bug_env(name), "seed": seed0 + i}
            turns = scripted.turns(build(cat.get(label["env"]).env.params(label["seed"])))

            def episode(label=label, turns=turns):
                ep = cat.episode(label)
                ep.reset()
                for turn in turns:
                    step = ep.step(turn)
                assert step.done and step.verdict.reward == 1.0, step.verdict.details

            def nothing(label=label):
                ep = cat.episode(label)
                ep.reset()
                step = ep.step("SUBMIT")
                assert step.done and step.verdict.reward == 0.0

            full.append(timed(episode))
            idle.append(timed(nothing))
        row("scripted agent", f"{name}: 4 turns, graded", full, idle)
        row("", "baseline: SUBMIT at once", idle)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--repeats", type=int, default=7, help="measurements per figure (fresh seeds each; default 7)")
    ap.add_argument("--kinds", default="", help="project kinds, comma-separated (default: every kind installed)")
    ap.add_argument("--registry", default=str(REPO / "plugins" / "envs" / "swe" / "registry.yaml"),
                    help="a registry with swe/* (default: the plugin's own, production profile `swe`)")
    ap.add_argument("--seed", type=int, default=1000, help="first seed (each figure uses the next --repeats)")
    args = ap.parse_args()

    from rlhub_swe.projects.kinds import NAMES

    import hub

    kinds = [k for k in args.kinds.split(",") if k] or list(NAMES)
    cat = hub.load(args.registry)
    print(f"uptime: {uptime()}")
    print(f"{os.cpu_count()} cores; kinds: {', '.join(kinds)}; {args.repeats} repeats; registry {args.registry}")
    print(f"{'figure':<16} {'what':<46} {'median ms':>9} {'ratio':>6}")
    bench_episode_start(cat, kinds, args.repeats, args.seed)
    bench_warm_step(cat, kinds, args.repeats)
    bench_hidden_tests(cat, kinds, args.repeats, args.seed + 100)
    bench_scripted_agent(cat, kinds, args.repeats, args.seed + 200)
    print(f"uptime: {uptime()}")


if __name__ == "__main__":
    main()
