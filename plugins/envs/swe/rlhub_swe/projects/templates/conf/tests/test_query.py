import pytest
from __pkg__ import __parse__
from __pkg__.errors import MissingKey
from __pkg__.query import flatten, merge, missing, typed
#@test visible
def test_typed_values():
    doc = __parse__("[s]\ndebug = yes\nworkers = 4\ntimeout = 2m\n")
    assert typed(doc, "s.debug", "bool") is True
    assert typed(doc, "s.workers", "int") == 4
    assert typed(doc, "s.timeout", "seconds") == 120
#@test
def test_typed_missing():
    doc = __parse__("[s]\n")
    assert typed(doc, "s.x", "int", default=5) == 5
    with pytest.raises(MissingKey):
        typed(doc, "s.x", "int")
#@test visible
def test_merge_overrides():
    base = __parse__("[a]\nx = 1\ny = 2\n")
    over = __parse__("[a]\ny = 3\n[b]\nz = 4\n")
    assert merge(base, over).as_dict() == {"a": {"x": "1", "y": "3"}, "b": {"z": "4"}}
    assert base.as_dict() == {"a": {"x": "1", "y": "2"}}
#@test catches=lookup_key
def test_flatten_and_missing():
    doc = __parse__("[a]\nx = 1\n[b.c]\ny = 2\n")
    assert flatten(doc) == {"a.x": "1", "b.c.y": "2"}
    assert missing(doc, ["a.x", "a.q", "b.c.y"]) == ["a.q"]

