"""Values across the boundary between the test runner and the solution's process.

msgpack carries the plain types natively (None, bool, int, float, str, bytes, list, dict);
ext types carry the rest. Nothing is ever unpickled: the receiver of a value builds it from
plain data with constructors it trusts.

- tuple, set, frozenset, complex, range and integers beyond 64 bits (a bytearray arrives as
  bytes: msgpack packs it natively);
- a few standard-library value types rebuilt by their own constructors (date, time, datetime,
  timedelta, timezone, Decimal, Fraction, Counter, OrderedDict, defaultdict, deque) and numpy
  arrays and scalars of numeric dtypes;
- instances of the task's own fixture classes (trusted `*.py` files of the task): module,
  class name and attribute values, rebuilt with that class's `__new__`;
- a named module or exception class (`REF`): the receiver imports its own copy;
- exceptions: their class, args, str() and the solution-side traceback as text;
- anything else: a handle (`MINE`) to an object that stays in its owner's process; the peer
  gets a stand-in whose every use is a call back to the owner. A stand-in sent back travels
  as `YOURS` and arrives as the original object.

A subclass of a plain type (a str whose `__eq__` always says yes, an IntEnum, a namedtuple)
crosses as the plain value it holds, read at C level: what arrives compares honestly.
"""

from __future__ import annotations

import sys

import msgpack

TUPLE, SET, FROZENSET, COMPLEX, BIGINT, BYTEARRAY, RANGE, VALUE, OBJECT, REF, EXC, MINE, YOURS = range(1, 14)
MAX_FRAME = 32 << 20  # bytes in one message: a result beyond this is refused, not buffered
MAX_NESTING = 40      # ext values inside ext values (tuples of tuples...): each level is a C unpacker on the stack

_PLAIN_BASES = (bool, int, float, complex, str, bytes, bytearray, tuple, list, dict, set, frozenset)
# C-level readers of a plain value held by a subclass instance: never the subclass's own methods.
_AS_PLAIN = {
    int: int.__int__, float: float.__float__, str: str.__str__, bytes: bytes.__bytes__,
    tuple: lambda o: tuple.__getitem__(o, slice(None)), list: lambda o: list.__getitem__(o, slice(None)),
    dict: dict.copy, set: set.copy, frozenset: frozenset.copy, bytearray: bytearray.copy,
    complex: complex.__complex__,
}
_STDLIB = frozenset(sys.stdlib_module_names) | {"builtins"}
# Standard modules that do something when imported: never imported because a value names them.
_NO_IMPORT = frozenset({"antigravity", "this", "__main__", "__future__", "idlelib", "tkinter", "turtle", "turtledemo"})


class CodecError(Exception):
    """A value that cannot cross (too big, too deep, or of a kind this direction refuses)."""


def _ref_object(module: str, qualname: str):
    obj = __import__(module, fromlist=["_"]) if module not in sys.modules else sys.modules[module]
    for part in qualname.split(".") if qualname else ():
        obj = getattr(obj, part)
    return obj


