"""Running a generated project's own suites with plain pytest in a temporary directory (the
projects are ours: no model code runs here), for the tests of the generator."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HIDDEN_DIR = "hidden"
# The projects need pytest alone, as in the sandbox: the installed plugins (hypothesis', rlhub's
# own...) cost ~1 s of imports per run, most of a small suite's time.
PLAIN_PYTEST = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


def outcomes(files: dict[str, str], hidden: str | None = None, visible: bool = True) -> dict[str, tuple[set[str], set[str]]]:
    """{"visible": (failing, passing), "hidden": (failing, passing)}: the repository's own suite
    (tests/) and/or the hidden module, each in a pytest process of its own (module state, such as
    a mutable default, never leaks from one suite into the other), both at once. A test counts
    once per suite, its parametrized cases together; a skipped test is not a passing one."""
    with tempfile.TemporaryDirectory() as d:
        for path, text in files.items():
            full = os.path.join(d, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        targets = {"visible": "tests"} if visible else {}
        if hidden is not None:
            os.makedirs(os.path.join(d, HIDDEN_DIR), exist_ok=True)
            with open(os.path.join(d, HIDDEN_DIR, "test_all_hidden.py"), "w") as f:
                f.write(hidden)
            targets["hidden"] = HIDDEN_DIR
        runs = {suite: subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                                         target, f"--junitxml={os.path.join(d, suite + '.xml')}"], cwd=d, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **PLAIN_PYTEST})
                for suite, target in targets.items()}
        out: dict[str, tuple[set[str], set[str]]] = {}
        for suite, run in runs.items():
            output, _ = run.communicate(timeout=300)
            report = os.path.join(d, suite + ".xml")
            if not os.path.exists(report):
                raise RuntimeError(f"pytest wrote no report for the {suite} suite (exit {run.returncode}): {output[-3000:]}")
            bad, good = out.setdefault(suite, (set(), set()))
            for case in ET.parse(report).getroot().iter("testcase"):
                name = case.get("name", "").split("[", 1)[0]
                failed = any(case.find(tag) is not None for tag in ("failure", "error", "skipped"))
                (bad if failed else good).add(name)
            good.difference_update(bad)  # a test with one failing case fails
        return out


def failing(files: dict[str, str], hidden: str | None = None) -> tuple[set[str], set[str]]:
    """(failing test names, passing test names) of the visible suite, or of `hidden` (one module)."""
    return outcomes(files, hidden, visible=hidden is None).get("hidden" if hidden is not None else "visible", (set(), set()))
