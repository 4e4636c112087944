from __pkg__ import __dump__, __parse__
from __pkg__.printer import format_entry
#@test visible
def test_dump_round_trip():
    text = "# top\n\n[server]\nhost = example.org\nport = 8080\n\n[empty]\n"
    assert __dump__(__parse__(text)) == text
#@test
def test_dump_writes_key_then_value():
    doc = __parse__("[s]\nname = value\n")
    assert __dump__(doc).splitlines() == ["[s]", "name = value"]
#@test
def test_dump_sorted_and_aligned():
    doc = __parse__("[s]\nzeta = 1\na = 2\n")
    assert __dump__(doc, sort_keys=True, align=True).splitlines() == ["[s]", "a    = 2", "zeta = 1"]
#@test
def test_dump_multiline_and_quoted_values():
    doc = __parse__('[s]\nlist = one\n  two\nmsg = " spaced "\n')
    back = __parse__(__dump__(doc))
    assert back.as_dict() == doc.as_dict()
#@test
def test_format_entry():
    assert format_entry("k", "v") == ["k = v"]
    assert format_entry("k", "a\nb", 3) == ["k   = a", "__indent__" + "b"]

