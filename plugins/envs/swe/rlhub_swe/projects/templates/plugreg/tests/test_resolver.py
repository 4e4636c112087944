import pytest
from __pkg__.catalog import Catalog
from __pkg__.errors import ConflictError, MissingPlugin, ResolutionError
from __pkg__.resolver import describe, __resolve__
from __pkg__.spec import PluginSpec
#@test visible
def test_resolve_picks_the_newest_that_fits():
    catalog = Catalog([PluginSpec("app", "1.0", requires={"lib": ">=1.1,<1.5"}), PluginSpec("lib", "1.0"),
                       PluginSpec("lib", "1.2"), PluginSpec("lib", "1.4.1"), PluginSpec("lib", "1.6")])
    chosen = __resolve__(catalog, ["app"])
    assert {name: str(spec.version) for name, spec in chosen.items()} == {"app": "1.0.0", "lib": "1.4.1"}
#@test visible
def test_resolve_missing_plugins():
    catalog = Catalog([PluginSpec("app", "1.0", requires={"ghost": "*"})])
    with pytest.raises(MissingPlugin, match="nope"):
        __resolve__(catalog, ["nope"])
    with pytest.raises(MissingPlugin, match="app 1.0.0 requires 'ghost'"):
        __resolve__(catalog, ["app"])
#@test
def test_resolve_backtracks():
    catalog = Catalog([PluginSpec("app", "2.0", requires={"lib": ">=2"}), PluginSpec("app", "1.0", requires={"lib": "<2"}),
                       PluginSpec("tool", "1.0", requires={"lib": "~1.5"}), PluginSpec("lib", "1.5.3"),
                       PluginSpec("lib", "2.1.0"), PluginSpec("lib", "1.4.0")])
    chosen = __resolve__(catalog, ["app", "tool"])
    assert {name: str(spec.version) for name, spec in chosen.items()} == {"app": "1.0.0", "lib": "1.5.3", "tool": "1.0.0"}
    assert {n: str(s.version) for n, s in __resolve__(catalog, ["app"]).items()} == {"app": "2.0.0", "lib": "2.1.0"}
#@test
def test_resolve_explains_an_unmet_requirement():
    catalog = Catalog([PluginSpec("app", "1.0", requires={"lib": ">=3"}), PluginSpec("lib", "1.0"), PluginSpec("lib", "2.0")])
    with pytest.raises(ResolutionError, match=r"app 1\.0\.0 requires lib>=3\.0\.0, but the catalog has lib 2\.0\.0, 1\.0\.0"):
        __resolve__(catalog, ["app"])
#@test
def test_resolve_requested_ranges_and_pins():
    catalog = Catalog([PluginSpec("lib", v) for v in ("1.0", "1.2", "1.4.1", "1.6")]
                      + [PluginSpec("app", "1.0", requires={"lib": ">=1.1"})])
    assert str(__resolve__(catalog, ["lib<1.5"])["lib"].version) == "1.4.1"
    assert str(__resolve__(catalog, ["app"], pinned={"lib": "1.2"})["lib"].version) == "1.2.0"
    assert list(__resolve__(catalog, ["lib"], pinned={"app": "1.0"})) == ["lib"]
    with pytest.raises(ResolutionError, match="pinned to 1.0.0"):
        __resolve__(catalog, ["app"], pinned={"lib": "1.0"})
#@test catches=upper_bound
def test_resolve_respects_an_exclusive_upper_bound():
    catalog = Catalog([PluginSpec("app", "1.0", requires={"lib": "<2.0"}), PluginSpec("lib", "1.4.0"), PluginSpec("lib", "2.0.0")])
    assert str(__resolve__(catalog, ["app"])["lib"].version) == "1.4.0"
#@test catches=prerelease
def test_resolve_prefers_the_release_to_its_candidate():
    catalog = Catalog([PluginSpec("lib", "2.0.0-rc.1"), PluginSpec("lib", "2.0.0"), PluginSpec("lib", "1.9.0")])
    assert str(__resolve__(catalog, ["lib"])["lib"].version) == "2.0.0"
#@test
def test_resolve_shared_dependency_clash():
    catalog = Catalog([PluginSpec("a", "1.0", requires={"c": "==1.0"}), PluginSpec("b", "1.0", requires={"c": "==2.0"}),
                       PluginSpec("c", "1.0"), PluginSpec("c", "2.0")])
    with pytest.raises(ResolutionError, match=r"requires c==2\.0\.0, but c 1\.0\.0 was chosen"):
        __resolve__(catalog, ["a", "b"])
#@test
def test_resolve_describe():
    catalog = Catalog([PluginSpec("app", "1.0", requires={"lib": "^1.0", "db": "*"}), PluginSpec("lib", "1.2"), PluginSpec("db", "3.1")])
    assert describe(__resolve__(catalog, ["app"])) == ["app 1.0.0 (requires db, lib>=1.0.0,<2.0.0)", "db 3.1.0", "lib 1.2.0"]
#@test needs=conflicts
def test_resolve_refuses_conflicting_plugins():
    catalog = Catalog([PluginSpec("a", "1.0", conflicts=["b"]), PluginSpec("b", "1.0")])
    with pytest.raises(ConflictError, match=r"a 1\.0\.0 conflicts with b 1\.0\.0"):
        __resolve__(catalog, ["a", "b"])
    with pytest.raises(ConflictError, match=r"a 1\.0\.0 conflicts with b 1\.0\.0"):
        __resolve__(catalog, ["b", "a"])
#@test needs=conflicts
def test_resolve_avoids_a_conflicting_version():
    catalog = Catalog([PluginSpec("a", "1.0", conflicts={"b": ">=2"}), PluginSpec("b", "2.1"), PluginSpec("b", "1.5")])
    assert {n: str(s.version) for n, s in __resolve__(catalog, ["a", "b"]).items()} == {"a": "1.0.0", "b": "1.5.0"}
    assert {n: str(s.version) for n, s in __resolve__(catalog, ["b", "a"]).items()} == {"a": "1.0.0", "b": "1.5.0"}
    assert {n: str(s.version) for n, s in __resolve__(catalog, ["b"]).items()} == {"b": "2.1.0"}

