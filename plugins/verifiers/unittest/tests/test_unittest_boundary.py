"""The boundary between the tests and the solution's process: what crosses and how.

Most cases drive the real stand-in over a real solution process (an exec'd interpreter) outside
the sandbox, with solutions these tests wrote; the last ones run in the sandbox through the
verifier, where the isolation itself (fds, memory, signals) is what is checked.
"""

from __future__ import annotations

import collections
import datetime
import decimal
import fractions
import io
import sys

import pytest
from rlhub_unittest import stand_in
from ut_helpers import fenced

PLAIN = [None, True, 3, -(1 << 80), 2.5, float("inf"), 1 + 2j, "x\udcff", b"\x00\xff",
         (1, (2, [3])), {1, 2}, frozenset({"a"}), {(1, 2): {"k": [None]}}, range(2, 9, 3), [[]]]
VALUES = [datetime.date(2024, 2, 29), datetime.datetime(2024, 1, 2, 3, 4, 5, 6, tzinfo=datetime.timezone.utc),
          datetime.timedelta(days=2, seconds=3), decimal.Decimal("1.10"), fractions.Fraction(3, 4),
          collections.Counter("abca"), collections.OrderedDict(b=1, a=2), collections.deque([1, 2], maxlen=3),
          collections.defaultdict(list, {"k": [1]})]


@pytest.mark.parametrize("value", PLAIN + VALUES, ids=lambda v: type(v).__name__)
def test_values_cross_both_ways_as_themselves(solution_process, value):
    sol = solution_process("def echo(x):\n    return x\n")
    back = sol.call("echo", value)
    assert type(back) is type(value) and back == value
    if isinstance(value, collections.deque):
        assert back.maxlen == 3
    if isinstance(value, collections.defaultdict):
        assert back.default_factory is list


def test_numpy_arrays_cross_by_value(solution_process):
    np = pytest.importorskip("numpy")
    sol = solution_process("import numpy as np\ndef grid(n):\n    return np.arange(n * n, dtype=np.float32).reshape(n, n)\n"
                           "def total(a):\n    return a.sum()\n")
    got = sol.call("grid", 3)
    assert isinstance(got, np.ndarray) and got.dtype == np.float32 and got.shape == (3, 3) and got[2, 2] == 8
    assert sol.call("total", got) == 36 and isinstance(sol.call("total", got), np.floating)


def test_subclasses_of_plain_types_cross_as_the_plain_value_they_hold(solution_process):
    sol = solution_process("import enum, collections\nclass Liar(str):\n    def __eq__(self, o):\n        return True\n"
                           "    __hash__ = str.__hash__\nclass Level(enum.IntEnum):\n    HIGH = 3\n"
                           "class P(collections.namedtuple('P', 'x y')):\n    def __eq__(self, o):\n        return True\n"
                           "def values():\n    return [Liar('no'), Level.HIGH, P(1, 2)]\n")
    liar, level, point = sol.call("values")
    assert (type(liar), liar) == (str, "no") and liar != "yes"
    # an enum member and a namedtuple arrive as what they are, with this side's own equality
    assert level == 3 and level.name == "HIGH" and type(level).__name__ == "Level"
    assert (point.x, point.y) == (1, 2) and point == (1, 2) and point != (1, 3) and point._asdict() == {"x": 1, "y": 2}


