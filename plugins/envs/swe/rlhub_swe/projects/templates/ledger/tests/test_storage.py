import pytest
from __pkg__ import __Ledger__
from __pkg__.errors import FormatError
from __pkg__.storage import dumps, loads
#@test visible
def test_storage_round_trip():
    led = __Ledger__(allow_negative=True)
    led.receive("A1", 3, 99, note="first")
    led.__record__("A1", 1, 0, "out")
    back = loads(dumps(led))
    assert [(e.number, e.sku, e.quantity, e.unit_cost, e.kind, e.note) for e in back.entries] == [
        (1, "A1", 3, 99, "in", "first"), (2, "A1", -1, 0, "out", "")]
    assert back.allow_negative is True
#@test
def test_storage_refuses_garbage():
    for text in ("not json", "[]", '{"version": 99}'):
        with pytest.raises(FormatError):
            loads(text)

