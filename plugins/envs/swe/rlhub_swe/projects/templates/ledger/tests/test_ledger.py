import pytest
from __pkg__ import __Ledger__
from __pkg__.errors import FormatError, InsufficientStock, UnknownItem
from __pkg__.ledger import PAGE_SIZE
#@test visible
def test_balance_after_receipts_and_issues():
    led = __Ledger__()
    led.receive("A1", 10, 200)
    led.receive("A1", 5, 230)
    led.issue("A1", 4)
    assert led.__balance__("A1") == 11
    assert led.__balance__("never") == 0
#@test
def test_issue_reduces_stock():
    led = __Ledger__()
    led.__record__("A1", 8, 100, "in")
    led.__record__("A1", 3, 100, "out")
    assert led.__balance__("A1") == 5
    assert [e.quantity for e in led.entries] == [8, -3]
#@test catches=overdraw
def test_cannot_issue_more_than_on_hand():
    led = __Ledger__()
    led.receive("A1", 2, 100)
    with pytest.raises(InsufficientStock):
        led.issue("A1", 3)
    assert __Ledger__(allow_negative=True).__record__("B", 1, 0, "out").quantity == -1
#@test catches=overdraw
def test_back_order_ledgers_may_go_below_zero():
    led = __Ledger__(allow_negative=True)
    led.receive("A1", 1, 100)
    led.issue("A1", 3)
    assert led.__balance__("A1") == -2
#@test visible
def test_record_validates():
    led = __Ledger__()
    with pytest.raises(FormatError):
        led.__record__("A1", 1, 0, "gift")
    with pytest.raises(FormatError):
        led.__record__("A1", 0, 0, "in")
    led.__record__("A1", 5, 10, "in")
    assert led.__record__("A1", -2, 0, "adjust").quantity == -2
#@test
def test_average_cost_and_value():
    led = __Ledger__()
    led.receive("A1", 10, 200)
    led.receive("A1", 10, 300)
    assert led.average_cost("A1") == 250
    assert led.value("A1") == 5000
    assert led.average_cost("none") == 0
#@test visible
def test_history_first_page():
    led = __Ledger__()
    for i in range(3):
        led.receive("A1", i + 1, 100)
    led.receive("B2", 1, 100)
    assert [e.quantity for e in led.__history__("A1")] == [1, 2, 3]
#@test catches=paging
def test_history_pages_are_full():
    led = __Ledger__()
    for i in range(7):
        led.receive("A1", i + 1, 10)
    assert [e.quantity for e in led.__history__("A1", page=1, size=3)] == [1, 2, 3]
    assert [e.quantity for e in led.__history__("A1", page=3, size=3)] == [7]
    assert led.pages("A1", size=3) == 3
#@test catches=paging
def test_history_default_page_size():
    led = __Ledger__()
    for i in range(PAGE_SIZE + 2):
        led.receive("A1", 1, 10)
    assert len(led.__history__("A1")) == PAGE_SIZE
    assert len(led.__history__("A1", page=2)) == 2
#@test
def test_history_validates_pages():
    with pytest.raises(FormatError):
        __Ledger__().__history__("A1", page=0)
#@test
def test_totals_and_require():
    led = __Ledger__()
    led.receive("A1", 4, 1)
    led.receive("B2", 2, 1)
    led.__record__("A1", -1, 0, "adjust")
    assert led.totals() == {"A1": 3, "B2": 2}
    assert led.skus() == ["A1", "B2"]
    with pytest.raises(UnknownItem):
        led.require("C3")