def test_objects_of_the_solution_stay_there_as_handles(solution_process):
    sol = solution_process(
        "class Stack:\n    def __init__(self):\n        self.items = []\n    def push(self, x):\n        self.items.append(x)\n"
        "    def pop(self):\n        return self.items.pop()\n    def __len__(self):\n        return len(self.items)\n"
        "    def __iter__(self):\n        return iter(self.items)\n    def __getitem__(self, i):\n        return self.items[i]\n"
        "    def __eq__(self, other):\n        return isinstance(other, Stack) and self.items == other.items\n"
        "    def __enter__(self):\n        return self\n    def __exit__(self, *exc):\n        self.items.clear()\n"
        "def squares(n):\n    for i in range(n):\n        yield i * i\n")
    s = sol.module.Stack()
    s.push(3)
    s.push(4)
    assert type(s) is stand_in.SolutionObject and len(s) == 2 and s[0] == 3 and list(s) == [3, 4]
    assert s.items == [3, 4] and s.pop() == 4 and isinstance(s, sol.module.Stack) and not isinstance(3, sol.module.Stack)
    other = sol.module.Stack()
    other.push(3)
    assert s == other and s is not other  # two of its own objects: its __eq__
    with s as inside:
        assert inside.items == [3]
    assert len(s) == 0
    gen = sol.call("squares", 4)
    assert next(gen) == 0 and list(gen) == [1, 4, 9]
    with pytest.raises(StopIteration):
        next(gen)


def test_callbacks_cross_back_and_nest(solution_process):
    sol = solution_process("def apply(f, xs):\n    return [f(x) for x in xs]\n"
                           "def twice(f, x):\n    return f(f(x))\n"
                           "def sort_by(xs, key):\n    return sorted(xs, key=key)\n")
    seen = []
    assert sol.call("apply", lambda x: seen.append(x) or x * 10, [1, 2]) == [10, 20] and seen == [1, 2]
    assert sol.call("twice", lambda x: sol.call("apply", abs, [x, -x])[0] + 1, -5) == 7  # test -> solution -> test -> solution
    assert sol.call("sort_by", ["bb", "a", "ccc"], key=len) == ["a", "bb", "ccc"]  # a builtin crosses by name
    with pytest.raises(TypeError, match="cannot be passed to the solution"):
        sol.call("apply", abs, [object()])


def test_exceptions_arrive_as_their_type_and_the_solutions_own_classes_as_real_classes(solution_process):
    sol = solution_process("class ParseError(ValueError):\n    def __str__(self):\n        return 'bad: ' + self.args[0]\n"
                           "def parse(s):\n    if not s.isdigit():\n        raise ParseError(s)\n    return int(s)\n"
                           "def get(d, k):\n    return d[k]\n"
                           "def quit():\n    raise SystemExit(3)\n")
    with pytest.raises(sol.module.ParseError, match="bad: x1") as info:
        sol.call("parse", "x1")
    assert isinstance(info.value, ValueError) and issubclass(sol.module.ParseError, ValueError)
    assert "Traceback in the solution's process" in "".join(info.value.__notes__)
    with pytest.raises(KeyError) as info:
        sol.call("get", {}, "k")
    assert info.value.args == ("k",)
    with pytest.raises(SystemExit) as info:
        sol.call("quit")
    assert info.value.code == 3
    assert sol.call("parse", "12") == 12  # the process survived all of it


def test_an_exception_of_a_standard_module_the_tests_never_loaded_keeps_its_name_and_bases(solution_process):
    assert "smtplib" not in sys.modules  # nothing here imported it: the runner would not hold it either
    sol = solution_process("import smtplib\ndef send():\n    raise smtplib.SMTPServerDisconnected('gone')\n"
                           "def one():\n    return 1\n")
    with pytest.raises(OSError, match="gone") as info:  # SMTPServerDisconnected < SMTPException < OSError
        sol.call("send")
    assert type(info.value).__name__ == "SMTPServerDisconnected" and type(info.value).__module__ == "smtplib"
    assert "smtplib" not in sys.modules and sol.call("one") == 1


def test_containers_the_solution_changes_in_place_change_in_the_tests(solution_process):
    sol = solution_process("def fill(grid, v):\n    for row in grid:\n        row[0] = v\n    grid.append([v])\n"
                           "def drop(d):\n    d.pop('a')\n    d['n']['m'] = 1\n")
    grid = [[0, 0], [0, 0]]
    first = grid[0]
    assert sol.call("fill", grid, 7) is None
    assert grid == [[7, 0], [7, 0], [7]] and first is grid[0] and first == [7, 0]
    d = {"a": 1, "n": {}}
    sol.call("drop", d)
    assert d == {"n": {"m": 1}}


