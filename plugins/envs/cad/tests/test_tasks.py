"""Task generation: determinism, prompt content, edit/repair references, secrets, images."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from hub.checks.library import task_digest
from rlhub_cad.env import CadEnvironment
from rlhub_cad.families import FAMILIES
from rlhub_cad.fmt import fence, n
from rlhub_cad.kinds import TEXT_KINDS


def _env(fam, kind):
    return CadEnvironment(f"cad/{fam.name}-{kind}-v1", fam, kind)


def test_unknown_kind_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown CAD task kind 'sketch'"):
        CadEnvironment("cad/x-sketch-v1", FAMILIES[0], "sketch")


@pytest.mark.parametrize("kind", TEXT_KINDS)
def test_text_tasks_are_deterministic_across_processes(kind):
    labels = [(fam.name, seed) for fam in FAMILIES for seed in (0, 7)]
    here = {f"{n}:{s}": task_digest(_env(next(f for f in FAMILIES if f.name == n), kind).make_task(s)) for n, s in labels}
    code = ("import json, sys\nfrom hub.checks.library import task_digest\nfrom rlhub_cad.env import CadEnvironment\n"
            "from rlhub_cad.families import FAMILIES\nkind = sys.argv[1]\nout = {}\n"
            "for fam in FAMILIES:\n    for s in (0, 7):\n"
            "        out[f'{fam.name}:{s}'] = task_digest(CadEnvironment(f'cad/{fam.name}-{kind}-v1', fam, kind).make_task(s))\n"
            "json.dump(out, sys.stdout)\n")
    proc = subprocess.run([sys.executable, "-c", code, kind], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONHASHSEED": "999"})
    assert json.loads(proc.stdout) == here


@pytest.mark.parametrize("kind", TEXT_KINDS)
def test_tasks_differ_between_seeds(kind):
    for fam in FAMILIES:
        refs = {_env(fam, kind).make_task(s).reference for s in range(6)}
        assert len(refs) >= 3, f"{fam.name}-{kind}: seeds barely vary the part"


@pytest.mark.parametrize("fam", FAMILIES, ids=lambda f: f.name)
def test_prompts_state_dimensions_and_no_reference(fam):
    for seed in range(3):
        for kind in ("dimensioned", "steps"):
            task = _env(fam, kind).make_task(seed)
            text = task.prompt_text()
            assert task.reference == fence(task.hidden["reference_script"])
            assert task.hidden["reference_script"] not in text
            assert "result" in text and "```python" in text
            if kind == "dimensioned":  # every parameter of the part is stated, as the script writes it
                missing = [k for k, v in task.metadata["params"].items()
                           if not isinstance(v, bool) and not re.search(rf"(?<![\d.]){re.escape(n(v))}(?![\d])", text)]
                assert not missing, f"{fam.name} seed {seed}: prompt omits {missing}"
        assert _env(fam, "dimensioned").make_task(seed).prompt_text().count(fam.frame) == 1


@pytest.mark.parametrize("fam", FAMILIES, ids=lambda f: f.name)
def test_edit_reference_differs_from_the_script_shown(fam):
    env = _env(fam, "edit")
    for seed in range(4):
        task = env.make_task(seed)
        original = task.metadata["original_script"]
        assert fence(original) in task.prompt_text()
        assert original != task.hidden["reference_script"]
        assert task.metadata["instruction"] in task.prompt_text()
        secrets = env.secrets(task)
        assert all(s not in task.prompt_text() for s in secrets[1:])
        assert fence(original) in env.wrong_responses(task)


@pytest.mark.parametrize("fam", FAMILIES, ids=lambda f: f.name)
def test_repair_prompt_shows_a_broken_script_the_reference_fixes(fam):
    env = _env(fam, "repair")
    bugs = set()
    for seed in range(6):
        task = env.make_task(seed)
        broken = task.metadata["original_script"]
        assert broken != task.hidden["reference_script"]
        assert fence(broken) in task.prompt_text()
        bugs.add(task.metadata["bug"])
    assert len(bugs) >= 2, f"{fam.name}: repair tasks use only {bugs}"


def test_repair_bugs_really_break_the_script():
    """Each injected bug fails the way its symptom says (run with real CadQuery in one child)."""
    import random

    from rlhub_cad import bugs

    fam = next(f for f in FAMILIES if f.name == "flange")
    script = fam.script(fam.sample(random.Random(3)))
    cases = [b for b in (make(script) for make in bugs.BUGS) if b is not None]
    assert {b.name for b in cases} == {"typo", "missing_import", "diameter_as_radius", "wrong_variable", "unclosed_call"}
    code = ("import json, sys, cadquery as cq\nout = []\nfor s in json.load(sys.stdin):\n"
            "    scope = {}\n    try:\n        exec(compile(s, 'x', 'exec'), scope)\n"
            "        r = scope.get('result')\n        out.append('no result' if r is None else round(r.val().Volume(), 3))\n"
            "    except BaseException as e:\n        out.append(type(e).__name__)\n"
            "json.dump(out, sys.stdout)\n")
    proc = subprocess.run([sys.executable, "-c", code], input=json.dumps([script] + [b.broken for b in cases]),
                          capture_output=True, text=True, check=True, timeout=300)
    good, *broken = json.loads(proc.stdout)
    assert isinstance(good, float)
    outcome = {b.name: r for b, r in zip(cases, broken)}
    assert outcome["typo"] == "AttributeError"
    assert outcome["missing_import"] == "NameError"
    assert outcome["unclosed_call"] == "SyntaxError"
    assert outcome["wrong_variable"] == "no result"
    assert isinstance(outcome["diameter_as_radius"], float) and abs(outcome["diameter_as_radius"] - good) > 1


def test_text_generation_builds_no_geometry():
    """Text prompts are string work: generating them never imports CadQuery or OCP."""
    code = ("import sys\nfrom rlhub_cad.env import CadEnvironment\nfrom rlhub_cad.families import FAMILIES\n"
            "from rlhub_cad.kinds import TEXT_KINDS\n"
            "for fam in FAMILIES:\n    for kind in TEXT_KINDS:\n"
            "        CadEnvironment('cad/x-' + kind + '-v1', fam, kind).make_task(1)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('cadquery', 'OCP')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"


def test_image_task_carries_a_png_drawing(tmp_path, monkeypatch):
    monkeypatch.setenv("RLHUB_CAD_CACHE", str(tmp_path))
    fam = next(f for f in FAMILIES if f.name == "flange")
    env = _env(fam, "image")
    task = env.make_task(2)
    assert len(task.images) == 1 and task.images[0].startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(task.images[0][16:20], "big"), int.from_bytes(task.images[0][20:24], "big")
    assert (width, height) == (640, 480)
    content = task.prompt[0]["content"]
    assert content[0]["type"] == "image_url" and content[0]["image_url"]["url"].startswith("data:image/png;base64,")
    assert "drawing" in task.prompt_text() and task.hidden["reference_script"] not in task.prompt_text()
    assert len(list(tmp_path.glob("*.png"))) == 1  # cached on disk ...
    again = env.make_task(2)  # ... and reused: same bytes, no second render
    assert again.images == task.images and task_digest(again) == task_digest(task)
    # A drawing is not blank: a mostly white canvas with dark lines.
    import zlib
    assert len(task.images[0]) > 5000 and zlib.crc32(task.images[0]) != zlib.crc32(env.make_task(3).images[0])
