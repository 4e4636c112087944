"""The project generator, kind by kind (every name in projects.kinds.NAMES): templates that follow
their own rules, deterministic rendering, sizes the issue asks for, suites that pass on the clean
project, and bug sites and features that fail exactly the tests that say they do."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from rlhub_swe.projects.kinds import NAMES, kind
from rlhub_swe.projects.model import Variant, check_kind, draw, render
from rlhub_swe.envs import CHARS_PER_TOKEN
from rlhub_swe.projects.template import fill
from rlhub_swe.tasks import build
from suite_runs import outcomes

SEED = 7  # one project per kind, at its default unit count


def package_modules(project) -> list[str]:
    return [p for p in project.files if p.startswith(project.package + "/") and p.endswith(".py")]


def variants() -> list[tuple[str, str, str]]:
    """(kind, "bug" | "feature", id) for every bug site and feature of every kind."""
    out = []
    for name in NAMES:
        k = kind(name)
        out += [(name, "bug", b.id) for b in k.bugs] + [(name, "feature", f.id) for f in k.features]
    return out


@pytest.mark.parametrize("name", NAMES)
def test_kind_templates_have_no_problems(name):
    k = kind(name)
    assert check_kind(k) == []
    assert k.bugs and k.features and k.renames and k.mutation_areas, f"{name}: every task kind needs its targets"


@pytest.mark.parametrize("name", NAMES)
def test_rendering_is_deterministic_across_processes(name):
    """The same seed gives the same files in a fresh interpreter with another hash seed (no
    reliance on set order or global random state); another seed draws other names."""
    k = kind(name)
    here = render.__wrapped__(k, SEED)  # past the cache: a second real rendering
    assert here.digest() == render(k, SEED).digest()
    script = ("import json, sys\nfrom rlhub_swe.projects.kinds import kind\nfrom rlhub_swe.projects.model import render\n"
              f"p = render(kind({name!r}), {SEED})\nprint(json.dumps([p.digest(), p.package, p.units]))")
    for hash_seed in ("0", "12345"):
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False,
                             env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout) == [here.digest(), here.package, here.units]
    other = render(k, SEED + 1)
    assert other.digest() != here.digest()
    drawn, again = draw(k, SEED)[0], draw(k, SEED + 1)[0]
    assert {p: v for p, v in drawn.items() if v != again[p]}, "another seed must draw other names or constants"


@pytest.mark.parametrize("name", NAMES)
def test_sizes_at_the_smallest_and_largest_unit_counts(name):
    k = kind(name)
    lo, hi = k.units.count
    sizes = {}
    for units in (lo, hi):
        p = render(k, SEED, units=units)
        assert p.units == units
        sizes[units] = (len(package_modules(p)), p.lines)
        modules, lines = sizes[units]
        assert 8 <= modules <= 40, f"{name} at {units} units: {modules} modules"
        assert 2000 <= lines <= 8000, f"{name} at {units} units: {lines} lines of Python"
        assert "README.md" in p.files and "pyproject.toml" in p.files
        assert f"{p.package}/__init__.py" in p.files and any(f.startswith("tests/test_") for f in p.files)
    assert sizes[hi][0] > sizes[lo][0] and sizes[hi][1] > sizes[lo][1]


@pytest.mark.parametrize("name", NAMES)
def test_whole_repository_prompts_hold_32k_to_128k_tokens(catalog, name):
    """Repo mode puts every file of the project in one prompt, grown to the family's target (40k
    tokens by default, at 4 characters a token), within the issue's 32k to 128k; a target past what
    the kind's largest project holds is refused when the registry loads."""
    env = f"swe/{name}-bug-repo-v1"
    family = catalog.get(env).env.family
    assert 40_000 <= family.largest_tokens() <= 128_000
    for seed in range(3):
        task = catalog.task({"env": env, "seed": seed})
        prompt = task.prompt_text()
        tokens = len(prompt) / CHARS_PER_TOKEN
        assert 38_000 <= tokens <= 128_000, f"{env} seed {seed}: about {tokens:.0f} tokens"
        files = build(catalog.get(env).env.params(seed)).base.files
        assert all(text.strip() in prompt for text in files.values() if text.strip())
    with pytest.raises(ValueError, match="target_tokens must be between 8000 and"):
        family.configure(target_tokens=family.largest_tokens() + 1000)
    largest = family.configure(target_tokens=family.largest_tokens())
    assert largest.units_for(0) == kind(name).units.count[1] > family.units_for(0)


