"""The template language of generated projects (projects/template.py): inline and block markers,
the errors a kind author gets, and the same text rendered for different flags from one parse."""

from __future__ import annotations

import pytest
from rlhub_swe.projects.template import TemplateError, flags_in, from_source, render, select

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


SOURCE = """\
from __pkg__.money import __parse_amount__


class __Error__(Exception):
    \"\"\"Costs $5 in __CURRENCY__; __init__ and __pkgx__ are no placeholders.\"\"\"

    def __init__(self, xs):
        self.rule = __unit___rule, __low____suffix__
#@if:bug.off
        # n = len(xs) - 1  # one short
        #     # a comment of the variant's

#@else
        n = len(xs)  #@if:bug.sign: n = -len(xs)
#@end
"""


def test_the_source_form_reads_as_the_template():
    """Placeholders written as dunders, a `$` as itself, the variant's block lines commented out."""
    text = from_source(SOURCE, {"pkg", "parse_amount", "Error", "CURRENCY", "unit", "low", "suffix"}, "m.py")
    assert text == ("from $pkg.money import $parse_amount\n\n\nclass $Error(Exception):\n"
                    '    """Costs $$5 in $CURRENCY; __init__ and __pkgx__ are no placeholders."""\n\n'
                    "    def __init__(self, xs):\n        self.rule = ${unit}_rule, ${low}$suffix\n#@if:bug.off\n"
                    "        n = len(xs) - 1  # one short\n            # a comment of the variant's\n\n#@else\n"
                    "        n = len(xs)  #@if:bug.sign: n = -len(xs)\n#@end\n")
    values = {"pkg": "ledgerly", "parse_amount": "read", "Error": "Oops", "CURRENCY": "EUR", "unit": "retail",
              "low": 4, "suffix": "ms"}
    assert "    n = len(xs) - 1  # one short\n" in render(text, values, {"bug.off"})
    assert render(text, values).endswith("self.rule = retail_rule, 4ms\n        n = len(xs)\n")


def test_an_uncommented_line_in_a_variant_part_names_its_line():
    with pytest.raises(TemplateError, match=r"m.py:3: a line of #@if's first part must be commented out"):
        from_source("x = 1\n#@if:bug.a\nx = 2\n#@end\n", set(), "m.py")