class Codec:
    """One side's view of the wire: what it lends (`exports`) and what it was lent (`proxies`).

    Subclasses decide what becomes a handle (`lend`) and what a peer's handle becomes
    (`stand_in`), and which named objects they accept (`accept_ref`).
    """

    def __init__(self, fixture_modules=()) -> None:
        self.fixture_modules = frozenset(fixture_modules)
        self.exports: dict[int, object] = {}
        self._export_ids: dict[int, int] = {}  # id(obj) -> export id; the object is kept alive in exports
        self.proxies: dict[int, object] = {}   # peer's export id -> our stand-in (one per object)
        self.generation = 0                    # bumped when the peer process is replaced
        self._depth = 0

    # -- encoding ---------------------------------------------------------------------------
    def dumps(self, value) -> bytes:
        self._depth = 0
        try:
            data = msgpack.packb(value, default=self._default, strict_types=True, unicode_errors="surrogatepass")
        except CodecError:
            raise
        except (ValueError, TypeError, OverflowError, RecursionError) as exc:
            raise CodecError(f"cannot encode the value: {type(exc).__name__}: {exc}") from None
        if len(data) > MAX_FRAME:
            raise CodecError(f"the value takes {len(data)} bytes, more than the {MAX_FRAME} allowed")
        return data

    def _pack(self, value) -> bytes:
        self._depth += 1
        if self._depth > MAX_NESTING:
            raise CodecError(f"the value is nested more than {MAX_NESTING} levels deep")
        try:
            return msgpack.packb(value, default=self._default, strict_types=True, unicode_errors="surrogatepass")
        finally:
            self._depth -= 1

    def _ext(self, code: int, value) -> msgpack.ExtType:
        return msgpack.ExtType(code, self._pack(value))

    def _default(self, obj):
        t = type(obj)
        if t is tuple:
            return self._ext(TUPLE, list(obj))
        if t is set or t is frozenset:
            return self._ext(SET if t is set else FROZENSET, list(obj))
        if t is int:  # beyond 64 bits
            return self._ext(BIGINT, str(obj))
        if t is complex:
            return self._ext(COMPLEX, [obj.real, obj.imag])
        if t is range:
            return self._ext(RANGE, [obj.start, obj.stop, obj.step])
        peer_id = self.peer_id(obj)
        if peer_id is not None:
            return self._ext(YOURS, peer_id)
        if isinstance(obj, BaseException):
            return self._ext(EXC, self.exception_fields(obj))
        value = _value_fields(obj, t)
        if value is not None:
            return self._ext(VALUE, value)
        if t.__module__ in self.fixture_modules and self._is_module_class(t):
            return self._ext(OBJECT, [t.__module__, t.__qualname__, _state(obj)])
        ref = self.named(obj)
        if ref is not None:
            return self._ext(REF, ref)
        for base in _PLAIN_BASES:
            if isinstance(obj, base) and base is not bool:
                value = _AS_PLAIN[base](obj)  # msgpack packs what default returns as is: tuples go round again
                return self._default(value) if type(value) in (tuple, set, frozenset, complex, int) else value
        return self._ext(MINE, [self.export(obj), self.describe(obj)])

    def _is_module_class(self, cls) -> bool:
        try:
            return _ref_object(cls.__module__, cls.__qualname__) is cls
        except Exception:
            return False

    def export(self, obj) -> int:
        key = id(obj)
        hid = self._export_ids.get(key)
        if hid is None or self.exports.get(hid) is not obj:
            hid = len(self.exports) + 1
            self.exports[hid] = obj
            self._export_ids[key] = hid
        return hid

    def exception_fields(self, exc: BaseException) -> list:
        try:
            text = str(exc)
        except Exception:
            text = f"<{type(exc).__name__}: str() failed>"
        args = exc.args if type(exc.args) is tuple else ()
        return [type(exc), list(args), text[:4000], self.traceback_text(exc)]

    # hooks -----------------------------------------------------------------------------------
    def peer_id(self, obj) -> int | None:
        """The peer's export id when `obj` is one of our stand-ins for a peer object."""
        return None

    def named(self, obj) -> list | None:
        """[module, qualname] when `obj` should cross by name (the receiver imports its own)."""
        return None

    def describe(self, obj) -> list:
        return [type(obj).__qualname__]

    def traceback_text(self, exc: BaseException) -> str:
        return ""

    # -- decoding ---------------------------------------------------------------------------
    def loads(self, data: bytes):
        self._depth = 0
        try:
            return msgpack.unpackb(data, ext_hook=self._ext_hook, strict_map_key=False, unicode_errors="surrogatepass",
                                   timestamp=3)
        except CodecError:
            raise
        except Exception as exc:  # garbled or hostile bytes: never more than "cannot decode"
            raise CodecError(f"cannot decode a value: {type(exc).__name__}: {exc}") from None

    def _unpack(self, data: bytes):
        self._depth += 1
        if self._depth > MAX_NESTING:
            raise CodecError(f"a value is nested more than {MAX_NESTING} levels deep")
        try:
            return msgpack.unpackb(data, ext_hook=self._ext_hook, strict_map_key=False, unicode_errors="surrogatepass",
                                   timestamp=3)
        finally:
            self._depth -= 1

    def _ext_hook(self, code: int, data: bytes):
        inner = self._unpack(data)
        if code == TUPLE:
            return tuple(_list(inner))
        if code == SET:
            return set(_list(inner))
        if code == FROZENSET:
            return frozenset(_list(inner))
        if code == BIGINT:
            return int(_typed(inner, str))
        if code == COMPLEX:
            re, im = _list(inner, 2)
            return complex(_typed(re, float), _typed(im, float))
        if code == BYTEARRAY:
            return bytearray(_typed(inner, bytes))
        if code == RANGE:
            return range(*(_typed(x, int) for x in _list(inner, 3)))
        if code == VALUE:
            return _rebuild_value(_list(inner))
        if code == OBJECT:
            module, qualname, state = _list(inner, 3)
            return self._rebuild_object(_typed(module, str), _typed(qualname, str), _typed(state, dict))
        if code == REF:
            module, qualname = _list(inner, 2)
            return self.resolve_ref(_typed(module, str), _typed(qualname, str))
        if code == EXC:
            return self.rebuild_exception(*_list(inner, 4))
        if code == MINE:
            hid, info = _list(inner, 2)
            return self.stand_in(_typed(hid, int), _typed(info, list))
        if code == YOURS:
            obj = self.exports.get(_typed(inner, int), _MISSING)
            if obj is _MISSING:
                raise CodecError(f"no object #{inner} was lent to the other side")
            return obj
        raise CodecError(f"unknown value kind {code}")

    def _rebuild_object(self, module: str, qualname: str, state: dict):
        if module not in self.fixture_modules:
            raise CodecError(f"{module}.{qualname} is not a class of the task's own modules")
        cls = _ref_object(module, qualname)
        if not isinstance(cls, type):
            raise CodecError(f"{module}.{qualname} is not a class")
        obj = cls.__new__(cls)
        for name, value in state.items():
            object.__setattr__(obj, _typed(name, str), value)
        return obj

    def resolve_ref(self, module: str, qualname: str):
        if module in _NO_IMPORT or not self.accept_ref(module):
            raise CodecError(f"{module}.{qualname} may not cross by name")
        try:
            return _ref_object(module, qualname)
        except Exception as exc:
            raise CodecError(f"cannot find {module}.{qualname}: {type(exc).__name__}") from None

    def accept_ref(self, module: str) -> bool:
        return True

    def rebuild_exception(self, cls, args, text, tb):
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            raise CodecError("an exception of a class that is not an exception")
        args = tuple(_list(args))
        try:
            exc = cls(*args)
        except Exception:
            exc = cls.__new__(cls)
            exc.args = args
        return exc

    def stand_in(self, hid: int, info: list):  # pragma: no cover - each side defines it
        raise CodecError("this side accepts no handles")


