from __pkg__ import __Document__, __parse__
from __pkg__.nodes import Section
#@test visible
def test_lookup_paths():
    doc = __parse__("[server.tls]\ncert = a.pem\n[s]\nk = v\n")
    assert doc.__lookup__("s.k") == "v"
    assert doc.__lookup__("s.missing") is None
#@test catches=lookup_key
def test_lookup_dotted_section_names():
    doc = __parse__("[server.tls]\ncert = a.pem\n[s]\nk = v\n")
    assert doc.__lookup__("server.tls.cert") == "a.pem"
    assert doc.__lookup__("server.tls.key", "none") == "none"
#@test
def test_lookup_defaults():
    doc = __parse__("[s]\nk = v\n[k]\ns = w\n")
    assert doc.__lookup__("s.k") == "v"
    assert doc.__lookup__("s.nope", "d") == "d"
    assert doc.__lookup__("nope.k", "d") == "d"
#@test
def test_section_set_and_remove():
    section = Section("s")
    section.set("a", "1")
    section.set("a", "2")
    section.set("b", "3")
    assert section.as_dict() == {"a": "2", "b": "3"}
    assert section.remove("a") is True and section.remove("a") is False
    assert section.keys() == ["b"]
#@test catches=shared_entries
def test_new_sections_start_empty():
    first = Section("one")
    first.set("a", "1")
    assert Section("two").keys() == []
#@test
def test_document_section_creation():
    doc = __Document__()
    doc.section("new", create=True).set("k", "v")
    assert doc.as_dict() == {"new": {"k": "v"}}

