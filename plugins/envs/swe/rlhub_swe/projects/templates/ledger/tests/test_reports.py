from __pkg__ import __Ledger__
from __pkg__.reports import summary, to_csv, top_movers
#@test visible
def test_summary_counts_kinds():
    led = __Ledger__()
    led.receive("A1", 5, 10)
    led.issue("A1", 2)
    assert summary(led) == {"in": 1, "out": 1}
#@test catches=summary_default
def test_summary_starts_fresh_each_time():
    led = __Ledger__()
    led.receive("A1", 5, 10)
    assert summary(led) == {"in": 1}
    assert summary(led) == {"in": 1}
    assert summary(led, {"in": 2}) == {"in": 3}
#@test visible
def test_top_movers():
    led = __Ledger__()
    led.receive("B2", 5, 1)
    led.receive("A1", 5, 1)
    led.receive("C3", 9, 1)
    led.issue("C3", 1)
    assert top_movers(led, 2) == [("C3", 10), ("A1", 5)]
#@test catches=sign
def test_csv_export():
    led = __Ledger__()
    led.receive("A1", 2, 150)
    assert to_csv(led).splitlines() == ["number,sku,kind,quantity,unit_cost,value", "1,A1,in,2,1.50,3.00"]

