import pytest
from __pkg__ import channels
from __pkg__.channels import CHANNELS, cheapest, get_channel, quote
from __pkg__.errors import ChannelError
#@test visible
def test_every_channel_is_listed():
    assert sorted(CHANNELS) == sorted(__unit_names__)
#@test visible
def test_channel_fee_and_net():
    for name in __unit_names__[:3]:
        channel = get_channel(name)
        assert channel.fee(0) == 0
        assert channel.net(100000) == 100000 - channel.fee(100000)
        assert channel.fee(100000) == 100000 * channel.FEE_PERCENT // 100 + channel.FIXED_FEE
#@test
def test_channel_limits():
    for name in __unit_names__[-3:]:
        channel = get_channel(name)
        assert not channel.accepts(0, 100000)
        assert not channel.accepts(channel.MAX_QUANTITY + 1, 100000)
        assert channel.accepts(1, max(channel.MIN_ORDER, 1))
        with pytest.raises(ChannelError):
            channel.check(channel.MAX_QUANTITY + 1, 100000)
#@test
def test_channel_split_refund_and_break_even():
    for name in __unit_names__[1:3]:
        channel = get_channel(name)
        parts = channel.split_order(channel.MAX_QUANTITY * 2 + 1, 10)
        assert [q for q, _ in parts] == [channel.MAX_QUANTITY, channel.MAX_QUANTITY, 1]
        assert sum(a for _, a in parts) == (channel.MAX_QUANTITY * 2 + 1) * 10
        cost = 1000
        point = channel.break_even(cost)
        assert channel.net(point) >= cost and channel.net(point - 1) < cost
        assert channel.refund(0) == 0
#@test
def test_channel_statement():
    channel = get_channel(__unit_names__[-1])
    text = channel.statement([(1, 100000)], [100000])
    assert text.splitlines()[0] == channel.NAME.upper() + " statement"
    assert "returns       1" in text
    assert len(channel.fee_table([100, 200])) == 2
#@test
def test_channel_settle_and_quote():
    name = __unit_names__[0]
    channel = get_channel(name)
    result = channel.settle([(1, 100000), (0, 100000)])
    assert result["refused"] == 1 and result["gross"] == 100000
    assert result["net"] == 100000 - channel.fee(100000)
    assert quote(name, 5000)["net"] == channel.net(5000)
    assert cheapest(10000) in CHANNELS
    with pytest.raises(ChannelError):
        get_channel("no-such-channel")
#@test visible
def test_terms_table():
    table = channels.terms_table()
    assert [row["name"] for row in table] == sorted(__unit_names__)
    channel = get_channel(table[0]["name"])
    assert (table[0]["fee_percent"], table[0]["max_quantity"]) == (channel.FEE_PERCENT, channel.MAX_QUANTITY)
    assert channel.refund(1000) == (1000 if table[0]["refunds_fee"] else channel.net(1000))
#@test
def test_channel_order_lines():
    name = __unit_names__[0]
    channel = get_channel(name)
    assert channel.parse_order("3 x 25.00") == (3, 7500)
    assert channel.parse_order(" 3X25 __CURRENCY__ ") == (3, 7500)
    for bad in ("3 x", "x 25", "three x 25", "3 x 2.505", "3 x 25 x 2", "0 x 25", f"{channel.MAX_QUANTITY + 1} x 25"):
        with pytest.raises(ChannelError):
            channel.parse_order(bad)
    assert channels.read_orders(name, "# exported\n2 x 30.00\n\n  1 x 99\n") == [(2, 6000), (1, 9900)]
    with pytest.raises(ChannelError, match="^line 2: "):
        channels.read_orders(name, "1 x 30\nlots\n")
#@test
def test_invoice_shares_the_fee():
    lines = [("A1", 7000), ("B2", 2000), ("C3", 1000)]
    for name in __unit_names__[:2]:
        rows = channels.invoice(name, lines)
        assert [sku for sku, _, _ in rows] == ["A1", "B2", "C3"]
        assert sum(share for _, share, _ in rows) == get_channel(name).fee(10000)
        assert all(share + kept == amount for (_, share, kept), (_, amount) in zip(rows, lines))
        assert rows[0][1] >= rows[1][1] >= rows[2][1]
    assert channels.invoice(name, []) == [] and get_channel(name).fee_shares(500, []) == []
#@test
def test_margins_and_prices():
    for name in __unit_names__[-2:]:
        channel = get_channel(name)
        assert channel.margin(1000, 3000, 2) == channel.net(6000) - 2000
        price = channel.price_for(1000, 20)
        assert channel.net(price) >= 1200 > channel.net(price - 1)
        assert channel.price_for(1000) == channel.break_even(1000)
    name, best = channels.best_margin(1000, 3000, 2)  # every channel takes 2 units for 60.00: the best keeps the lowest fee
    assert name == cheapest(6000) and best == get_channel(name).net(6000) - 2000
#@test catches=sign
def test_no_channel_takes_the_order():
    with pytest.raises(ChannelError, match=r"^no channel takes 1000000 units at 30\.00 each"):
        channels.best_margin(1000, 3000, 10**6)