_MISSING = object()


def _list(value, n: int | None = None) -> list:
    if type(value) is not list or (n is not None and len(value) != n):
        raise CodecError("malformed value")
    return value


def _typed(value, t):
    if type(value) is not t:
        raise CodecError(f"malformed value: expected {t.__name__}, got {type(value).__name__}")
    return value


def _state(obj) -> dict:
    """A fixture-class instance's attributes: its __dict__ and its slots."""
    state = dict(getattr(obj, "__dict__", {}))
    for klass in type(obj).__mro__:
        for name in klass.__dict__.get("__slots__", ()):
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                state[name] = getattr(obj, name)
    return state


# -- standard value types, rebuilt by their own constructors --------------------------------------
def _module_type(module: str, name: str):
    mod = sys.modules.get(module)
    return getattr(mod, name, None) if mod is not None else None


def _value_fields(obj, t) -> list | None:
    """[kind, fields] for an instance of exactly one of the known value types, else None."""
    module, name = t.__module__, t.__qualname__
    if module == "datetime" and _module_type("datetime", name) is t:
        if name == "date":
            return ["date", [obj.year, obj.month, obj.day]]
        if name == "time":
            return ["time", [obj.hour, obj.minute, obj.second, obj.microsecond, _tz(obj.tzinfo), obj.fold]]
        if name == "datetime":
            return ["datetime", [obj.year, obj.month, obj.day, obj.hour, obj.minute, obj.second, obj.microsecond,
                                 _tz(obj.tzinfo), obj.fold]]
        if name == "timedelta":
            return ["timedelta", [obj.days, obj.seconds, obj.microseconds]]
        if name == "timezone":
            return ["timezone", [obj.utcoffset(None), obj.tzname(None)]]
    elif module in ("decimal", "_decimal", "_pydecimal") and name == "Decimal" and _module_type("decimal", "Decimal") is t:
        return ["Decimal", str(obj)]
    elif module == "fractions" and name == "Fraction" and _module_type("fractions", "Fraction") is t:
        return ["Fraction", [obj.numerator, obj.denominator]]
    elif module == "collections" and _module_type("collections", name) is t:
        if name in ("Counter", "OrderedDict"):
            return [name, [[k, v] for k, v in dict.items(obj)]]
        if name == "defaultdict":
            factory = obj.default_factory
            return ["defaultdict", [factory if factory in (list, int, set, dict, str, float, tuple) else None,
                                    [[k, v] for k, v in dict.items(obj)]]]
        if name == "deque":
            return ["deque", [list(obj), obj.maxlen]]
    elif module == "numpy" and "numpy" in sys.modules:
        np = sys.modules["numpy"]
        if t is np.ndarray and obj.dtype.kind in "biufc" and obj.dtype.names is None:
            return ["ndarray", [obj.dtype.str, list(obj.shape), np.ascontiguousarray(obj).tobytes()]]
        if isinstance(obj, np.generic) and obj.dtype.kind in "biufc":
            return ["npscalar", [obj.dtype.str, obj.tobytes()]]
    return None