@pytest.mark.parametrize("name", NAMES)
def test_modules_import_each_other(name):
    """A change in one module is felt in others: most modules import another of the package."""
    p = render(kind(name), SEED)
    pkg = p.package
    importing = [path for path in package_modules(p)
                 if f"from {pkg}" in p.files[path] or "from ." in p.files[path] or f"import {pkg}" in p.files[path]]
    assert len(importing) >= len(package_modules(p)) // 2


@pytest.mark.parametrize("name", NAMES)
def test_clean_project_passes_its_own_suite_and_the_hidden_tests(name):
    p = render(kind(name), SEED)
    runs = outcomes(p.files, p.hidden_tests)
    visible_bad, visible_good = runs["visible"]
    hidden_bad, hidden_good = runs["hidden"]
    assert visible_bad == set() and len(visible_good) >= 10
    assert hidden_bad == set() and hidden_good == set(p.test_ids)
    assert visible_good < hidden_good  # the repository shows some of the tests, the hidden suite has all


@pytest.mark.parametrize("name,what,target", variants(), ids=lambda x: x if isinstance(x, str) else None)
def test_each_bug_and_missing_feature_fails_exactly_its_tests(name, what, target):
    """A bug site fails exactly its `catches=` tests, a missing feature exactly its `needs=` tests;
    the repository's own suite stays green either way (the visible tests that need a missing
    feature are left out of it)."""
    k = kind(name)
    _, blocks = k.parsed
    flag = f"bug.{target}" if what == "bug" else f"without.{target}"
    expected = {b.name for b in blocks if target in (b.catches if what == "bug" else b.needs)}
    p = render(k, SEED, Variant(frozenset({flag})))
    clean = render(k, SEED)
    assert p.files != clean.files, f"{flag} changes nothing"
    runs = outcomes(p.files, p.hidden_tests)
    assert runs["hidden"][0] == expected
    assert runs["hidden"][1] == set(p.test_ids) - expected
    assert runs["visible"][0] == set()
    if what == "feature":
        feature = next(f for f in k.features if f.id == target)
        touched = {path for path in clean.files if clean.files[path] != p.files.get(path)}
        modules = {fill(path, clean.values) for path in feature.modules}
        assert modules <= touched, f"feature {target} should span {sorted(modules)}; it changes {sorted(touched)}"


@pytest.mark.parametrize("name,what,target", variants())
def test_every_name_the_issue_asks_for_is_used_by_a_hidden_test(name, what, target):
    """A feature's issue names its API (`Catalog.discontinue(sku)`, `values.interpolate(...)`): each
    name it adds is used by at least one FAIL_TO_PASS test, or a partial answer that leaves it out
    would earn full reward. A bug's issue names existing API: each is used by some hidden test."""
    from rlhub_swe import stated
    from rlhub_swe.projects.template import render as render_text
    from rlhub_swe.tasks import Params

    built = build(Params(name, SEED, what, target))
    headers, blocks = built.kind.parsed
    pool = built.fail_to_pass if what == "feature" else built.fail_to_pass + built.pass_to_pass
    tests = {b.name: render_text(headers[b.area] + b.source, built.target.values) for b in blocks if b.name in pool}
    names = stated.named_api(built.issue, built.base.files, built.target_files, built.base.package, what)
    assert stated.uncovered(names, tests) == []
    if what == "feature":
        assert names, f"{name} {target}: the issue names no API the feature adds"
        assert set(built.stated) >= set(names)  # the verifier's share: one part per name (+ the behaviour in words)


def test_the_issue_names_what_a_span_asks_for():
    from rlhub_swe.stated import span_names

    assert span_names("Catalog.discontinue(sku)") == ["discontinue"]
    assert span_names("parse(text, interpolate_values=True)") == ["parse", "interpolate_values"]
    assert span_names("stats.summary()['cancelled']") == ["summary"]
    assert span_names("values.interpolate(text, section, lookup)") == ["interpolate"]
    assert span_names("job_id in queue") == ["job_id", "in", "queue"]
