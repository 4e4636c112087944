import pytest
from __pkg__.errors import __Error__, VersionError
from __pkg__.spec import PluginSpec, parse_requirement
#@test visible
def test_requirements_parse():
    r = parse_requirement("auth>=1.2,<2")
    assert (r.name, str(r.range)) == ("auth", ">=1.2.0,<2.0.0")
    assert str(parse_requirement("cache")) == "cache"
    assert str(parse_requirement("db ^2.1")) == "db>=2.1.0,<3.0.0"
    assert str(parse_requirement("web-ui==1.0")) == "web-ui==1.0.0"
#@test visible
def test_spec_fields():
    spec = PluginSpec("auth", "1.4", requires={"core": ">=1.0"}, priority=5, settings={"realm": "main"})
    assert (spec.name, str(spec.version), spec.priority, spec.key) == ("auth", "1.4.0", 5, "auth==1.4.0")
    assert [str(r) for r in spec.requires] == ["core>=1.0.0"]
    assert spec.settings == {"realm": "main"}
#@test visible
def test_spec_requires_as_a_list():
    spec = PluginSpec("app", "1.0", requires=["web>=1", "db"])
    assert spec.requires_names() == ["db", "web"]
    assert str(spec.requirement("web")) == "web>=1.0.0"
    assert spec.requirement("cache") is None
#@test
def test_bad_specs():
    with pytest.raises(__Error__):
        PluginSpec("Auth", "1.0")
    with pytest.raises(__Error__):
        PluginSpec("1auth", "1.0")
    with pytest.raises(VersionError):
        PluginSpec("auth", "one")
    with pytest.raises(VersionError):
        PluginSpec("auth", "1.0", requires={"core": ">=x"})
    with pytest.raises(__Error__, match="twice"):
        PluginSpec("auth", "1.0", requires=["core", "core>=1"])
    with pytest.raises(__Error__, match="itself"):
        PluginSpec("auth", "1.0", requires={"auth": "*"})
    with pytest.raises(__Error__, match="str"):
        PluginSpec("auth", "1.0", requires="core")
    with pytest.raises(__Error__, match="priority"):
        PluginSpec("auth", "1.0", priority="high")
    with pytest.raises(VersionError):
        parse_requirement("Auth>=1")
#@test
def test_spec_as_dict_round_trip():
    spec = PluginSpec("auth", "1.4", requires={"core": "^1.0"}, priority=5, settings={"realm": "main"},
                      description="logs people in", module="app.auth")
    entry = spec.as_dict()
    assert entry == {"name": "auth", "version": "1.4.0", "requires": {"core": ">=1.0.0,<2.0.0"}, "priority": 5,
                     "settings": {"realm": "main"}, "description": "logs people in", "module": "app.auth"}
    assert PluginSpec(**entry).as_dict() == entry
    assert PluginSpec("bare", "0.1").as_dict() == {"name": "bare", "version": "0.1.0"}
#@test
def test_requirement_accepts():
    r = parse_requirement("auth~1.2")
    assert [r.accepts(v) for v in ("1.2.5", "1.3.1", "1.1.0")] == [True, False, False]
    assert parse_requirement("auth").accepts("0.0.1") is True
#@test
def test_specs_equal_by_name_and_version():
    assert PluginSpec("a", "1.0") == PluginSpec("a", "1.0.0", priority=3)
    assert not (PluginSpec("a", "1.0") == PluginSpec("a", "1.1"))
    assert repr(PluginSpec("a", "1.0")) == "PluginSpec('a', '1.0.0')"
#@test needs=conflicts
def test_spec_conflicts():
    spec = PluginSpec("a", "1.0", conflicts=["b<2", "c"])
    assert [str(c) for c in spec.conflicts] == ["b<2.0.0", "c"]
    assert spec.as_dict()["conflicts"] == {"b": "<2.0.0", "c": "*"}
    assert PluginSpec("d", "1.0", conflicts={"e": "*"}).as_dict()["conflicts"] == {"e": "*"}
    assert "conflicts" not in PluginSpec("d", "1.0").as_dict()
    with pytest.raises(__Error__, match="itself"):
        PluginSpec("a", "1.0", conflicts=["a"])

