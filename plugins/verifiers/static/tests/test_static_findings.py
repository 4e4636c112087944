"""Each analyser on real code in the sandbox: findings named by rule, line and message, the reward
from the documented formula, suppression comments ignored, and the config obeyed."""

from __future__ import annotations

import pytest

from rlhub_static.bandit import Bandit
from rlhub_static.mypy import Mypy
from rlhub_static.ruff import Ruff
from rlhub_static.shellcheck import ShellCheck

CLEAN = '''\
def add(a: int, b: int) -> int:
    return a + b
'''


def rules(verdict) -> list[tuple[str, int]]:
    return [(f["rule"], f["line"]) for f in verdict.details["findings"]]


@pytest.mark.parametrize("cls", [Ruff, Mypy, Bandit])
def test_clean_code_earns_one(analyse, cls):
    v = analyse(cls, CLEAN)
    assert v.error is None and v.reward == 1.0 and v.passed, v.details
    assert v.details["findings_total"] == 0 and v.details["tool"]["name"] == cls.name


def test_ruff_findings_and_formula(analyse):
    code = "import os\nimport sys\n\n\ndef f(x):\n    unused = 1\n    return x == None\n"
    v = analyse(Ruff, code, select=["F", "E7"], budget=4)
    assert rules(v) == [("F401", 1), ("F401", 2), ("F841", 6), ("E711", 7)]
    assert v.reward == 0.0 and not v.passed  # 4 findings, budget 4
    assert all(f["message"] for f in v.details["findings"])
    v = analyse(Ruff, code, select=["E7"], budget=4)  # only the selected families count
    assert rules(v) == [("E711", 7)] and v.reward == 0.75 and not v.passed


def without_directives(verdict) -> list[tuple[str, int]]:
    return [r for r in rules(verdict) if r[0] != "rlhub-blind-directive"]


def test_ruff_ignores_noqa_and_counts_each_directive(analyse):
    v = analyse(Ruff, "import os  # noqa\n# ruff: noqa\n", select=["F"])
    assert without_directives(v) == [("F401", 1)]  # what the directives would have silenced is found
    assert [r for r in rules(v) if r[0] == "rlhub-blind-directive"] == [("rlhub-blind-directive", 1), ("rlhub-blind-directive", 2)]
    assert v.reward == 0.0  # each weighs the whole budget
    v = analyse(Ruff, "# isort: skip_file\nimport re, json\nimport collections\n\nprint(re, json, collections)\n", select=["I", "E4"])
    assert {r for r, _ in rules(v)} == {"I001", "E401", "rlhub-blind-directive"}  # ruff obeys isort comments, we take them out


def test_mypy_strict_findings_and_type_ignore_taken_out(analyse):
    code = 'def label(n: int) -> int:\n    return f"#{n}"\n\n\ndef double(x):\n    return 2 * x\n\n\ny: int = "s"  # type: ignore\n'
    v = analyse(Mypy, code, budget=5)
    got = without_directives(v)
    assert ("return-value", 2) in got and ("no-untyped-def", 5) in got and ("assignment", 9) in got, got
    assert ("rlhub-blind-directive", 9) in rules(v) and v.reward == 0.0
    assert without_directives(analyse(Mypy, "# mypy: ignore-errors\nx: int = 'a'\n")) == [("assignment", 2)]
    assert without_directives(analyse(Mypy, code, strict=False)) == [("return-value", 2), ("assignment", 9)]


def test_mypy_counts_the_escape_hatches(analyse):
    code = "from typing import Any, no_type_check\n\n\n@no_type_check\ndef f(x):\n    return x\n\n\ndef g(x: Any) -> Any:\n    return x\n"
    assert {r for r, _ in rules(analyse(Mypy, code, disallow_any_explicit=True))} >= {"rlhub-no-type-check", "explicit-any"}


def test_bandit_weighs_findings_by_severity_and_ignores_nosec(analyse):
    code = ("import hashlib\nimport subprocess\n\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)  # nosec\n\n\n"
            "def h(data):\n    return hashlib.md5(data).hexdigest()\n")
    v = analyse(Bandit, code, budget=4)
    by_rule = {f["rule"]: f for f in v.details["findings"]}
    assert set(by_rule) == {"B404", "B602", "B324", "rlhub-blind-directive"}
    assert by_rule["B602"]["severity"] == "high" and by_rule["B404"]["severity"] == "low"
    assert v.details["weighted"] == 0.25 + 1.0 + 1.0 + 4 and v.reward == 0.0  # the `# nosec` weighs the budget
    v = analyse(Bandit, code.replace("  # nosec", ""), budget=4)
    assert v.details["weighted"] == 0.25 + 1.0 + 1.0 and v.reward == pytest.approx(1 - 2.25 / 4)
    v = analyse(Bandit, code.replace("  # nosec", ""), severity="medium")  # low-severity findings no longer count
    assert {f["rule"] for f in v.details["findings"]} == {"B602", "B324"}


