import json
import pytest
from __pkg__.catalog import Catalog
from __pkg__.errors import __Error__
from __pkg__.manifest import KEY
from __pkg__.spec import PluginSpec
#@test visible
def test_catalog_versions_newest_first():
    catalog = Catalog([PluginSpec("a", "1.0"), PluginSpec("a", "1.10.0"), PluginSpec("a", "1.2"), PluginSpec("b", "0.1")])
    assert [str(s.version) for s in catalog.versions("a")] == ["1.10.0", "1.2.0", "1.0.0"]
    assert catalog.names() == ["a", "b"]
    assert len(catalog) == 4
    assert catalog.versions("zzz") == []
#@test visible
def test_catalog_best():
    catalog = Catalog([PluginSpec("a", "1.0"), PluginSpec("a", "1.10.0"), PluginSpec("a", "1.2")])
    assert catalog.best("a", ">=1.1,<1.5").key == "a==1.2.0"
    assert catalog.best("a").key == "a==1.10.0"
    assert catalog.best("a", ">5") is None
    assert catalog.best("zzz") is None
#@test
def test_catalog_refuses_duplicates():
    catalog = Catalog([PluginSpec("a", "1.0")])
    with pytest.raises(__Error__, match="already in the catalog"):
        catalog.add(PluginSpec("a", "1.0.0"))
#@test
def test_catalog_find_and_remove():
    catalog = Catalog([PluginSpec("a", "1.0"), PluginSpec("a", "1.2"), PluginSpec("a", "2.0"), PluginSpec("b", "1.0")])
    assert catalog.find("a", "1.2").key == "a==1.2.0"
    assert catalog.find("a", "1.3") is None
    assert catalog.remove("a", "1.2") == 1
    assert catalog.find("a", "1.2.0") is None
    assert catalog.remove("a") == 2
    assert catalog.names() == ["b"]
    assert catalog.remove("a") == 0
    assert len(catalog) == 1
#@test catches=prerelease
def test_catalog_latest_release():
    catalog = Catalog([PluginSpec("a", "2.0.0-rc.1"), PluginSpec("a", "2.0.0"), PluginSpec("a", "1.9.0"),
                       PluginSpec("b", "1.0.0-beta"), PluginSpec("b", "1.0.0-alpha")])
    assert [str(s.version) for s in catalog.versions("a")] == ["2.0.0", "2.0.0-rc.1", "1.9.0"]
    assert str(catalog.latest("a").version) == "2.0.0"
    assert str(catalog.latest("b").version) == "1.0.0-beta"
    assert catalog.latest("c") is None
#@test
def test_catalog_latest_skips_prereleases():
    catalog = Catalog([PluginSpec("a", "3.0.0-rc.1"), PluginSpec("a", "2.4.0")])
    assert str(catalog.latest("a").version) == "2.4.0"
#@test catches=upper_bound
def test_catalog_matching_respects_bounds():
    catalog = Catalog([PluginSpec("a", v) for v in ("1.0.0", "1.5.0", "2.0.0", "2.0.1")])
    assert [str(s.version) for s in catalog.matching("a", "<2.0")] == ["1.5.0", "1.0.0"]
    assert [str(s.version) for s in catalog.matching("a", ">=1.5,<=2.0")] == ["2.0.0", "1.5.0"]
#@test
def test_catalog_from_manifest():
    text = json.dumps({KEY: [{"name": "a", "version": "1.0"}, {"name": "b", "version": "0.1"}, {"name": "a", "version": "1.2"}]})
    catalog = Catalog.from_manifest(text)
    assert catalog.describe() == ["a: 1.2.0, 1.0.0", "b: 0.1.0"]

