"""Fidelity: a value behaves in the tests as it does in one process. Every task of
examples/conformance_values.py (namedtuples, dataclasses, enums, aware datetimes, paths,
addresses, exceptions with attributes, deep and huge values, subclassed classes...) is graded
two ways: by plain single-process pytest (the solution imported next to its tests) and by
`unit_tests`. Its correct solution passes both, its wrong one fails both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from ut_helpers import fenced

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "examples"))
from conformance_values import TASKS  # noqa: E402

sys.path.remove(str(HERE / "examples"))

# One plain pytest run collects every task's test file; each file's `import solution` gets the
# solution next to it (pytest's default import mode puts the file's directory first on sys.path,
# and the previous task's `solution` is dropped before each file is collected).
_DRIVER = """
import json, os, sys
import pytest

class OneSolutionPerFile:
    def __init__(self):
        self.failed = {}

    def pytest_collectstart(self, collector):
        if isinstance(collector, pytest.Module):
            sys.modules.pop("solution", None)

    def pytest_collectreport(self, report):
        if report.failed:
            self.failed[report.nodeid.split("::")[0]] = True

    def pytest_runtest_logreport(self, report):
        key = report.nodeid.split("::")[0]
        self.failed[key] = self.failed.get(key, False) or report.failed

plugin = OneSolutionPerFile()
pytest.main([".", "-q", "-p", "no:cacheprovider", "-c", os.devnull, "--rootdir", "."], plugins=[plugin])
print("RESULTS " + json.dumps({os.path.dirname(k): int(v) for k, v in plugin.failed.items()}))
"""


def _wrong(task) -> str:
    old, new = task.wrong
    return task.solution.replace(old, new, 1)


@pytest.fixture(scope="module")
def plain_pytest(tmp_path_factory):
    """{task/right|wrong: pytest's exit code} from one plain single-process pytest run per variant."""
    root = tmp_path_factory.mktemp("plain")
    for task in TASKS:
        for variant, code in (("right", task.solution), ("wrong", _wrong(task))):
            where = root / task.name / variant
            where.mkdir(parents=True)
            (where / "solution.py").write_text(textwrap.dedent(code).lstrip())
            (where / f"test_{task.name}_{variant}.py").write_text(textwrap.dedent(task.tests).lstrip())
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # no rlhub plugin, no xdist: plain pytest
    out = subprocess.run([sys.executable, "-c", _DRIVER], cwd=root, capture_output=True, text=True, timeout=600, env=env)
    line = next((l for l in out.stdout.splitlines() if l.startswith("RESULTS ")), None)
    assert line is not None, out.stdout[-3000:] + out.stderr[-3000:]
    return json.loads(line[len("RESULTS "):])


def test_there_are_enough_tasks_of_every_kind():
    assert len(TASKS) >= 60 and len({t.name for t in TASKS}) == len(TASKS)


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_a_correct_solution_passes_as_in_one_process(task, plain_pytest, verify):
    assert plain_pytest[f"{task.name}/right"] == 0, "the correct solution fails under plain pytest"
    assert plain_pytest[f"{task.name}/wrong"] == 1, "the wrong solution passes under plain pytest"
    right = verify(textwrap.dedent(task.tests).lstrip(), fenced(textwrap.dedent(task.solution).lstrip()))
    assert (right.reward, right.error) == (1.0, None), right.details
    wrong = verify(textwrap.dedent(task.tests).lstrip(), fenced(textwrap.dedent(_wrong(task)).lstrip()))
    assert (wrong.reward, wrong.error) == (0.0, None), wrong.details
