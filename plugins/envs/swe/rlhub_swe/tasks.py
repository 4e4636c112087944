"""Tasks over generated projects: what the model gets (the base tree, the issue), where it must
end (the target tree), and what grades it (hidden tests: FAIL_TO_PASS and PASS_TO_PASS).

- bug: a bug injected at a site of the project (`bug.ID`); the issue describes the symptom;
  FAIL_TO_PASS are the hidden tests it fails, PASS_TO_PASS the rest of the suite;
- feature: the project without a feature (`without.ID`) that spans two modules or more;
  FAIL_TO_PASS are the tests of the feature;
- rename: an API renamed across its definition, call sites, imports, tests and docs; the hidden
  tests use the new name, and one more checks the old one is gone;
- tests: a module's test file is missing; graded by mutants its new tests kill (mutation.py).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from . import patch, stated
from .projects.kinds import kind as project_kind
from .projects.model import CLEAN, Project, ProjectKind, Variant, parse_tests, render
from .projects.template import render as render_text

TASKS = ("bug", "feature", "rename", "tests")
OLD_NAME_TEST = "test_old_name_is_gone"


@dataclass(frozen=True)
class Params:
    project: str           # the project kind
    seed: int              # the project's own seed (its names and constants)
    task: str              # bug | feature | rename | tests
    target: str            # the bug site, feature, rename or test area
    units: int | None = None
    new_name: str = ""     # rename: the name it gets


@dataclass
class Built:
    """Everything derived from the parameters, once."""

    params: Params
    kind: ProjectKind
    base: Project                  # what the model starts from
    target: Project                # where the reference ends
    recipe: dict                   # how the verifier rebuilds `base`
    target_files: dict[str, str]
    issue: str
    hidden_tests: str
    fail_to_pass: list[str]
    pass_to_pass: list[str]
    touched: list[str]             # files the reference changes
    secrets: list[str]
    hidden_mutation: dict | None = None  # tests: what mutation.py grades
    stated: dict[str, list[str]] | None = None  # feature: each name the issue asks for -> the F2P tests that use it
    rename: dict | None = None     # rename: what renames.kept reads (old name, package, the target's recipe)
    reordered_tests: dict[str, str] | None = None  # tests: the target with the test functions in another order

    @property
    def suite_recipe(self) -> dict | None:
        """The target's recipe: its whole suite, as the repository would hold it (plain_pytest)."""
        return None if self.params.task == "tests" else recipe(self.params, Variant(
            names=((next(r.placeholder for r in self.kind.renames if r.id == self.params.target), self.params.new_name),))
            if self.params.task == "rename" else CLEAN)

    @property
    def reference_diff(self) -> str:
        return patch.make(self.base.files, self.target_files)


def recipe(p: Params, variant: Variant, drop_tests: tuple[str, ...] = ()) -> dict:
    out = {"kind": p.project, "seed": p.seed, "flags": sorted(variant.flags), "names": [list(x) for x in variant.names]}
    if p.units is not None:
        out["units"] = p.units
    if drop_tests:
        out["drop_tests"] = list(drop_tests)
    return out


def _mentions(source: str, placeholder: str) -> bool:
    return re.search(r"\$(?:" + re.escape(placeholder) + r"(?!\w)|\{" + re.escape(placeholder) + r"\})", source) is not None


