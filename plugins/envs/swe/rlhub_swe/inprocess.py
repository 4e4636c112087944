"""Host side of the in-process mode: the test patch goes over the model's tree, hidden sentinel
tests go into the test modules that hold FAIL_TO_PASS tests, and pytest runs FAIL_TO_PASS +
PASS_TO_PASS + the sentinels (inprocess_harness.py).

Defences (the model's code shares the test process here, so they are the second line that
rlhub-unittest's stand-in makes unnecessary for generated projects):
- the model's edits to the test patch's files and to test configuration never reach the run
  (trees.restore, then the test patch applied over them);
- every expected test id must be reported, with a call-phase report: a missing one failed, one
  that "passed" without its call phase ran is tampering;
- the sentinels (at least two, one in each module with FAIL_TO_PASS tests) are written in those
  modules' style: named from their neighbours' words, using a name the module imports from the
  repository's own packages; every genuine run fails them. One reported passed (or not failing)
  means the results were forged, and the run earns 0 (`details.tampering`).
"""

from __future__ import annotations

import ast
import random
import re

from hub import VerifierError

from . import patch

HARNESS = "rlhub_swe.inprocess_harness:run"
_WORDS = ("parse", "format", "merge", "split", "load", "save", "order", "empty", "large", "nested", "unicode", "default")
MIN_SENTINELS = 2


def _module_names(source: str, packages: set[str]) -> list[str]:
    """Names a test module imports from the repository's own packages (`from calc import add` -> add;
    `import calc.ops` -> calc), in order."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    out: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.split(".")[0] in packages:
            out += [a.asname or a.name for a in node.names if a.name != "*"]
        elif isinstance(node, ast.Import):
            out += [a.asname or a.name.split(".")[0] for a in node.names if a.name.split(".")[0] in packages]
    return [n for n in dict.fromkeys(out)]


def _words(source: str) -> list[str]:
    words = [w for name in re.findall(r"^\s*def (test_\w+)", source, re.M) for w in name.split("_")[1:] if len(w) > 2]
    return sorted(set(words)) or list(_WORDS)


def _copies(source: str, wanted: set[str]) -> list[tuple[str, str, str]]:
    """(name, source lines, body indent) of the module-level tests in `wanted` that can be copied:
    plain or parametrized (a skip or xfail mark would make a copy pass or skip)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    lines = source.splitlines(keepends=True)
    out = []
    for node in tree.body:
        if not (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in wanted and node.body):
            continue
        if any("parametrize" not in ast.unparse(d) for d in node.decorator_list):
            continue
        start = min([d.lineno for d in node.decorator_list] + [node.lineno])
        out.append((node.name, "".join(lines[start - 1:node.end_lineno]), " " * node.body[0].col_offset))
    return out


def sentinels(ids: list[str], tree: dict[str, str], rng: random.Random) -> tuple[dict[str, str], list[str]]:
    """({path: module text with sentinel tests appended}, their node ids): at least MIN_SENTINELS,
    one in each module holding FAIL_TO_PASS tests, each failing in every genuine run. A sentinel is
    a copy of one of the module's FAIL_TO_PASS tests under a name made of its neighbours' words,
    with one more assertion at its end that never holds: it calls the repository's code as that
    test does. Where no test can be copied, it uses a name the module imports from the repository."""
    modules = [m for m in dict.fromkeys(i.split("::", 1)[0] for i in ids if "::" in i) if m in tree] or ["tests/test_x.py"]
    packages = {p.split("/", 1)[0] for p in tree if "/" in p and p.endswith("/__init__.py")}
    packages |= {p[:-3] for p in tree if "/" not in p and p.endswith(".py") and not p.startswith("test")}
    wanted = {}
    for i in ids:
        path, _, rest = i.partition("::")
        if rest and "::" not in rest:
            wanted.setdefault(path, set()).add(rest.split("[", 1)[0])
    plan = [modules[i % len(modules)] for i in range(max(MIN_SENTINELS, len(modules)))]
    texts, nodes = {}, []
    for path in plan:
        text = texts.get(path, tree.get(path, ""))
        words = _words(text)
        while True:
            name = "test_" + "_".join(rng.sample(words, min(len(words), rng.choice((2, 3)))))
            if not re.search(rf"^\s*(?:async\s+)?def {name}\b", text, re.M):
                break
            words = words + [format(rng.randrange(100), "d")]
        value, other = format(rng.getrandbits(48), "x"), format(rng.getrandbits(48), "x")
        copies = _copies(tree.get(path, ""), wanted.get(path, set()))
        if copies:
            old, source, indent = rng.choice(copies)
            source = re.sub(rf"^(\s*(?:async\s+)?def ){re.escape(old)}\b", rf"\g<1>{name}", source, count=1, flags=re.M)
            texts[path] = text.rstrip("\n") + "\n\n\n" + source.rstrip("\n") + f"\n{indent}assert {value!r} == {other!r}\n"
        else:
            used = _module_names(text, packages)
            body = (f"    assert repr({rng.choice(used)}) == {value!r}\n" if used
                    else f"    import os\n\n    assert os.sep * 2 == {value!r}\n")
            texts[path] = text.rstrip("\n") + f"\n\n\ndef {name}():\n{body}"
        nodes.append(f"{path}::{name}")
    return texts, nodes


def run_tests(h, final: dict[str, str], ctx):
    try:
        tree, _ = patch.apply(final, patch.parse(h.tests, max_bytes=64 << 20)) if h.tests.strip() else (final, [])
    except (patch.PatchRefused, patch.DoesNotApply) as exc:
        raise VerifierError(f"the task's test patch does not apply: {exc}") from None
    expected = [*h.fail_to_pass, *h.pass_to_pass]
    texts, marks = sentinels(h.fail_to_pass or expected, tree, random.SystemRandom())
    tree = {**tree, **texts}
    ids = [*expected, *marks]
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

    def entries(test_id: str) -> list:
        return [e for n, e in results.items() if n == test_id or n.startswith(test_id + "[")]

    def ok(test_id: str) -> bool:
        found = entries(test_id)
        return bool(found) and all(isinstance(e, dict) and e.get("outcome") == "passed" and e.get("call") for e in found)

    outcome = {t: ok(t) for t in expected}
    details = {}
    failures = {t: str((results.get(t) or {}).get("message") or "not reported")[-600:] for t in expected if not outcome[t]}
    if failures:
        details["failures"] = dict(list(failures.items())[:10])
    if report.get("collect_errors"):
        details["collect_errors"] = report["collect_errors"]
    if report.get("status") == "timeout":
        details["timed_out"] = True
    tamper = None
    uncalled = [t for t in expected for e in entries(t) if isinstance(e, dict) and e.get("outcome") == "passed"
                and not e.get("call")]
    marked = {m: [e.get("outcome") if isinstance(e, dict) else None for e in entries(m)] or [None] for m in marks}
    if any(o == "passed" for found in marked.values() for o in found):
        tamper = "a hidden test that every genuine run fails was reported as passed: results were forged"
    elif uncalled:
        tamper = f"{uncalled[0]} was reported passed without its test ever being called: results were forged"
    elif any(outcome.values()) and any(o != "failed" for found in marked.values() for o in found):
        tamper = "a hidden test that every genuine run fails did not fail: the run cannot be trusted"
    if tamper:
        details["tampering"] = tamper
    return outcome, details, tamper
