import pytest
from __pkg__ import __Catalog__, UnknownItem
from __pkg__.errors import FormatError
from __pkg__.items import REORDER_DEFAULT
#@test visible
def test_catalog_add_and_get():
    catalog = __Catalog__()
    catalog.add("A1", "bolt", 12, "hardware")
    assert catalog.get("A1").unit_cost == 12
    assert catalog.skus() == ["A1"] and len(catalog) == 1
#@test visible
def test_catalog_unknown_sku():
    with pytest.raises(UnknownItem, match="unknown item 'nope'"):
        __Catalog__().get("nope")
#@test
def test_catalog_categories_and_defaults():
    catalog = __Catalog__()
    catalog.add("A1", "bolt", 12, "hardware")
    catalog.add("B2", "glue", 300, "supplies", reorder_at=2)
    catalog.add("C3", "nut", 4, "hardware")
    assert catalog.categories() == ["hardware", "supplies"]
    assert catalog.in_category("hardware") == ["A1", "C3"]
    assert catalog.get("A1").reorder_at == REORDER_DEFAULT and catalog.get("B2").reorder_at == 2
#@test
def test_catalog_refuses_bad_items():
    catalog = __Catalog__()
    with pytest.raises(FormatError):
        catalog.add("  ", "blank", 1)
    with pytest.raises(FormatError):
        catalog.add("X", "free money", -1)
#@test
def test_catalog_tags_are_per_item():
    catalog = __Catalog__()
    catalog.add("A1", "bolt", 12)
    catalog.add("B2", "nut", 3)
    assert catalog.tag("A1", "steel", "m6", "steel") == ["steel", "m6"]
    assert catalog.tag("B2") == []

