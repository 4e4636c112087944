import pytest
from __pkg__ import __parse__
from __pkg__.errors import ParseError
from __pkg__.parser import DEFAULT_SECTION
#@test visible
def test_sections_and_entries():
    doc = __parse__("[server]\nhost = example.org\nport = 8080\n[client]\nretries = 3\n")
    assert doc.names() == ["server", "client"]
    assert doc.as_dict()["server"] == {"host": "example.org", "port": "8080"}
#@test visible
def test_entries_before_any_section():
    doc = __parse__("a = 1\n[s]\nb = 2\n")
    assert doc.as_dict() == {DEFAULT_SECTION: {"a": "1"}, "s": {"b": "2"}}
#@test
def test_continuation_lines():
    doc = __parse__("[s]\npaths = one\n  two\n  three\n")
    assert doc.__lookup__("s.paths") == "one\ntwo\nthree"
#@test
def test_strict_refuses_repeats():
    text = "[s]\na = 1\na = 2\n"
    assert __parse__(text).__lookup__("s.a") == "2"
    with pytest.raises(ParseError):
        __parse__(text, strict=True)
#@test
def test_sections_do_not_share_entries():
    doc = __parse__("[a]\nx = 1\n[b]\ny = 2\n")
    assert doc.as_dict() == {"a": {"x": "1"}, "b": {"y": "2"}}
    again = __parse__("[c]\nz = 3\n")
    assert again.as_dict() == {"c": {"z": "3"}}
#@test
def test_comments_attach_to_entries():
    doc = __parse__("# file comment\n[s]\n# about a\na = 1\n\nb = 2\n")
    entries = doc.sections["s"].entries
    assert doc.comments == ["file comment"]
    assert [(e.key, e.comment) for e in entries] == [("a", "about a"), ("b", "")]
#@test needs=interpolation
def test_interpolation_within_a_section():
    doc = __parse__("[s]\nroot = /srv\ndata = ${root}/data\nkeep = ${nothing}\n", interpolate_values=True)
    assert doc.__lookup__("s.data") == "/srv/data"
    assert doc.__lookup__("s.keep") == "${nothing}"
#@test needs=interpolation
def test_interpolation_across_sections():
    doc = __parse__("[paths]\nroot = /srv\n[app]\nlog = ${paths.root}/log\n", interpolate_values=True)
    assert doc.__lookup__("app.log") == "/srv/log"
    assert __parse__("[a]\nx = ${y}\ny = 1\n").__lookup__("a.x") == "${y}"

