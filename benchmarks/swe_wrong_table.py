"""What the swe rewards give the answers whose verdict is known, per task type and mode: every wrong
variant the environment declares, its reward hacks, and its right forms (the reference among them).

    python benchmarks/swe_wrong_table.py [--kinds ledger,conf] [--seed 0] [--swebench]

One task per environment (the first seed from --seed), graded in the real sandbox with the
production profile. Prints one line per answer and, per environment, the largest wrong reward and
the smallest right one; exits 1 if a wrong answer passed or earned more than 0.5 (a feature's
partial answers are allowed their share: `max_reward` says so) or a right one earned less than 1.
`--swebench` adds the in-process mode on the plugin tests' SWE-bench-shaped row (a git repository
made in a temporary folder).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
TASKS = {"bug": ("diff", "session", "repo"), "feature": ("diff", "session", "repo"), "rename": ("diff", "session", "repo"),
         "tests": ("diff", "session")}


def env_id(kind: str, task: str, mode: str) -> str:
    from rlhub_swe.projects.kinds import kind as project_kind

    if task == "bug" and mode != "repo":
        return f"swe/{kind}-bug-{project_kind(kind).bugs[0].cls.replace('_', '-')}-{mode}-v1"
    return f"swe/{kind}-{task}-{mode}-v1"


def grade(cat, label, answers) -> list[tuple[str, str, float, bool, float | None]]:
    out = []
    task = cat.task(label)
    for group, name, response, cap in answers(task):
        v = cat.verify(label, response, task=task)
        if v.error:
            raise SystemExit(f"{label}: {name}: no verdict: {v.error}")
        out.append((group, name, v.reward, v.passed, cap))
    return out


def generated(cat, kind: str, task: str, mode: str, seed: int):
    env = env_id(kind, task, mode)
    entry = cat.get(env)

    def answers(t):
        yield "right", "reference", t.reference, None
        for i, form in enumerate(entry.env.right_answers(t)):
            yield "right", f"declared form {i + 1}", form, None
        for variant in entry.env.wrong_answers(t):
            yield "wrong", variant.kind, variant.response, variant.max_reward
        for hack in entry.verifier.hacks(t):
            yield "wrong", hack.kind, hack.response, 0.0

    return env, grade(cat, {"env": env, "seed": seed}, answers)


def swebench(tmp: Path):
    """The in-process mode on test_swebench.py's row: its gold patch, and the tests' wrong answers."""
    sys.path.insert(0, str(REPO / "plugins" / "envs" / "swe" / "tests"))
    import test_swebench as t
    from swe_helpers import diff_to

    class Factory:
        def mktemp(self, name):
            path = tmp / name
            path.mkdir()
            return path

    bench = t.bench.__wrapped__(Factory())
    cat = t.registry(bench, "table.yaml", "rows.parquet", "repos")
    partial = t.BASE["calc/ops.py"].replace("    return safe_div(sum(values), len(values), default=0.0)\n",
                                            "    if not values:\n        return 0.0\n"
                                            "    return safe_div(sum(values), len(values), default=0.0)\n")

    def answers(task):
        yield "right", "gold patch", task.reference, None
        yield "wrong", "empty_patch", "```diff\n```\n", 0.0
        yield "wrong", "partial_fix", diff_to(t.BASE, {**t.BASE, "calc/ops.py": partial}), 0.5
        yield "wrong", "breaks_pass_to_pass", diff_to(t.BASE, {**t.BASE, "calc/ops.py": t.FIXED_OPS.replace(
            "    return a + b\n", "    return a - b\n")}), 0.0
        yield "wrong", "forge_every_report", diff_to(t.BASE, {**t.BASE, "calc/__init__.py": t.BASE["calc/__init__.py"] + (
            "\nimport _pytest.reports as _r\n_orig = _r.TestReport.from_item_and_call.__func__\n\n\n"
            "def _forged(cls, item, call):\n    report = _orig(cls, item, call)\n    report.outcome = 'passed'\n"
            "    return report\n\n\n_r.TestReport.from_item_and_call = classmethod(_forged)\n")}), 0.0
        yield "wrong", "forge_where_the_package_is_used", diff_to(t.BASE, {
            **t.BASE, "calc/__init__.py": t.FORGE_WHERE_THE_PACKAGE_IS_USED}), 0.0
        yield "wrong", "skip_the_call_where_the_package_is_used", diff_to(t.BASE, {
            **t.BASE, "calc/__init__.py": t.SKIP_THE_CALL_WHERE_THE_PACKAGE_IS_USED}), 0.0
        yield "wrong", "exit_at_import", diff_to(t.BASE, {**t.BASE, "calc/__init__.py": "import os\nos._exit(0)\n"}), 0.0

    return "local/calc-v1 (swebench, in_process)", grade(cat, {"env": "local/calc-v1", "row": 0}, answers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kinds", default="ledger", help="project kinds, comma-separated (default: ledger)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--swebench", action="store_true", help="add the in-process mode (the plugin tests' row)")
    args = ap.parse_args()
    import hub

    cat = hub.load(str(REPO / "plugins" / "envs" / "swe" / "registry.yaml"))
    rows = []
    for kind in [k for k in args.kinds.split(",") if k]:
        for task, modes in TASKS.items():
            for mode in modes:
                rows.append(generated(cat, kind, task, mode, args.seed))
                print_env(*rows[-1])
    if args.swebench:
        with tempfile.TemporaryDirectory() as tmp:
            rows.append(swebench(Path(tmp)))
            print_env(*rows[-1])
    bad = [(env, name, r) for env, graded in rows for group, name, r, passed, cap in graded
           if (group == "wrong" and (passed or r > max(0.5, cap if cap is not None else 0.0) + 1e-9))
           or (group == "right" and r < 1.0)]
    print(f"\n{len(rows)} environments, {sum(len(g) for _, g in rows)} answers; "
          + ("all as they should be" if not bad else f"WRONG: {bad}"))
    sys.exit(1 if bad else 0)


def print_env(env: str, graded) -> None:
    wrong = [r for g, _, r, _, _ in graded if g == "wrong"]
    right = [r for g, _, r, _, _ in graded if g == "right"]
    print(f"\n{env}: {len(wrong)} wrong (max {max(wrong):.3g}, passed {sum(p for g, _, _, p, _ in graded if g == 'wrong')}), "
          f"{len(right)} right (min {min(right):.3g})", flush=True)
    for group, name, reward, passed, cap in graded:
        print(f"  {group:<5} {name:<40} {reward:6.3f} {'passed' if passed else '':<6}"
              + (f" (cap {cap:.3g})" if cap is not None and group == "wrong" else ""), flush=True)


if __name__ == "__main__":
    main()
