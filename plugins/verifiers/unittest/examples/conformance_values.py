"""Pytest-style tasks whose correct solutions return the values real code returns: namedtuples
and struct_time, dataclasses, enums, aware datetimes, paths, IP addresses, Decimal and
Fraction, collections types, exceptions with attributes (their real classes, from stdlib
submodules too), deep structures, huge ints, classes the tests subclass.

Each task is (name, solution, tests, wrong): `wrong` is a (text, replacement) pair that turns
the solution into a wrong one. tests/test_unittest_value_conformance.py checks that every
solution passes under plain single-process pytest and under `unit_tests`, and every wrong one
fails under both: a value behaves in the tests as it does in one process.
"""

from __future__ import annotations

from typing import NamedTuple


class Task(NamedTuple):
    name: str
    solution: str
    tests: str
    wrong: tuple[str, str]


T = Task
TASKS: list[Task] = [
    # -- namedtuples and struct sequences ---------------------------------------------------------
    T("namedtuple_fields", """
from collections import namedtuple
Point = namedtuple("Point", "x y")
def midpoint(a, b):
    return Point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
""", """
import solution
def test_fields():
    p = solution.midpoint((0, 0), (4, 2))
    assert p.x == 2 and p.y == 1
    assert p == (2, 1) and p._fields == ("x", "y")
""", ("/ 2, (a[1]", "/ 4, (a[1]")),
    T("namedtuple_asdict_replace", """
from collections import namedtuple
Row = namedtuple("Row", ["name", "qty", "price"])
def parse(line):
    name, qty, price = line.split(",")
    return Row(name, int(qty), float(price))
""", """
from solution import parse
def test_asdict():
    row = parse("apple,3,0.5")
    assert row._asdict() == {"name": "apple", "qty": 3, "price": 0.5}
    assert row._replace(qty=4).qty == 4 and row.qty == 3
""", ("int(qty)", "int(qty) + 1")),
    T("typing_namedtuple_method", """
from typing import NamedTuple
import math
class Vec(NamedTuple):
    x: float
    y: float
    def norm(self):
        return math.hypot(self.x, self.y)
def make(x, y):
    return Vec(x, y)
""", """
import solution
def test_method_and_fields():
    v = solution.make(3, 4)
    assert v.norm() == 5.0 and v.x == 3
    assert isinstance(v, tuple) and isinstance(v, solution.Vec)
""", ("math.hypot(self.x, self.y)", "self.x + self.y")),
    T("namedtuples_in_a_sorted_list", """
from collections import namedtuple
Score = namedtuple("Score", "player points")
def ranking(points):
    return sorted((Score(p, s) for p, s in points.items()), key=lambda s: -s.points)
""", """
import solution
def test_ranking():
    top = solution.ranking({"ann": 3, "bo": 7, "cy": 5})
    assert [s.player for s in top] == ["bo", "cy", "ann"]
    first, second, third = top
    assert first.points == 7 and third == ("ann", 3)
""", ("-s.points", "s.points")),
    T("namedtuple_back_to_the_solution", """
from collections import namedtuple
Span = namedtuple("Span", "start end")
def span(a, b):
    return Span(min(a, b), max(a, b))
def length(s):
    return s.end - s.start
""", """
import solution
def test_round_trip():
    s = solution.span(9, 4)
    assert s.start == 4 and solution.length(s) == 5
    assert solution.length(solution.Span(1, 3)) == 2
""", ("s.end - s.start", "s.end - s.start + 1")),
    T("struct_time", """
import time
def epoch_parts(seconds):
    return time.gmtime(seconds)
""", """
import time
import solution
def test_struct_time():
    t = solution.epoch_parts(86400 * 366)
    assert isinstance(t, time.struct_time)
    assert (t.tm_year, t.tm_mon, t.tm_mday) == (1971, 1, 2) and t.tm_zone == "GMT" and t.tm_gmtoff == 0 and t[0] == 1971
""", ("time.gmtime(seconds)", "time.gmtime(seconds + 86400)")),
    # -- dataclasses ---------------------------------------------------------------------------------
    T("dataclass_asdict", """
from dataclasses import dataclass
@dataclass
class Item:
    name: str
    qty: int
def item(text):
    name, qty = text.split(":")
    return Item(name.strip(), int(qty))
""", """
import dataclasses
import solution
def test_asdict():
    got = solution.item(" pen : 4")
    assert dataclasses.asdict(got) == {"name": "pen", "qty": 4}
    assert dataclasses.astuple(got) == ("pen", 4) and dataclasses.is_dataclass(got)
    assert [f.name for f in dataclasses.fields(got)] == ["name", "qty"]
""", ("name.strip()", "name")),
    T("dataclass_replace_and_frozen", """
from dataclasses import dataclass
@dataclass(frozen=True)
class Config:
    host: str
    port: int = 80
def parse(url):
    host, _, port = url.partition(":")
    return Config(host, int(port) if port else 80)
""", """
import dataclasses
import pytest
import solution
def test_replace_and_frozen():
    c = solution.parse("example.org:8080")
    assert (c.host, c.port) == ("example.org", 8080)
    d = dataclasses.replace(c, port=443)
    assert d.port == 443 and d.host == "example.org" and c.port == 8080
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.port = 1
    assert solution.parse("h") == solution.Config("h", 80)
""", ("int(port) if port else 80", "int(port) if port else 8080")),
    T("dataclass_order", """
from dataclasses import dataclass
@dataclass(order=True)
class Version:
    major: int
    minor: int
def parse(text):
    a, b = text.split(".")
    return Version(int(a), int(b))
""", """
import solution
def test_order():
    vs = [solution.parse(t) for t in ["1.10", "1.2", "0.9"]]
    assert [(v.major, v.minor) for v in sorted(vs)] == [(0, 9), (1, 2), (1, 10)]
    assert solution.parse("2.0") > solution.parse("1.99")
""", ("return Version(int(a), int(b))", "return Version(int(b), int(a))")),
    T("dataclass_with_state", """
from dataclasses import dataclass, field
@dataclass
class Account:
    owner: str
    history: list = field(default_factory=list)
    @property
    def balance(self):
        return sum(self.history)
    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        self.history.append(amount)
        return self.balance
""", """
import pytest
import solution
def test_stateful():
    acc = solution.Account("ann")
    assert acc.deposit(5) == 5 and acc.deposit(7) == 12
    assert acc.balance == 12 and acc.history == [5, 7] and acc.owner == "ann"
    with pytest.raises(ValueError):
        acc.deposit(0)
""", ("sum(self.history)", "max(self.history)")),
    T("nested_dataclasses", """
from dataclasses import dataclass
@dataclass
class Line:
    sku: str
    qty: int
@dataclass
class Order:
    id: int
    lines: list
def order(id, text):
    return Order(id, [Line(s, int(q)) for s, q in (p.split("x") for p in text.split())])
""", """
import dataclasses
import solution
def test_nested():
    o = solution.order(7, "ab x2 cd x1".replace(" x", "x"))
    assert dataclasses.asdict(o) == {"id": 7, "lines": [{"sku": "ab", "qty": 2}, {"sku": "cd", "qty": 1}]}
    assert o.lines[1].sku == "cd"
""", ("int(q)", "int(q) * 2")),
    T("dataclass_equality", """
from dataclasses import dataclass
@dataclass
class Money:
    amount: int
    currency: str
def add(a, b):
    if a.currency != b.currency:
        raise ValueError("currency mismatch")
    return Money(a.amount + b.amount, a.currency)
""", """
import pytest
import solution
def test_eq():
    M = solution.Money
    assert solution.add(M(2, "EUR"), M(3, "EUR")) == M(5, "EUR")
    assert solution.add(M(2, "EUR"), M(3, "EUR")) != M(5, "USD")
    with pytest.raises(ValueError, match="mismatch"):
        solution.add(M(1, "EUR"), M(1, "USD"))
""", ("a.amount + b.amount", "a.amount * b.amount")),
    # -- enums -----------------------------------------------------------------------------------------
    T("enum_identity", """
import enum
class Color(enum.Enum):
    RED = 1
    GREEN = 2
def warmest(names):
    return Color.RED if "red" in names else Color.GREEN
""", """
import solution
def test_identity():
    assert solution.warmest(["red", "blue"]) is solution.Color.RED
    got = solution.warmest([])
    assert got is solution.Color.GREEN and got.name == "GREEN" and got.value == 2
    assert got != 2 and got == solution.Color(2)
""", ('"red" in names', '"red" not in names')),
    T("intenum_arithmetic", """
import enum
class Level(enum.IntEnum):
    LOW = 1
    MID = 5
    HIGH = 10
def level(n):
    return max((l for l in Level if l <= n), default=Level.LOW)
""", """
import solution
def test_intenum():
    got = solution.level(7)
    assert got == 5 and got + 1 == 6 and got.name == "MID"
    assert solution.level(100) == solution.Level.HIGH and solution.level(0) < solution.Level.MID
""", ("l <= n", "l < n - 5")),
    T("strenum", """
import enum
class Method(enum.StrEnum):
    GET = "GET"
    POST = "POST"
def method(line):
    return Method(line.split()[0].upper())
""", """
import solution
def test_strenum():
    m = solution.method("post /x")
    assert m == "POST" and m.lower() == "post" and m is solution.Method.POST
""", ("split()[0]", "split()[-1]")),
    T("flag_combinations", """
import enum
class Perm(enum.Flag):
    R = 4
    W = 2
    X = 1
def parse(mode):
    out = Perm(0)
    for ch, p in zip("rwx", (Perm.R, Perm.W, Perm.X)):
        if ch in mode:
            out |= p
    return out
""", """
import solution
def test_flags():
    P = solution.Perm
    got = solution.parse("r-x")
    assert got == P.R | P.X and P.R in got and P.W not in got and got.value == 5
""", ("(Perm.R, Perm.W, Perm.X)", "(Perm.R, Perm.X, Perm.W)")),
    T("enum_methods_and_iteration", """
import enum
class Planet(enum.Enum):
    MERCURY = (3.303e23, 2.4397e6)
    EARTH = (5.976e24, 6.37814e6)
    def surface_gravity(self):
        mass, radius = self.value
        return 6.673e-11 * mass / (radius * radius)
def heaviest():
    return max(Planet, key=lambda p: p.value[0])
""", """
import solution
def test_methods():
    assert [p.name for p in solution.Planet] == ["MERCURY", "EARTH"]
    earth = solution.heaviest()
    assert earth.name == "EARTH" and round(earth.surface_gravity(), 2) == 9.80
""", ("p.value[0]", "-p.value[0]")),
    T("stdlib_enum", """
import http
def status(code):
    return http.HTTPStatus(code)
""", """
import http
import solution
def test_http_status():
    s = solution.status(404)
    assert s is http.HTTPStatus.NOT_FOUND and s.phrase == "Not Found" and s == 404
""", ("HTTPStatus(code)", "HTTPStatus(code + 1)")),
    T("enum_dict_keys", """
import enum
class Suit(enum.Enum):
    HEARTS = "h"
    SPADES = "s"
def count(cards):
    out = {}
    for c in cards:
        s = Suit(c[-1])
        out[s] = out.get(s, 0) + 1
    return out
""", """
import solution
def test_keys():
    S = solution.Suit
    assert solution.count(["2h", "3s", "kh"]) == {S.HEARTS: 2, S.SPADES: 1}
""", ("out.get(s, 0) + 1", "1")),
    # -- dates and times ---------------------------------------------------------------------------------
    T("aware_datetime_utc", """
from datetime import datetime, timezone
def parse(ts):
    return datetime.fromisoformat(ts).astimezone(timezone.utc)
""", """
from datetime import datetime, timezone
import solution
def test_utc():
    got = solution.parse("2024-03-01T12:00:00+02:00")
    assert got == datetime(2024, 3, 1, 10, 0, tzinfo=timezone.utc) and got.tzinfo is timezone.utc
    assert got.utcoffset().total_seconds() == 0
""", (".astimezone(timezone.utc)", ".replace(tzinfo=timezone.utc)")),
    T("zoneinfo_datetime", """
from datetime import datetime
from zoneinfo import ZoneInfo
def in_paris(y, m, d, h):
    return datetime(y, m, d, h, tzinfo=ZoneInfo("UTC")).astimezone(ZoneInfo("Europe/Paris"))
""", """
from datetime import timedelta
from zoneinfo import ZoneInfo
import solution
def test_zone():
    summer = solution.in_paris(2024, 7, 1, 12)
    assert summer.hour == 14 and summer.tzinfo == ZoneInfo("Europe/Paris") and summer.tzinfo.key == "Europe/Paris"
    assert solution.in_paris(2024, 1, 1, 12).utcoffset() == timedelta(hours=1)
""", ('ZoneInfo("Europe/Paris")', 'ZoneInfo("Europe/London")')),
    T("fixed_offset_and_time", """
from datetime import time, timedelta, timezone
IST = timezone(timedelta(hours=5, minutes=30), "IST")
def opening(h, m):
    return time(h, m, tzinfo=IST)
""", """
from datetime import timedelta
import solution
def test_offset():
    t = solution.opening(9, 30)
    assert (t.hour, t.minute) == (9, 30) and t.tzname() == "IST" and t.utcoffset() == timedelta(hours=5, minutes=30)
""", ('minutes=30), "IST"', 'minutes=0), "IST"')),
    T("dates_and_durations", """
from datetime import date, timedelta
def due(start, days):
    d = start
    while days:
        d += timedelta(days=1)
        if d.weekday() < 5:
            days -= 1
    return d, d - start
""", """
from datetime import date, timedelta
import solution
def test_business_days():
    d, span = solution.due(date(2024, 5, 3), 3)
    assert d == date(2024, 5, 8) and span == timedelta(days=5) and d.isoformat() == "2024-05-08"
""", ("d.weekday() < 5", "d.weekday() < 6")),
    # -- paths, addresses, identifiers, numbers ---------------------------------------------------------
    T("pathlib_paths", """
from pathlib import Path, PurePosixPath
def backup_name(p):
    p = Path(p)
    return p.with_name(p.stem + ".bak" + p.suffix)
def parts(p):
    return PurePosixPath(p).parts
""", """
from pathlib import Path, PurePosixPath
import solution
def test_paths():
    got = solution.backup_name("data/report.csv")
    assert got == Path("data/report.bak.csv") and got.suffix == ".csv" and got.parent.name == "data"
    assert isinstance(got, Path) and solution.parts("/a/b") == ("/", "a", "b")
""", ('p.stem + ".bak" + p.suffix', 'p.stem + p.suffix + ".bak"')),
    T("ip_addresses", """
import ipaddress
def first_host(cidr):
    return next(ipaddress.ip_network(cidr).hosts())
def network(cidr):
    return ipaddress.ip_network(cidr, strict=False)
""", """
import ipaddress
import solution
def test_ip():
    assert solution.first_host("10.0.0.0/24") == ipaddress.ip_address("10.0.0.1")
    net = solution.network("192.168.1.77/30")
    assert net == ipaddress.ip_network("192.168.1.76/30") and net.num_addresses == 4
    assert solution.first_host("2001:db8::/126").version == 6
""", ("next(ipaddress.ip_network(cidr).hosts())", "list(ipaddress.ip_network(cidr).hosts())[-1]")),
    T("ip_interface", """
import ipaddress
def interface(text):
    return ipaddress.ip_interface(text)
""", """
import ipaddress
import solution
def test_interface():
    i = solution.interface("10.1.2.3/16")
    assert i == ipaddress.IPv4Interface("10.1.2.3/16") and str(i.network) == "10.1.0.0/16" and i.ip.is_private
""", ("ip_interface(text)", "ip_interface(text.replace('/16', '/24'))")),
    T("decimal_money", """
from decimal import Decimal, ROUND_HALF_UP
def total(prices):
    return sum((Decimal(p) for p in prices), Decimal("0")).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
""", """
from decimal import Decimal
import solution
def test_decimal():
    got = solution.total(["0.10", "0.20", "1.005"])
    assert got == Decimal("1.31") and str(got) == "1.31" and isinstance(got, Decimal)
""", ("ROUND_HALF_UP)", "ROUND_HALF_UP) - Decimal('0.01')")),
    T("fractions_exact", """
from fractions import Fraction
def harmonic(n):
    return sum(Fraction(1, k) for k in range(1, n + 1))
""", """
from fractions import Fraction
import solution
def test_fraction():
    h = solution.harmonic(4)
    assert h == Fraction(25, 12) and (h.numerator, h.denominator) == (25, 12)
""", ("range(1, n + 1)", "range(1, n)")),
    T("uuid_values", """
import uuid
def ident(name):
    return uuid.uuid5(uuid.NAMESPACE_DNS, name)
""", """
import uuid
import solution
def test_uuid():
    got = solution.ident("example.org")
    assert got == uuid.UUID("aad03681-8b63-5304-89e0-8ca8f49461b5") and got.version == 5
""", ("uuid.NAMESPACE_DNS", "uuid.NAMESPACE_URL")),
    T("array_and_bytes", """
import array
def samples(n):
    return array.array("h", range(-n, n))
def packed(values):
    return bytearray(v & 0xFF for v in values)
""", """
import array
import solution
def test_array():
    a = solution.samples(2)
    assert a == array.array("h", [-2, -1, 0, 1]) and a.typecode == "h"
    assert solution.packed([1, 256, 255]) == b"\\x01\\x00\\xff"
""", ("range(-n, n)", "range(-n, n + 1)")),
    T("complex_sets_ranges", """
def roots(n):
    import cmath
    return [cmath.rect(1, 2 * cmath.pi * k / n) for k in range(n)]
def evens(n):
    return range(0, n, 2), frozenset(range(0, n, 2))
""", """
import solution
def test_values():
    r = solution.roots(4)
    assert abs(r[1] - 1j) < 1e-12 and isinstance(r[1], complex)
    rng, fs = solution.evens(7)
    assert rng == range(0, 7, 2) and fs == frozenset({0, 2, 4, 6}) and isinstance(fs, frozenset)
""", ("range(0, n, 2), frozenset", "range(0, n, 3), frozenset")),
    # -- collections ---------------------------------------------------------------------------------------
    T("counter_most_common", """
from collections import Counter
def letters(text):
    return Counter(c for c in text.lower() if c.isalpha())
""", """
from collections import Counter
import solution
def test_counter():
    c = solution.letters("Hello, World")
    assert isinstance(c, Counter) and c.most_common(1) == [("l", 3)] and c["z"] == 0
    assert c + Counter("l") == Counter("helloworld") + Counter("l")
""", ("text.lower()", "text")),
    T("ordered_dict", """
from collections import OrderedDict
def lru_order(accesses):
    d = OrderedDict()
    for key in accesses:
        d[key] = d.get(key, 0) + 1
        d.move_to_end(key)
    return d
""", """
from collections import OrderedDict
import solution
def test_order():
    d = solution.lru_order(["a", "b", "a", "c"])
    assert list(d) == ["b", "a", "c"] and d == OrderedDict([("b", 1), ("a", 2), ("c", 1)])
    d.move_to_end("b")
    assert list(d) == ["a", "c", "b"]
""", ("d.move_to_end(key)", "pass")),
    T("defaultdict_factories", """
from collections import defaultdict
def group(words):
    out = defaultdict(list)
    for w in words:
        out[len(w)].append(w)
    return out
def zeros():
    return defaultdict(lambda: 0, {"seen": 1})
""", """
import solution
def test_defaultdicts():
    g = solution.group(["a", "bb", "c"])
    assert g == {1: ["a", "c"], 2: ["bb"]} and g[5] == [] and 5 in g
    z = solution.zeros()
    assert z["seen"] == 1 and z["other"] == 0
""", ("out[len(w)].append(w)", "out[len(w) + 1].append(w)")),
    T("deque_window", """
from collections import deque
def window(values, n):
    d = deque(maxlen=n)
    for v in values:
        d.append(v)
    return d
""", """
from collections import deque
import solution
def test_deque():
    d = solution.window(range(10), 3)
    assert d == deque([7, 8, 9]) and d.maxlen == 3
    d.append(10)
    assert list(d) == [8, 9, 10]
""", ("maxlen=n", "maxlen=n + 1")),
    T("chainmap_lookup", """
from collections import ChainMap
def settings(overrides, defaults):
    return ChainMap(overrides, defaults)
""", """
import solution
def test_chainmap():
    c = solution.settings({"debug": True}, {"debug": False, "port": 80})
    assert c["debug"] is True and c["port"] == 80 and len(c) == 2 and c.maps[1] == {"debug": False, "port": 80}
""", ("ChainMap(overrides, defaults)", "ChainMap(defaults, overrides)")),
    # -- exceptions -------------------------------------------------------------------------------------------
    T("exception_attributes", """
class ParseError(ValueError):
    def __init__(self, line, reason):
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason
def parse(lines):
    for i, line in enumerate(lines, 1):
        if "=" not in line:
            raise ParseError(i, "no '='")
    return dict(l.split("=", 1) for l in lines)
""", """
import pytest
import solution
def test_attributes():
    with pytest.raises(solution.ParseError) as info:
        solution.parse(["a=1", "oops"])
    assert info.value.line == 2 and info.value.reason == "no '='" and str(info.value) == "line 2: no '='"
    assert isinstance(info.value, ValueError)
""", ("enumerate(lines, 1)", "enumerate(lines)")),
    T("os_error_attributes", """
def read(path):
    with open(path) as f:
        return f.read()
""", """
import errno
import pytest
import solution
def test_missing_file():
    with pytest.raises(FileNotFoundError) as info:
        solution.read("missing.txt")
    assert info.value.filename == "missing.txt" and info.value.errno == errno.ENOENT
""", ("open(path)", "open(path + '.txt')")),
    T("json_decode_error", """
import json
def load(text):
    return json.loads(text)
""", """
import json
import pytest
import solution
def test_bad_json():
    with pytest.raises(json.JSONDecodeError) as info:
        solution.load('{"a": 1,}')
    assert info.value.pos == 8 and info.value.lineno == 1 and isinstance(info.value, ValueError)
""", ("json.loads(text)", "json.loads(text.replace(',}', '}'))")),
    T("stdlib_submodule_exception", """
import xml.etree.ElementTree as ET
def root_tag(text):
    return ET.fromstring(text).tag
""", """
import xml.etree.ElementTree as ET
import pytest
import solution
def test_parse_error():
    assert solution.root_tag("<a><b/></a>") == "a"
    with pytest.raises(ET.ParseError) as info:
        solution.root_tag("<a><b></a>")
    assert info.value.position == (1, 8)
""", ("ET.fromstring(text).tag", "ET.fromstring(text.replace('<b>', '<b/>')).tag")),
    T("called_process_error", """
import subprocess
def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout
""", """
import subprocess
import pytest
import solution
def test_exit_status():
    assert solution.run(["echo", "hi"]) == "hi\\n"
    with pytest.raises(subprocess.CalledProcessError) as info:
        solution.run(["sh", "-c", "exit 3"])
    assert info.value.returncode == 3 and info.value.cmd == ["sh", "-c", "exit 3"]
""", ("check=True", "check=False")),
    T("key_error_and_notes", """
def lookup(table, key):
    try:
        return table[key]
    except KeyError as exc:
        exc.add_note(f"known keys: {sorted(table)}")
        raise
""", """
import pytest
import solution
def test_key_error():
    with pytest.raises(KeyError) as info:
        solution.lookup({"a": 1}, "b")
    assert info.value.args == ("b",) and "known keys: ['a']" in info.value.__notes__
""", ('exc.add_note(f"known keys: {sorted(table)}")', "pass")),
    T("exception_hierarchy", """
class BankError(Exception):
    pass
class InsufficientFunds(BankError):
    def __init__(self, needed):
        super().__init__(f"needs {needed} more")
        self.needed = needed
class Wallet:
    def __init__(self, cash):
        self.cash = cash
    def pay(self, amount):
        if amount > self.cash:
            raise InsufficientFunds(amount - self.cash)
        self.cash -= amount
        return self.cash
""", """
import pytest
import solution
def test_hierarchy():
    w = solution.Wallet(10)
    assert w.pay(4) == 6
    with pytest.raises(solution.BankError) as info:
        w.pay(9)
    assert isinstance(info.value, solution.InsufficientFunds) and info.value.needed == 3
    assert w.cash == 6
""", ("amount - self.cash", "amount")),
    T("system_exit_code", """
import sys
def main(argv):
    if not argv:
        print("usage: tool FILE", file=sys.stderr)
        sys.exit(2)
    return 0
""", """
import pytest
import solution
def test_usage(capsys):
    with pytest.raises(SystemExit) as info:
        solution.main([])
    assert info.value.code == 2 and "usage" in capsys.readouterr().err
""", ("sys.exit(2)", "sys.exit(1)")),
    T("stop_iteration_value", """
def countdown(n):
    while n:
        yield n
        n -= 1
    return "liftoff"
""", """
import solution
def test_generator():
    g = solution.countdown(2)
    assert next(g) == 2 and next(g) == 1
    try:
        next(g)
    except StopIteration as stop:
        assert stop.value == "liftoff"
    else:
        raise AssertionError("no StopIteration")
""", ('return "liftoff"', 'return "abort"')),
    # -- size and depth -------------------------------------------------------------------------------------------
    T("deep_nested_lists", """
def nest(n):
    x = []
    for i in range(n):
        x = [i, x]
    return x
""", """
import solution
def test_depth_200():
    x, depth = solution.nest(200), 0
    while x:
        assert x[0] == 199 - depth
        x, depth = x[1], depth + 1
    assert depth == 200
""", ("x = [i, x]", "x = [i + 1, x]")),
    T("deep_nested_tuples_and_dicts", """
def tree(n):
    node = None
    for i in range(n):
        node = ({"depth": n - i}, (node,))
    return node
""", """
import solution
def test_depth_200():
    node, depth = solution.tree(200), 0
    while node is not None:
        assert node[0] == {"depth": depth + 1} and type(node[1]) is tuple
        node, depth = node[1][0], depth + 1
    assert depth == 200
""", ('{"depth": n - i}', '{"depth": n - i + 1}')),
    T("huge_int", """
def power(base, exp):
    return base ** exp
""", """
import solution
def test_100000_digits():
    got = solution.power(10, 99_999) * 3 + 7
    n = solution.power(10, 99_999) * 3 + 7
    assert n == 3 * 10 ** 99_999 + 7 and n.bit_length() == (3 * 10 ** 99_999).bit_length() and got % 1000 == 7
    assert solution.power(-2, 5) == -32
""", ("base ** exp", "base ** exp + 1")),
    T("large_result", """
def table(n):
    return [(i, str(i), i * i) for i in range(n)]
""", """
import solution
def test_big_table():
    rows = solution.table(50_000)
    assert len(rows) == 50_000 and rows[-1] == (49_999, "49999", 49_999 ** 2) and type(rows[7]) is tuple
""", ("i * i", "i * i + (i == 49_999)")),
    # -- classes the tests subclass -------------------------------------------------------------------------------
    T("subclass_template_method", """
class Shape:
    def area(self):
        raise NotImplementedError
    def describe(self):
        return f"{type(self).__name__} of area {self.area():.1f}"
""", """
import solution
class Square(solution.Shape):
    def __init__(self, side):
        self.side = side
    def area(self):
        return self.side ** 2
def test_template_method():
    sq = Square(3)
    assert sq.area() == 9 and sq.describe() == "Square of area 9.0"
    assert isinstance(sq, solution.Shape)
""", ("of area {self.area():.1f}", "of area {self.area() + 1:.1f}")),
    T("subclass_super_init", """
class Counter:
    def __init__(self, start=0):
        self.count = start
    def step(self):
        self.count += 1
        return self.count
""", """
import solution
class Twice(solution.Counter):
    def __init__(self):
        super().__init__(10)
    def step(self):
        super().step()
        return super().step()
def test_super():
    t = Twice()
    assert t.step() == 12 and t.count == 12 and t.step() == 14
""", ("self.count += 1", "self.count += 2")),
    T("subclass_adds_methods", """
class Stack:
    def __init__(self):
        self.items = []
    def push(self, x):
        self.items.append(x)
    def pop(self):
        return self.items.pop()
    def __len__(self):
        return len(self.items)
""", """
import solution
class PeekStack(solution.Stack):
    def peek(self):
        top = self.pop()
        self.push(top)
        return top
def test_added_method():
    s = PeekStack()
    s.push(1)
    s.push(2)
    assert s.peek() == 2 and len(s) == 2 and s.pop() == 2 and len(s) == 1
""", ("return self.items.pop()", "return self.items.pop(0)")),
    T("subclass_passed_back", """
class Handler:
    def handle(self, event):
        return "ignored"
def dispatch(handlers, event):
    return [h.handle(event) for h in handlers]
""", """
import solution
class Upper(solution.Handler):
    def handle(self, event):
        return event.upper()
def test_dispatch():
    assert solution.dispatch([Upper(), solution.Handler()], "go") == ["GO", "ignored"]
""", ("[h.handle(event) for h in handlers]", "[h.handle(event) for h in reversed(handlers)]")),
    # -- the rest of what tests touch -----------------------------------------------------------------------------
    T("objects_with_identity", """
class Node:
    def __init__(self, value, children=()):
        self.value = value
        self.children = list(children)
def build(spec):
    return Node(spec[0], [build(c) for c in spec[1:]])
def total(node):
    return node.value + sum(total(c) for c in node.children)
""", """
import solution
def test_tree():
    root = solution.build([1, [2], [3, [4]]])
    assert root.value == 1 and root.children[1].children[0].value == 4
    assert solution.total(root) == 10 and isinstance(root, solution.Node)
""", ("node.value + sum", "sum")),
    T("generators_and_iterators", """
def chunks(items, n):
    for i in range(0, len(items), n):
        yield items[i:i + n]
""", """
import solution
def test_chunks():
    assert list(solution.chunks([1, 2, 3, 4, 5], 2)) == [[1, 2], [3, 4], [5]]
    it = iter(solution.chunks("abc", 2))
    assert next(it) == "ab" and next(it) == "c"
""", ("range(0, len(items), n)", "range(0, len(items) - 1, n)")),
    T("callbacks_and_in_place_changes", """
def apply_all(fn, rows):
    for row in rows:
        row[:] = [fn(x) for x in row]
    return len(rows)
""", """
import solution
def test_in_place():
    rows = [[1, 2], [3]]
    assert solution.apply_all(lambda v: v * 10, rows) == 2
    assert rows == [[10, 20], [30]]
""", ("fn(x) for x in row", "fn(x) + 1 for x in row")),
    T("prints_to_capsys", """
def report(items):
    for name, qty in items:
        print(f"{name:<6}{qty:>3}")
""", """
import solution
def test_output(capsys):
    solution.report([("pen", 3), ("ink", 12)])
    assert capsys.readouterr().out == "pen     3\\nink    12\\n"
""", ("{qty:>3}", "{qty:>4}")),
    T("floats_special", """
import math
def stats(xs):
    if not xs:
        return math.nan, math.inf
    return sum(xs) / len(xs), max(xs)
""", """
import math
import solution
def test_special_floats():
    mean, top = solution.stats([])
    assert math.isnan(mean) and top == math.inf
    assert solution.stats([1.5, 2.0]) == (1.75, 2.0)
""", ("sum(xs) / len(xs)", "sum(xs) // len(xs)")),
    T("bool_is_not_int", """
def flags(xs):
    return [x > 0 for x in xs]
""", """
import solution
def test_bools():
    got = solution.flags([1, -1, 0])
    assert got == [True, False, False] and all(type(b) is bool for b in got)
""", ("x > 0", "int(x > 0)")),
    T("dict_with_tuple_keys", """
def grid(w, h):
    return {(x, y): x * y for x in range(w) for y in range(h)}
""", """
import solution
def test_grid():
    g = solution.grid(3, 2)
    assert g[(2, 1)] == 2 and len(g) == 6 and sorted(g)[0] == (0, 0)
""", ("x * y", "x + y")),
    T("sets_of_tuples", """
def pairs(xs, target):
    seen, out = set(), set()
    for x in xs:
        if target - x in seen:
            out.add((min(x, target - x), max(x, target - x)))
        seen.add(x)
    return out
""", """
import solution
def test_pairs():
    assert solution.pairs([1, 2, 3, 4, 5], 6) == {(1, 5), (2, 4)}
""", ("target - x in seen", "target - x in seen and x != 5")),
    T("class_attributes_and_properties", """
class Temperature:
    unit = "C"
    def __init__(self, celsius):
        self._c = celsius
    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32
    @classmethod
    def from_f(cls, f):
        return cls((f - 32) * 5 / 9)
""", """
import solution
def test_properties():
    t = solution.Temperature.from_f(212)
    assert t.fahrenheit == 212 and solution.Temperature.unit == "C" and t.unit == "C"
""", ("* 9 / 5 + 32", "* 9 / 5 + 31")),
    T("dunder_protocols", """
class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]
    def __matmul__(self, other):
        return Matrix([[sum(a * b for a, b in zip(r, c)) for c in zip(*other.rows)] for r in self.rows])
    def __eq__(self, other):
        return isinstance(other, Matrix) and self.rows == other.rows
    def __getitem__(self, ij):
        return self.rows[ij[0]][ij[1]]
    def __len__(self):
        return len(self.rows)
""", """
import solution
def test_protocols():
    a = solution.Matrix([[1, 2], [3, 4]])
    b = a @ a
    assert b[0, 1] == 10 and len(b) == 2 and b == solution.Matrix([[7, 10], [15, 22]])
    assert b.rows == [[7, 10], [15, 22]]
""", ("sum(a * b for", "sum(a + b for")),
    T("context_manager", """
class Timer:
    def __init__(self):
        self.entered = self.exited = False
    def __enter__(self):
        self.entered = True
        return self
    def __exit__(self, *exc):
        self.exited = True
        return False
""", """
import solution
def test_with():
    t = solution.Timer()
    with t as inside:
        assert inside.entered and not inside.exited
    assert t.exited
""", ("self.exited = True", "self.exited = False")),
    T("module_constants_and_monkeypatch", """
import random
SIDES = 6
def roll():
    return random.randint(1, SIDES)
""", """
import solution
def test_monkeypatch(monkeypatch):
    assert solution.SIDES == 6
    monkeypatch.setattr(solution, "SIDES", 1)
    assert {solution.roll() for _ in range(60)} == {1}  # a die fixed at 6 sides shows 1 every time with chance 6**-60
""", ("random.randint(1, SIDES)", "random.randint(1, 6)")),
    T("mixed_value_payload", """
import datetime, decimal, enum
from collections import namedtuple
from dataclasses import dataclass
class Kind(enum.Enum):
    BUY = "buy"
    SELL = "sell"
Fill = namedtuple("Fill", "qty price")
@dataclass
class Trade:
    kind: Kind
    when: datetime.datetime
    fills: list
def trade():
    utc = datetime.timezone.utc
    return Trade(Kind.BUY, datetime.datetime(2024, 1, 2, tzinfo=utc), [Fill(2, decimal.Decimal("9.50"))])
""", """
import dataclasses, datetime, decimal
import solution
def test_payload():
    t = solution.trade()
    assert t.kind is solution.Kind.BUY and t.when.tzinfo is datetime.timezone.utc
    assert t.fills[0].price == decimal.Decimal("9.50") and t.fills[0].qty == 2
    assert dataclasses.asdict(t)["fills"] == [(2, decimal.Decimal("9.50"))]
""", ('Fill(2, decimal.Decimal("9.50"))', 'Fill(2, decimal.Decimal("9.05"))')),
]
