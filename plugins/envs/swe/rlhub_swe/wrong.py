"""Wrong answers by kind for every task, made from the task's own parameters (tasks.Built):

- every task: an empty patch;
- bug, feature, rename: the symptom "fixed" in the tests (a regression test marked xfail, the
  failing tests skipped from a conftest.py) with the code untouched; the right change plus an
  unrelated bug from another site of the project (breaks PASS_TO_PASS tests);
- feature: only its first module written (a partial feature);
- rename: the definition renamed but not the call sites; the new name added as an alias with
  the old one kept;
- tests: tests that test nothing, tests that fail on the code as it is, a change detector that
  pins the module's bytecode (fails on an equivalent rewrite).
"""

from __future__ import annotations

import ast
import hashlib

from hub import Variant

from . import patch
from .mutation import equivalent
from .projects.model import Variant as ProjectVariant, render
from .tasks import Built


fenced = patch.fenced


def wrong_answers(b: Built) -> list[Variant]:
    out = [Variant("empty_patch", "```diff\n```\n", note="an empty diff", max_reward=0.0)]
    if b.params.task == "tests":
        return out + _tests_wrong(b)
    base = b.base.files
    out.append(Variant("fixed_in_tests", fenced(patch.make(base, _in_tests(b))), max_reward=0.0,
                       note="the failing behaviour pinned in a test marked xfail and the tests skipped by conftest.py; "
                            "the code untouched"))
    broken = _with_other_bug(b)
    if broken is not None:
        out.append(Variant("breaks_pass_to_pass", fenced(patch.make(base, broken)), max_reward=0.0,
                           note="the right change plus a new bug elsewhere: PASS_TO_PASS tests break"))
    if b.params.task == "feature":
        first = next(p for p in b.touched if p.endswith(".py"))
        partial = {**base, first: b.target_files[first]}
        out.append(Variant("partial_feature", fenced(patch.make(base, partial)),
                           max_reward=1 - 1 / max(2, len(b.fail_to_pass)), note=f"only {first} of the feature written"))
    if b.params.task == "rename":
        out += _rename_wrong(b)
    return out


def _in_tests(b: Built) -> dict[str, str]:
    imports = [line for line in b.hidden_tests.split("\n\n\n", 1)[0].splitlines() if line.strip()]
    tree = ast.parse(b.hidden_tests)
    lines = b.hidden_tests.splitlines(keepends=True)
    bodies = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in b.fail_to_pass:
            bodies.append("@pytest.mark.xfail(reason='see the issue', strict=False)\n"
                          + "".join(lines[node.lineno - 1:node.end_lineno]))
    test = "import pytest\n" + "\n".join(imports) + "\n\n\n" + "\n\n".join(bodies)
    conftest = ("import pytest\n\n\ndef pytest_collection_modifyitems(config, items):\n    for item in items:\n"
                "        item.add_marker(pytest.mark.skip(reason='known issue'))\n")
    return {**b.base.files, "tests/test_issue.py": test, "conftest.py": conftest}


def _with_other_bug(b: Built) -> dict[str, str] | None:
    """The target tree with a bug from another site whose tests are all PASS_TO_PASS here."""
    p, k = b.params, b.kind
    _, blocks = k.parsed
    f2p = set(b.fail_to_pass)
    for site in k.bugs:
        if p.task == "bug" and site.id == p.target:
            continue
        caught = {x.name for x in blocks if site.id in x.catches}
        if caught and not caught & f2p:
            names = ((_placeholder(b), p.new_name),) if p.task == "rename" else ()
            variant = ProjectVariant(frozenset({f"bug.{site.id}"}), names)
            return dict(render(k, p.seed, variant, p.units).files)
    return None


def _placeholder(b: Built) -> str:
    return next(r.placeholder for r in b.kind.renames if r.id == b.params.target)


def _rename_wrong(b: Built) -> list[Variant]:
    p = b.params
    r = next(r for r in b.kind.renames if r.id == p.target)
    base = b.base.files
    module_path = r.module.replace("$pkg", b.base.package).replace(".", "/") + ".py"
    out = []
    if module_path in b.target_files:
        only_def = {**base, module_path: b.target_files[module_path]}
        # wrong only where the package itself calls it elsewhere (tests and docs are not what is graded)
        call_sites = [p for p in b.touched if p != module_path and p.endswith(".py") and p.startswith(b.base.package + "/")]
        if call_sites:
            out.append(Variant("call_sites_left", fenced(patch.make(base, only_def)), max_reward=0.0,
                               note="the definition renamed, the call sites and imports elsewhere not"))
        old = b.base.values[r.placeholder]
        owner = b.base.values.get(r.owner, "") if r.owner else ""
        alias = f"\n{owner}.{old} = {owner}.{p.new_name}\n" if owner else f"\n{old} = {p.new_name}\n"
        kept = {**b.target_files, module_path: b.target_files[module_path] + alias}
        out.append(Variant("old_name_kept", fenced(patch.make(base, kept)), max_reward=1 - 1 / len(b.fail_to_pass),
                           note=f"renamed everywhere, but `{old}` kept as an alias"))
    return out


def _tests_wrong(b: Built) -> list[Variant]:
    m = b.hidden_mutation
    base = b.base.files
    module = m["module"][:-3].replace("/", ".")
    nothing = f"import {module}\n\n\ndef test_imports():\n    assert {module} is not None\n\n\n" \
              f"def test_true():\n    assert True\n\n\ndef test_again():\n    assert 1 + 1 == 2\n"
    failing = m["reference"] + f"\n\ndef test_expects_other_behaviour():\n    import {module} as _m\n" \
                               f"    assert _m.__name__ == {module + '_v2'!r}\n"
    detector = (f"import hashlib\nimport types\n\nimport {module} as _m\n\n\ndef _digest():\n    codes = []\n"
                f"    for name in sorted(vars(_m)):\n        value = getattr(_m, name)\n"
                f"        if isinstance(value, types.FunctionType) and value.__module__ == _m.__name__:\n"
                f"            codes.append(value.__code__.co_code)\n    return hashlib.sha256(b''.join(codes)).hexdigest()\n\n\n"
                f"def test_module_is_unchanged():\n    assert _digest() == {_bytecode_digest(base[m['module']])!r}\n\n\n"
                f"def test_module_is_unchanged_again():\n    assert _digest() == {_bytecode_digest(base[m['module']])!r}\n\n\n"
                f"def test_module_is_still_unchanged():\n    assert len(_digest()) == 64\n")
    return [
        Variant("tests_test_nothing", fenced(patch.make(base, {**base, m["tests"]: nothing})), max_reward=0.0,
                note="tests that import the module and assert nothing about it"),
        Variant("tests_fail_on_the_code", fenced(patch.make(base, {**base, m["tests"]: failing})), max_reward=0.0,
                note="the right tests plus one that fails on the module as it is"),
        Variant("change_detector", fenced(patch.make(base, {**base, m["tests"]: detector})), max_reward=0.0,
                note="tests that pin the module's bytecode instead of its behaviour (an equivalent rewrite fails them)"),
    ]


def _bytecode_digest(source: str) -> str:
    """What the change detector's _digest() gives on the module as written (same interpreter)."""
    code = compile(source, "<module>", "exec")
    tree = ast.parse(source)
    names = sorted(n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    by_name = {c.co_name: c for c in code.co_consts if hasattr(c, "co_code")}
    return hashlib.sha256(b"".join(by_name[n].co_code for n in names if n in by_name)).hexdigest()


__all__ = ["wrong_answers", "equivalent"]
