"""Host side of the in-process mode: the test patch goes over the model's tree, a hidden sentinel
test goes beside the tests, pytest runs FAIL_TO_PASS + PASS_TO_PASS + the sentinel (inprocess_harness.py).

Defences (the model's code shares the test process here, so they are the second line that
rlhub-unittest's stand-in makes unnecessary for generated projects):
- the model's edits to the test patch's files and to test configuration never reach the run
  (trees.restore, then the test patch applied over them);
- every expected test id must be reported, a missing one failed;
- the sentinel, named and written like its neighbours, must fail: reported passed (or not failing)
  means the results were forged, and the run earns 0 (`details.tampering`).
"""

from __future__ import annotations

import posixpath
import random

from hub import VerifierError

from . import patch

HARNESS = "rlhub_swe.inprocess_harness:run"
_WORDS = ("parse", "format", "merge", "split", "load", "save", "order", "empty", "large", "nested", "unicode", "default")


def sentinel(ids: list[str], tree: dict[str, str], rng: random.Random) -> tuple[str, str, str]:
    """(path, node id, source) of a test that fails in every genuine run, beside the first test file."""
    first = next((i.split("::", 1)[0] for i in ids if "::" in i), "tests/test_x.py")
    folder = posixpath.dirname(first)
    while True:
        name = f"test_{rng.choice(_WORDS)}_{rng.choice(_WORDS)}_{rng.randrange(10, 99)}"
        path = posixpath.join(folder, f"{name}.py") if folder else f"{name}.py"
        if path not in tree:
            break
    value = format(rng.getrandbits(40), "x")
    source = f"import os\n\n\ndef {name}():\n    assert os.sep * 2 == {value!r}\n"
    return path, f"{path}::{name}", source


def run_tests(h, final: dict[str, str], ctx):
    try:
        tree, _ = patch.apply(final, patch.parse(h.tests, max_bytes=64 << 20)) if h.tests.strip() else (final, [])
    except (patch.PatchRefused, patch.DoesNotApply) as exc:
        raise VerifierError(f"the task's test patch does not apply: {exc}") from None
    expected = [*h.fail_to_pass, *h.pass_to_pass]
    path, node, source = sentinel(expected, tree, random.SystemRandom())
    tree = {**tree, path: source}
    ids = [*expected, node]
    random.SystemRandom().shuffle(ids)
    profile = ctx.profile
    result = ctx.sandbox.call(profile, HARNESS, files=tree, args={"ids": ids, "timeout_s": max(1.0, profile.wall_timeout_s * 0.85 - 0.5)})
    if result.infra_error:
        raise VerifierError(f"sandbox failed (not the model's fault): {result.infra_error}")
    report = result.value if isinstance(result.value, dict) else None
    if report is None or not isinstance(report.get("results"), dict):
        why = "timed out" if result.timed_out else f"exit {result.exit_code}, signal {result.signal}"
        return None, {"reason": f"no test report ({why})"}, None
    results = report["results"]

    def ok(test_id: str) -> bool:
        entries = [e for n, e in results.items() if n == test_id or n.startswith(test_id + "[")]
        return bool(entries) and all(isinstance(e, dict) and e.get("outcome") == "passed" for e in entries)

    outcome = {t: ok(t) for t in expected}
    details = {}
    failures = {t: str((results.get(t) or {}).get("message") or "not reported")[-600:] for t in expected if not outcome[t]}
    if failures:
        details["failures"] = dict(list(failures.items())[:10])
    if report.get("collect_errors"):
        details["collect_errors"] = report["collect_errors"]
    if report.get("status") == "timeout":
        details["timed_out"] = True
    mark = results.get(node) or {}
    tamper = None
    if mark.get("outcome") == "passed":
        tamper = "a hidden test that every genuine run fails was reported as passed: results were forged"
    elif any(outcome.values()) and mark.get("outcome") != "failed":
        tamper = "a hidden test that every genuine run fails did not fail: the run cannot be trusted"
    if tamper:
        details["tampering"] = tamper
    return outcome, details, tamper