def test_shellcheck_findings_and_directives_ignored(analyse):
    script = "#!/bin/bash\n# shellcheck disable=SC2086\nfor f in $(ls *.txt); do\n  cat $f\ndone\n"
    v = analyse(ShellCheck, script, "bash", budget=10)
    assert ("SC2045", 3) in rules(v) and ("SC2086", 4) in rules(v) and ("rlhub-blind-directive", 2) in rules(v), rules(v)
    assert v.reward == 0.0
    v = analyse(ShellCheck, script.replace("# shellcheck disable=SC2086\n", ""), "bash", budget=10)
    assert v.reward == pytest.approx(1 - len(rules(v)) / 10)
    v = analyse(ShellCheck, script, "bash", severity="warning")  # style and info no longer count
    assert all(f["severity"] in ("warning", "error") for f in v.details["findings"])
    assert analyse(ShellCheck, '#!/bin/bash\necho "$1"\n', "bash").reward == 1.0


def test_no_code_and_unparsable_code_earn_zero_with_the_reason(analyse):
    v = analyse(Ruff, None)
    assert v.error is None and v.reward == 0.0 and "no python code" in v.details["reason"]
    v = analyse(Mypy, "def broken(:\n")
    assert v.error is None and v.reward == 0.0 and "does not parse" in v.details["reason"]
    v = analyse(Mypy, "x = " + "1 + " * 100_000 + "1\n", max_response_chars=10**6)  # deeper than CPython compiles
    assert v.error is None and v.reward == 0.0  # (where this thread's stack lets it compile: too deep to read)
    assert "does not parse" in v.details["reason"] or "nested too deeply" in v.details["reason"]
    v = analyse(ShellCheck, "print('not bash')")  # a python block is no bash answer
    assert v.reward == 0.0 and "no bash code" in v.details["reason"]


def test_bad_config_is_refused():
    with pytest.raises(ValueError, match="not ruff rule codes"):
        Ruff.Config(select=["E", "not a rule"])
    with pytest.raises(ValueError, match="not bandit test ids"):
        Bandit.Config(skip=["B60"])
    with pytest.raises(ValueError, match="not shellcheck codes"):
        ShellCheck.Config(exclude=["2086"])


MYPY_CASES = [
    "def f(x: int) -> str:\n    return x\n",  # an error in the solution
    "import re\n\ndef words(s: str) -> list[str]:\n    return re.findall(r'\\w+', s)\n",  # a warm module, used right
    "import collections\n\ndef top(s: str) -> str:\n    return collections.Counter(s).most_common(1)[0]\n",  # and wrong
    "import sqlite3\n\ndef db() -> int:\n    return sqlite3.connect(':memory:')\n",  # a module the cache lacks
    "def untyped(a, b):\n    return a + b\n",
]


@pytest.mark.parametrize("code", MYPY_CASES)
@pytest.mark.parametrize("strict", [True, False])
def test_mypy_warm_cache_gives_the_cold_report(analyse, monkeypatch, code, strict):
    """Each run gets a copy of mypy's analysis of the standard library (built once per process,
    outside the sandbox); its report is the one a cold run gives."""
    from rlhub_static.mypy import CACHE_DIR

    verifier = Mypy(Mypy.Config(strict=strict))
    assert f"--cache-dir={CACHE_DIR}" in verifier.argv()
    assert any(name.endswith(".db") or name.endswith(".json") for name in verifier.support_files(None))
    warm = analyse(Mypy, code, strict=strict)
    monkeypatch.setenv("RLHUB_CACHE", "off")  # what the checks' fresh process sets: a cold run
    assert "--no-incremental" in verifier.argv() and verifier.support_files(None) == {}
    cold = analyse(Mypy, code, strict=strict)
    assert warm.error is None and cold.error is None
    assert (warm.reward, rules(warm), warm.details["findings"]) == (cold.reward, rules(cold), cold.details["findings"])
