"""The template language of generated projects (projects/template.py): inline and block markers,
the errors a kind author gets, and the same text rendered for different flags from one parse."""

from __future__ import annotations

import pytest
from rlhub_swe.projects.template import TemplateError, flags_in, render, select

TEXT = """\
def f(xs):
    n = len(xs)  #@if:bug.off: n = len(xs) - 1
    #@if:without.sum
    return 0
    #@else
    total = sum(xs)  #@if:bug.sign: total = -sum(xs)
    return total / n
    #@end
# $$5 for $name
"""


def test_markers_resolve_for_the_active_flags():
    assert flags_in(TEXT) == {"bug.off", "without.sum", "bug.sign"}
    assert select(TEXT, set()) == ("def f(xs):\n    n = len(xs)\n    total = sum(xs)\n    return total / n\n"
                                   "# $$5 for $name\n")
    assert "n = len(xs) - 1\n" in select(TEXT, {"bug.off"})
    assert select(TEXT, {"without.sum"}) == "def f(xs):\n    n = len(xs)\n    return 0\n# $$5 for $name\n"
    assert "    total = -sum(xs)\n" in select(TEXT, {"bug.sign"})
    assert "total" not in select(TEXT, {"without.sum", "bug.sign"})  # an inline marker in the part left out
    assert render(TEXT, {"name": "fees"}).endswith("# $5 for fees\n")


def test_an_empty_alternative_drops_the_line():
    assert select("a = 1\nb = 2  #@if:bug.x:\nc = 3\n", {"bug.x"}) == "a = 1\nc = 3\n"


@pytest.mark.parametrize("text,message", [
    ("#@if:a\n#@if:b\n#@end\n#@end\n", "t.py:2: #@if inside #@if:a"),
    ("x = 1\n#@else\n", "t.py:2: #@else outside a block"),
    ("#@end\n", "t.py:1: #@end outside a block"),
    ("#@if:a\nx = 1\n", "t.py: #@if:a is never closed"),
])
def test_malformed_templates_name_the_line(text, message):
    for active in (set(), {"a"}):  # the second call reads the parse cache: it must raise the same
        with pytest.raises(TemplateError, match=message):
            select(text, active, "t.py")