def test_prints_reach_capsys_and_stdin_comes_from_the_tests(solution_process, capsys, monkeypatch):
    sol = solution_process("import sys\ndef greet():\n    print('hello')\n    print('oops', file=sys.stderr)\n"
                           "def ask():\n    return input('> ') + '|' + sys.stdin.read()\n")
    sol.call("greet")
    assert capsys.readouterr() == ("hello\n", "oops\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("first\nsecond\nthird\n"))
    assert sol.call("ask") == "first|second\nthird\n"


def test_monkeypatching_the_solution_module_reaches_its_process(solution_process, monkeypatch):
    sol = solution_process("import time\ndef now():\n    return clock()\ndef clock():\n    return time.time()\n")
    monkeypatch.setattr(sol.module, "clock", lambda: 42.0)
    assert sol.call("now") == 42.0
    monkeypatch.undo()
    assert sol.call("now") > 1e9


def test_a_crash_or_a_hang_costs_that_call_and_the_next_gets_a_fresh_import(solution_process):
    sol = solution_process("import os\nstate = []\ndef add(x):\n    state.append(x)\n    return len(state)\n"
                           "def die():\n    os._exit(7)\ndef hang():\n    while True:\n        pass\n")
    assert sol.call("add", 1) == 1 and sol.call("add", 1) == 2  # module state persists between calls
    with pytest.raises(stand_in.SolutionCrashed, match="exited with code 7"):
        sol.call("die")
    assert sol.call("add", 1) == 1  # a fresh process, a fresh import
    sol.process.deadline = __import__("time").monotonic() + 0.5
    with pytest.raises(stand_in.SolutionTimeout):
        sol.call("hang")
    sol.process.deadline += 60
    assert sol.call("add", 1) == 1


def test_results_too_big_or_garbled_are_refused_not_buffered(solution_process):
    sol = solution_process("def big():\n    return 'x' * (40 << 20)\ndef deep(n):\n    x = []\n    for _ in range(n):\n"
                           "        x = [x]\n    return x\ndef ok():\n    return 1\n")
    with pytest.raises(TypeError, match="cannot be sent to the tests: rlhub limit: the value takes more than"):
        sol.call("big")
    with pytest.raises(TypeError, match="rlhub limit: lists or dicts nested more than about 1000 levels"):
        sol.call("deep", 5000)
    assert sol.call("ok") == 1


def test_deep_structures_and_huge_ints_cross_far_above_what_real_code_returns(solution_process):
    sol = solution_process("def chain(n):\n    x = None\n    for i in range(n):\n        x = (i, [x], {i: frozenset([i])})\n"
                           "    return x\ndef nest(n):\n    x = []\n    for _ in range(n):\n        x = [x]\n    return x\n"
                           "def big(digits):\n    return -(10 ** digits) + 7\ndef same(x):\n    return x\n")
    got, n = sol.call("chain", 3000), 0
    while got is not None:  # 3000 levels of tuple > list > tuple: 9000 deep
        assert type(got) is tuple and got[0] == 2999 - n and got[2] == {got[0]: frozenset([got[0]])}
        got, n = got[1][0], n + 1
    assert n == 3000
    deep = sol.call("nest", 900)
    for _ in range(900):
        deep = deep[0]
    assert deep == []
    huge = sol.call("big", 100_000)
    assert huge < 0 and huge % 10 == 7 and huge.bit_length() == (10 ** 100_000 - 7).bit_length()
    assert sol.call("same", huge) == huge


def test_fixture_classes_cross_by_value(solution_process):
    fixture = "from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass Point:\n    x: float\n    y: float\n"
    sys.modules.pop("shapes", None)
    sol = solution_process("from shapes import Point\ndef mid(a, b):\n    return Point((a.x + b.x) / 2, (a.y + b.y) / 2)\n",
                           fixtures={"shapes": fixture})
    module = type(sys)("shapes")  # the tests' own copy, as the runner serves it
    sys.modules["shapes"] = module
    exec(compile(fixture, "shapes", "exec"), module.__dict__)
    try:
        Point = module.Point
        got = sol.call("mid", Point(0, 0), Point(2, 4))
        assert type(got) is Point and got == Point(1, 2)
    finally:
        sys.modules.pop("shapes", None)


def test_programs_run_as_main_read_stdin_every_way(solution_process):
    sol = solution_process("import sys, os\nfirst = input()\n"
                           "if first == 'buffer':\n    rest = sys.stdin.buffer.read().decode()\n"
                           "elif first == 'fd':\n    rest = os.read(0, 100).decode()\nelse:\n    rest = sys.stdin.read()\n"
                           "print(first.upper(), len(rest.split()))\nsys.stdout.buffer.write(b'raw\\n')\n"
                           "if first == 'stop':\n    exit(4)\n", imported=False)
    assert sol.process.request("main", "text\n1 2 3\n", [])[::2] == ["TEXT 3\nraw\n", 0]
    assert sol.process.request("main", "stop\n", [])[::2] == ["STOP 0\nraw\n", 4]
    whole = solution_process("import sys\nprint(len(sys.stdin.buffer.read().split()), open(0).read() == '')\n",
                             imported=False)
    assert whole.process.request("main", "a b\nc\n", [])[::2] == ["3 True\n", 0]


# -- in the sandbox ------------------------------------------------------------------------------
def test_the_solution_process_holds_no_fd_of_the_runner_and_cannot_read_its_memory(verify):
    tests = ("import solution\n\ndef test_fds():\n    assert solution.fds() == ['0', '1', '2', solution.sock()]\n\n"
             "def test_parent():\n    assert solution.parent() == ['fd: PermissionError', 'mem: PermissionError', "
             "'environ: PermissionError']\n")
    code = ("import os\ndef fds():\n    return sorted(os.listdir('/proc/self/fd'), key=int)[:-1]\n"
            "def sock():\n    return sorted(os.listdir('/proc/self/fd'), key=int)[-2]\n"
            "def parent():\n    out = []\n    for what in ('fd', 'mem', 'environ'):\n        try:\n"
            "            p = f'/proc/{os.getppid()}/{what}'\n            os.listdir(p) if what == 'fd' else open(p, 'rb').read(1)\n"
            "            out.append(what + ': readable')\n        except OSError as e:\n"
            "            out.append(f'{what}: {type(e).__name__}')\n    return out\n")
    v = verify(tests, fenced(code), reward="fraction")
    assert v.reward == 1.0, v.details


def test_module_level_exit_reads_as_exited_during_import(verify):
    code = "import argparse\np = argparse.ArgumentParser()\np.add_argument('path')\nargs = p.parse_args()\ndef add(a, b):\n    return a + b\n"
    v = verify("import solution\n\ndef test_add():\n    assert solution.add(1, 2) == 3\n", fenced(code))
    assert v.reward == 0.0 and v.error is None and "tampering" not in v.details
    assert "exited during import" in v.details["reason"], v.details


def test_hostile_bytes_are_refused_never_a_crash():
    import random

    import msgpack
    from rlhub_unittest.codec import Codec, CodecError

    codec, rng = Codec(), random.Random(4)
    with pytest.raises(CodecError):  # lists inside lists beyond msgpack's own stack
        codec.loads(msgpack.packb([b"\x91" * 100_000 + b"\xc0"]))
    for bad in ([], [b"\xc7\x04\x01\x00\x00\x00\x00"], [b"\xc7\x04\x01\x00\x00\x00\x05", b"\x92\x01\x90"],
                ["not bytes"], [b"\x92\x63\x90"] * 2):  # empty, a reference to itself, past the end, ...
        with pytest.raises(CodecError):
            codec.loads(msgpack.packb(bad))
    seeds = [codec.dumps(v) for v in [(1, {2, 3}), {"a": [1.5, b"x"]}, 1 << 90, 3j, range(3), frozenset({(1,)})]]
    for _ in range(20_000):  # garbled frames: a value or CodecError, nothing else
        data = bytearray(rng.choice(seeds))
        data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            codec.loads(bytes(data))
        except CodecError:
            pass
