from __pkg__ import __Catalog__, __Ledger__
from __pkg__.stock import below_reorder, receive_order, reorder_quantities, valuation
#@test catches=swap_receive
def test_receive_order_books_units():
    catalog = __Catalog__()
    catalog.add("A1", "bolt", 12)
    led = __Ledger__()
    assert receive_order(led, catalog, [("A1", 30)]) == 30
    assert led.__balance__("A1") == 30
#@test catches=swap_receive
def test_receive_order_uses_catalog_cost():
    catalog = __Catalog__()
    catalog.add("A1", "bolt", 12)
    catalog.add("B2", "nut", 3)
    led = __Ledger__()
    receive_order(led, catalog, [("A1", 30), ("B2", 5)])
    assert led.__balance__("A1") == 30 and led.__balance__("B2") == 5
    assert led.average_cost("A1") == 12 and led.value("B2") == 15
#@test visible
def test_below_reorder():
    catalog = __Catalog__()
    catalog.add("A1", "bolt", 12, reorder_at=5)
    catalog.add("B2", "nut", 3, reorder_at=5)
    led = __Ledger__()
    led.receive("A1", 5, 12)
    led.receive("B2", 6, 3)
    assert below_reorder(led, catalog) == ["A1"]
    assert reorder_quantities(led, catalog) == {"A1": 5}
#@test catches=value_key
def test_valuation_by_category():
    catalog = __Catalog__()
    catalog.add("A1", "bolt", 10, "hardware")
    catalog.add("B2", "glue", 100, "supplies")
    catalog.add("C3", "tape", 50, "supplies")
    led = __Ledger__()
    led.receive("A1", 3, 10)
    led.receive("B2", 2, 100)
    assert valuation(led, catalog) == {"hardware": 30, "supplies": 200}

#@test needs=discontinue
def test_discontinued_items_are_not_reordered():
    catalog = __Catalog__()
    catalog.add("A1", "bolt", 12, reorder_at=5)
    catalog.add("B2", "nut", 3, reorder_at=5)
    catalog.discontinue("B2")
    assert catalog.active_skus() == ["A1"]
    assert below_reorder(__Ledger__(), catalog) == ["A1"]
#@test needs=discontinue
def test_discontinued_items_cannot_be_received():
    import pytest
    from __pkg__.errors import FormatError
    catalog = __Catalog__()
    catalog.add("A1", "bolt", 12)
    catalog.discontinue("A1")
    led = __Ledger__()
    with pytest.raises(FormatError, match="discontinued"):
        receive_order(led, catalog, [("A1", 1)])
    assert led.__balance__("A1") == 0
    assert len(catalog) == 1 and catalog.get("A1").active is False