@functools.lru_cache(maxsize=32)
def build(p: Params) -> Built:
    k = project_kind(p.project)
    headers, blocks = k.parsed
    if p.task == "bug":
        base_v, target_v, drop = Variant(frozenset({f"bug.{p.target}"})), CLEAN, ()
    elif p.task == "feature":
        base_v, target_v, drop = Variant(frozenset({f"without.{p.target}"})), CLEAN, ()
    elif p.task == "rename":
        r = next(r for r in k.renames if r.id == p.target)
        base_v, target_v, drop = CLEAN, Variant(names=((r.placeholder, p.new_name),)), ()
    elif p.task == "tests":
        base_v, target_v, drop = CLEAN, CLEAN, (p.target,)
    else:
        raise ValueError(f"unknown task {p.task!r}")
    base = render(k, p.seed, base_v, p.units, drop)
    target = render(k, p.seed, target_v, p.units)
    values = base.values
    target_files = dict(target.files)
    hidden = target.hidden_tests
    names = [b.name for b in blocks]
    secrets: list[str] = []
    if p.task == "bug":
        site = next(b for b in k.bugs if b.id == p.target)
        f2p = [b.name for b in blocks if p.target in b.catches]
        issue = render_text(site.issue, values)
    elif p.task == "feature":
        feature = next(f for f in k.features if f.id == p.target)
        f2p = [b.name for b in blocks if p.target in b.needs]
        issue = render_text(feature.issue, values)
    elif p.task == "rename":
        r = next(r for r in k.renames if r.id == p.target)
        old = values[r.placeholder]
        module = render_text(r.module, values)
        owner = values.get(r.owner, "") if r.owner else ""
        f2p = [b.name for b in blocks if _mentions(b.source, r.placeholder)] + [OLD_NAME_TEST]
        holder = f"{module}.{owner}" if owner else module
        # the class whose instances the tests make: a renamed method's owner, a renamed class itself
        probed = (module, owner or (p.new_name if r.what == "class" else ""), old)
        old_name_test = _old_name_test(target, module, owner, old, p.new_name, r.what)
        hidden = probe_instances(hidden, f2p, *probed) + "\n\n" + old_name_test
        names.append(OLD_NAME_TEST)
        what = {"function": "the function", "class": "the class", "method": "the method"}[r.what]
        issue = (f"Please rename {what} `{old}` (`{holder}.{old}`) to `{p.new_name}`. Update its definition and every "
                 f"place that uses it: call sites, imports, `__all__`, the tests and the README. The old name must not "
                 f"exist afterwards in any module (no alias: not an assignment, an import under the old name, a "
                 f"property or a `__getattr__`), and nothing else may change behaviour.")
    else:  # tests
        module_path = render_text(k.mutation_areas[p.target], values)
        header = render_text(headers[p.target], values)
        area = [render_text(b.source, values) for b in blocks if b.area == p.target]
        test_path = f"tests/test_{p.target}.py"
        target_files[test_path] = header + "\n\n" + "\n\n".join(area)
        reordered = dict(target_files, **{test_path: header + "\n\n" + "\n\n".join(reversed(area))})
        mutation = {"module": module_path, "tests": test_path, "reference": target_files[test_path], "min_tests": 3}
        f2p = []
        issue = (f"`{module_path}` lost its tests: `tests/test_{p.target}.py` is gone. Write that file again: pytest "
                 f"tests of what `{module_path}` does, written the way the other test files are. They must pass on the "
                 f"code as it is; they are graded by how many deliberately broken versions of the module they catch "
                 f"(changed comparisons, constants, conditions...), so test behaviour, edge cases included, not the "
                 f"source text.")
    p2p = [n for n in names if n not in f2p] if p.task != "tests" else []
    touched = patch.changed_paths(base.files, target_files)
    api = None
    if p.task == "feature":
        tests = {b.name: render_text(headers[b.area] + b.source, target.values) for b in blocks if b.name in f2p}
        names = stated.named_api(issue, base.files, target_files, base.package, "feature")
        api = stated.coverage(names, tests)
        missing = [n for n, used in api.items() if not used]
        if missing:
            raise ValueError(f"{p.project} feature {p.target}: the issue asks for {missing}, which no hidden test uses")
        rest = [t for t in f2p if not any(t in used for used in api.values())]
        if rest:  # what the issue asks for in words: one more part of the share
            api[stated.BEHAVIOUR] = rest
    secrets = [render_text(b.source, target.values).strip() for b in blocks if b.name in f2p and not b.visible]
    built = Built(p, k, base, target, recipe(p, base_v, drop), target_files, issue, hidden, f2p, p2p, touched, secrets,
                  stated=api)
    if p.task == "rename":
        built.rename = {"old": values[r.placeholder], "new": p.new_name, "package": base.package,
                        "target": {"generated": recipe(p, target_v)}, "probed": list(probed),
                        "old_name_test": old_name_test}
    if p.task == "tests":
        built.hidden_mutation, built.reordered_tests = mutation, reordered
    return built