def _tz(tz):
    if tz is None:
        return None
    if type(tz) is not _module_type("datetime", "timezone"):
        raise CodecError(f"a time zone of type {type(tz).__name__} cannot cross (only datetime.timezone)")
    return tz


def _rebuild_value(fields: list):
    kind, data = _list(fields, 2)
    if kind in ("date", "time", "datetime", "timedelta", "timezone"):
        import datetime

        if kind == "timezone":
            offset, name = _list(data, 2)
            return datetime.timezone(offset) if name is None else datetime.timezone(offset, _typed(name, str))
        if kind in ("time", "datetime"):
            *parts, tz, fold = _list(data)
            return getattr(datetime, kind)(*parts, tzinfo=tz, fold=fold)
        return getattr(datetime, kind)(*_list(data))
    if kind == "Decimal":
        import decimal

        return decimal.Decimal(_typed(data, str))
    if kind == "Fraction":
        import fractions

        num, den = _list(data, 2)
        return fractions.Fraction(_typed(num, int), _typed(den, int))
    if kind in ("Counter", "OrderedDict"):
        import collections

        return getattr(collections, kind)(dict((k, v) for k, v in (_list(p, 2) for p in _list(data))))
    if kind == "defaultdict":
        import collections

        factory, items = _list(data, 2)
        if factory not in (None, list, int, set, dict, str, float, tuple):
            raise CodecError("a defaultdict factory must be a builtin type")
        return collections.defaultdict(factory, ((k, v) for k, v in (_list(p, 2) for p in _list(items))))
    if kind == "deque":
        import collections

        items, maxlen = _list(data, 2)
        return collections.deque(_list(items), maxlen)
    if kind in ("ndarray", "npscalar"):
        import numpy as np

        if kind == "npscalar":
            dtype, raw = _list(data, 2)
            dt = np.dtype(_typed(dtype, str))
            if dt.kind not in "biufc":
                raise CodecError("only numeric numpy values cross")
            return np.frombuffer(_typed(raw, bytes), dtype=dt)[0]
        dtype, shape, raw = _list(data, 3)
        dt = np.dtype(_typed(dtype, str))
        if dt.kind not in "biufc" or dt.names is not None:
            raise CodecError("only numeric numpy arrays cross")
        return np.frombuffer(_typed(raw, bytes), dtype=dt).reshape([_typed(n, int) for n in _list(shape)]).copy()
    raise CodecError(f"unknown value type {kind!r}")
