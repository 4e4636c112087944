"""The static policy and restricted builtins (pure Python: no sandbox needed)."""

import math

import pytest

from rlhub_mesh.extract import extract_script
from rlhub_mesh.policy import PolicyViolation, check_script, safe_builtins

ALLOWED = [
    "import cadquery as cq\nresult = cq.Workplane().box(1, 2, 3)",
    "from cadquery import Workplane\nimport math\nresult = Workplane().circle(math.pi).extrude(2)",
    "from math import *\nimport cadquery as cq\nresult = cq.Workplane().box(sqrt(2), 1, 1)",
    "import cadquery as cq\ndef plate(w):\n    return cq.Workplane().box(w, w, 1)\nresult = plate(3)",
]

FORBIDDEN = {
    "import_os": "import os\nresult = 1",
    "import_subprocess_as": "import subprocess as cq\nresult = 1",
    "from_os": "from os import system\nresult = 1",
    "open": "data = open('/etc/passwd').read()",
    "dunder_import": "os = __import__('os')",
    "exec": "exec('import os')",
    "eval": "eval('1')",
    "compile": "code = compile('1', 'x', 'eval')",
    "getattr_exporters": "import cadquery as cq\ngetattr(cq, 'exporters')",
    "cq_exporters": "import cadquery as cq\nr = cq.Workplane().box(1,1,1)\ncq.exporters.export(r, 'out.stl')",
    "from_exporters": "from cadquery import exporters",
    "occ_impl_module": "import cadquery.occ_impl.exporters",
    "occ_impl_from": "from cadquery.occ_impl.exporters import export",
    "shape_export": "import cadquery as cq\ncq.Workplane().box(1,1,1).val().exportStl('x.stl')",
    "assembly_save": "import cadquery as cq\ncq.Assembly().save('x.step')",
    "importers": "import cadquery as cq\nresult = cq.importers.importStep('/etc/x.step')",
    "subclasses_walk": "x = ().__class__.__base__.__subclasses__()",
    "format_walk": "s = '{0.__class__.__init__.__globals__}'.format(1)",
    "frame_walk": "def g():\n    yield 1\nf = g().gi_frame.f_back",
    "monkeypatch": "import cadquery as cq\ncq.Workplane.box = None",
    "globals": "globals()['x'] = 1",
    "builtins_name": "b = __builtins__",
    "class_with_base": "import cadquery as cq\nclass W(cq.Workplane):\n    pass",
    "relative_import": "from . import x",
    "ctypes": "import ctypes",
}


@pytest.mark.parametrize("script", ALLOWED)
def test_ordinary_scripts_pass(script):
    check_script(script)


@pytest.mark.parametrize("name", sorted(FORBIDDEN))
def test_forbidden_scripts_are_rejected_with_a_reason(name):
    with pytest.raises(PolicyViolation, match=r"forbidden|limit"):
        check_script(FORBIDDEN[name])


def test_huge_script_is_rejected():
    with pytest.raises(PolicyViolation, match="limit"):
        check_script("x = 1\n" * 20_000)


def test_restricted_builtins_hand_out_only_allowed_modules():
    table = safe_builtins({"math": math})
    for name in ("open", "exec", "eval", "compile", "getattr", "globals", "vars"):
        assert name not in table
    assert table["__import__"]("math") is math
    with pytest.raises(ImportError, match="forbidden"):
        table["__import__"]("os")
    with pytest.raises(ImportError, match="forbidden"):
        table["__import__"]("cadquery")  # allowed by name, but not handed to this table
    # exec'd code with these builtins cannot reach the filesystem even without the AST check
    with pytest.raises(NameError):
        exec("open('/etc/passwd')", {"__builtins__": table})


@pytest.mark.parametrize("response, script", [
    ("```python\nA\n```", "A"),
    ("text\n```python\nA\n```\nmore\n```python\nB\n```\nbye", "B"),
    ("```py\nA\n```", "A"),
    ("```\nA\n```", "A"),
    ("```python\nA\n```\n```text\nB\n```", "A"),
    ("result = 1", "result = 1"),
    ("```python\nA", "A"),  # unterminated fence: the rest of the text
])
def test_extract_script(response, script):
    assert extract_script(response) == script


def test_verifier_knows_the_same_invariance_modes_as_align():
    from rlhub_mesh import align, verifier

    assert verifier.INVARIANCE_MODES == align.MODES


@pytest.mark.parametrize("source, assigns", [
    ("x = 1", False),
    ("raise SystemExit(0)", False),
    ("print(result)", False),
    ("result = 1", True),
    ("for result in range(3):\n    pass", True),
    ("with open('x') as result:\n    pass", True),
    ("(result := 3)", True),
    ("import math as result", True),
    ("def result():\n    pass", True),
    ("a, (b, result) = 1, (2, 3)", True),
])
def test_whether_a_script_can_leave_a_result(source, assigns):
    import ast

    from rlhub_mesh import policy

    assert policy.assigns_result(ast.parse(source)) is assigns