def _old_name_test(target: Project, module: str, owner: str, old: str, new: str, what: str = "") -> str:
    """The hidden test that the old name is gone: a function's or class's from every module of the
    package (imported by name: no re-export or alias survives), a method's from its class, each
    looked up as a user would find it (`hasattr`, which runs any `__getattr__`, and `dir()`); the
    new name is where the issue says, and a renamed class does not answer to its old name."""
    modules = [] if owner else sorted(
        path[:-3].replace("/", ".").removesuffix(".__init__") for path in target.files
        if path.startswith(target.package + "/") and path.endswith(".py") and not path.endswith("__main__.py"))
    holder = f"_m.{owner}" if owner else "_m"
    scan = (f"    import importlib\n\n    for name in {modules!r}:\n        _where = importlib.import_module(name)\n"
            f"        assert not hasattr(_where, {old!r}), {KEPT.format(old)!r} + name + ' has it'\n"
            f"        assert {old!r} not in dir(_where), {KEPT.format(old)!r} + 'dir(' + name + ') lists it'\n") if modules else ""
    kept, shown = KEPT.format(old), f"{module}.{owner}" if owner else module
    renamed_class = (f"    assert not hasattr(_m.{new}, {old!r}) and {old!r} not in dir(_m.{new}), {kept + new + ' has it'!r}\n"
                     if what == "class" else "")
    return (f"def {OLD_NAME_TEST}():\n{scan}"
            f"    import {module} as _m\n    assert not hasattr({holder}, {old!r}), {kept + shown + ' has it'!r}\n"
            f"    assert {old!r} not in dir({holder}), {kept + 'dir(' + shown + ') lists it'!r}\n"
            f"{renamed_class}    assert hasattr({holder}, {new!r})\n")


PROBE = "_rlhub_no_old_name_on"  # the helper the probed tests call (a name no project uses)
KEPT = "the old name `{}` is kept: "  # how a failing look-up begins (the verifier reads it: swe_tests.score)


def probe_instances(source: str, tests: list[str], module: str, cls: str, old: str) -> str:
    """`source` (a test module) with each of `tests` ending in a look at its locals: an instance of
    `module.cls` among them must not have the old name (`hasattr`, `dir()`), however the package
    gave it one (an instance attribute, a base class made at run time...). No class: unchanged."""
    if not cls:
        return source
    import ast

    lines = source.splitlines(keepends=True)
    spots = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name in tests and node.body:
            spots.append((node.end_lineno, " " * node.body[0].col_offset))
    for end, indent in sorted(spots, reverse=True):
        lines.insert(end, f"{indent}{PROBE}(locals(), {module!r}, {cls!r}, {old!r})\n")
    if not spots:
        return source
    helper = (f"\n\ndef {PROBE}(found, module, cls, old):\n    import importlib\n\n"
              f"    owner = getattr(importlib.import_module(module), cls)\n    for value in list(found.values()):\n"
              # a test's own modules, functions and plain values are never the package's instances: not sent to
              # its process (the stand-in's solution process ends on some of them, e.g. `pytest.raises`)
              f"        if type(value) in (int, float, str, bytes, bool, type(None)) or type(value).__name__ in (\n"
              f"                'module', 'function', 'builtin_function_or_method', 'method', 'type'):\n"
              f"            continue\n"
              f"        try:\n            mine = isinstance(value, owner)\n        except Exception:\n            continue\n"
              f"        if mine:\n            assert not hasattr(value, old), {KEPT.format('{old}')!r}.format(old=old) + 'an instance of ' + cls + ' has it'\n"
              f"            assert old not in dir(value), {KEPT.format('{old}')!r}.format(old=old) + 'dir() of an instance of ' + cls + ' lists it'\n")
    text = "".join(lines)
    return text + ("" if text.endswith("\n") else "\n") + helper


@functools.lru_cache(maxsize=16)
def _suite(recipe_json: str) -> tuple[dict[str, str], dict[str, str]]:
    import json

    from .trees import generated

    recipe = json.loads(recipe_json)
    project = generated(recipe)
    headers, blocks = project_kind(recipe["kind"]).parsed
    files: dict[str, list[str]] = {}
    where = {}
    for b in blocks:
        path = f"tests/test_{b.area}.py"
        files.setdefault(path, [render_text(headers[b.area], project.values)]).append(render_text(b.source, project.values))
        where[b.name] = path
    return {p: parts[0] + "\n\n" + "\n\n".join(parts[1:]) for p, parts in files.items()}, where


def suite_files(recipe: dict) -> tuple[dict[str, str], dict[str, str]]:
    """The whole suite of the project `recipe` renders, laid out as its repository would hold it:
    ({tests/test_<area>.py: every test of the area}, {test name: its file})."""
    import json

    files, where = _suite(json.dumps(recipe, sort_keys=True))
    return dict(files), dict(where)
