"""Values across the boundary between the test runner and the solution's process.

Nothing is ever unpickled: the receiver of a value builds it from plain data with
constructors it trusts, and it never imports, and never calls code of, anything because the
sender named it (a named module or class is looked up among the modules it already holds).

A message is a msgpack array of entries, each its own msgpack blob. Entry 0 is the value;
msgpack carries its plain parts natively (None, bool, int, float, str, bytes, list, dict).
Everything else is a reference (an ext leaf) to a later entry `[kind, payload]`, whose
payload may refer to later entries again. So no value nests one unpacker inside another:
a tuple of tuples 10,000 deep is 10,000 flat entries, built from the last to the first.
Limits (each named `rlhub limit` in the error the tests get): MAX_FRAME bytes a message,
MAX_VALUES entries a message, about 1000 levels of lists and dicts directly inside one
another (msgpack's own).

Kinds of entries:
- tuple, set, frozenset, range; integers beyond 64 bits and complex numbers are leaves;
- standard-library value types rebuilt by their own constructors (date, time, datetime with
  a datetime.timezone or zoneinfo zone, timedelta, timezone, Decimal, Fraction, Counter,
  OrderedDict, defaultdict, deque, ChainMap, Path and the pure paths, ipaddress's addresses,
  networks and interfaces, UUID, array.array) and numpy arrays and scalars of numeric dtypes;
- namedtuples (struct_time and the other struct sequences too), enum members and exceptions
  (class, args, message, attributes, the sender's traceback as text): their class is the
  receiver's own when it holds it, else the sender's class crosses as a handle (below);
- instances of the task's own fixture classes (trusted `*.py` files of the task): module,
  class name and attribute values, rebuilt with that class's `__new__`;
- a named module or class (`REF`): the receiver's own copy, if it has one loaded;
- anything else: a handle (`MINE`) to an object that stays in its owner's process; the peer
  gets a stand-in whose every use is a call back to the owner. A stand-in sent back travels
  as `YOURS` and arrives as the original object.

A subclass of a plain type that is none of the above (a str whose `__eq__` always says yes)
crosses as the plain value it holds, read at C level: what arrives compares honestly.
"""

from __future__ import annotations

import struct
import sys

import msgpack

# ext leaves inside an entry's blob
_ENTRY, _BIGINT, _COMPLEX = 1, 2, 3
# kinds of entries
(TUPLE, SET, FROZENSET, RANGE, VALUE, OBJECT, REF, EXC, MINE, YOURS, NTUPLE, STRUCTSEQ, ENUM) = range(1, 14)

MAX_FRAME = 32 << 20      # bytes in one message: a result beyond this is refused, not buffered
MAX_VALUES = 1 << 20      # entries (tuples, sets, handles...) in one message
LIMIT = "rlhub limit"     # every limit error says so: the verdict lists the limits a run hit

_PLAIN_BASES = (bool, int, float, complex, str, bytes, bytearray, tuple, list, dict, set, frozenset)
# C-level readers of a plain value held by a subclass instance: never the subclass's own methods.
_AS_PLAIN = {
    int: int.__int__, float: float.__float__, str: str.__str__, bytes: bytes.__bytes__,
    tuple: lambda o: tuple.__getitem__(o, slice(None)), list: lambda o: list.__getitem__(o, slice(None)),
    dict: dict.copy, set: set.copy, frozenset: frozenset.copy, bytearray: bytearray.copy,
    complex: complex.__complex__,
}
_STDLIB = frozenset(sys.stdlib_module_names) | {"builtins"}
_MODULE_DICT = type(sys).__dict__["__dict__"]
_TYPE_DICT = type.__dict__["__dict__"]
_UNBUILT = object()


class CodecError(Exception):
    """A value that cannot cross (too big, too deep, or of a kind this direction refuses)."""


class LimitExceeded(CodecError):
    """A value beyond one of the codec's limits (the message names it)."""


def stdlib_module(module) -> bool:
    return type(module) is str and module.split(".")[0] in _STDLIB


def lookup(module: str, qualname: str):
    """The object `module.qualname` of a module this process already holds: found in
    sys.modules and the namespaces' own dicts, so nothing is imported and no code runs (no
    module `__getattr__`, no descriptor, no metaclass)."""
    obj = sys.modules.get(module)
    if obj is None:
        raise LookupError(f"{module} is not loaded here")
    for part in qualname.split(".") if qualname else ():
        if isinstance(obj, type(sys)):
            namespace = _MODULE_DICT.__get__(obj)
        elif isinstance(obj, type):
            namespace = _TYPE_DICT.__get__(obj)
        else:
            raise LookupError(f"{module}.{qualname} is not a module or class attribute")
        if part not in namespace:
            raise LookupError(f"{module}.{qualname} is not here")
        obj = namespace[part]
    return obj


def _namedtuple_fields(t) -> tuple | None:
    fields = getattr(t, "_fields", None)
    if type(fields) is tuple and all(type(f) is str for f in fields) and issubclass(t, tuple):
        return fields
    return None


class Codec:
    """One side's view of the wire: what it lends (`exports`) and what it was lent (`proxies`).

    Subclasses decide what becomes a handle (`lend`) and what a peer's handle becomes
    (`stand_in`), which named objects they accept (`accept_ref`), and how the classes of
    namedtuples, enums and exceptions arrive.
    """

    def __init__(self, fixture_modules=()) -> None:
        self.fixture_modules = frozenset(fixture_modules)
        self.exports: dict[int, object] = {}
        self._export_ids: dict[int, int] = {}  # id(obj) -> export id; the object is kept alive in exports
        self.proxies: dict[int, object] = {}   # peer's export id -> our stand-in (one per object)
        self.generation = 0                    # bumped when the peer process is replaced
        self._pending: list | None = None

    # -- encoding ---------------------------------------------------------------------------
    def dumps(self, value) -> bytes:
        outer, self._pending = self._pending, []  # re-entrant: encoding a value may send a request first
        try:
            blobs = [self._packb(value)]
            size, pending, i = len(blobs[0]), self._pending, 0
            while True:
                if size > MAX_FRAME:
                    raise LimitExceeded(f"{LIMIT}: the value takes more than {MAX_FRAME} bytes")
                if i == len(pending):  # the list grows while it is walked: each payload adds its own entries
                    return msgpack.packb(blobs)
                kind, payload = pending[i]
                pending[i] = None
                blobs.append(self._packb([kind, payload]))
                size += len(blobs[-1]) + 5
                i += 1
        finally:
            self._pending = outer

    def _packb(self, value) -> bytes:
        try:
            return msgpack.packb(value, default=self._default, strict_types=True, unicode_errors="surrogatepass")
        except CodecError:
            raise
        except ValueError as exc:
            if "recursion limit" in str(exc):
                raise LimitExceeded(f"{LIMIT}: lists or dicts nested more than about 1000 levels deep") from None
            raise CodecError(f"cannot encode the value: ValueError: {exc}") from None
        except (TypeError, OverflowError, RecursionError) as exc:
            raise CodecError(f"cannot encode the value: {type(exc).__name__}: {exc}") from None

    def _entry(self, kind: int, payload) -> msgpack.ExtType:
        pending = self._pending
        pending.append((kind, payload))
        if len(pending) > MAX_VALUES:
            raise LimitExceeded(f"{LIMIT}: the value holds more than {MAX_VALUES} tuples, sets and other objects")
        return msgpack.ExtType(_ENTRY, len(pending).to_bytes(4, "big"))

    def _default(self, obj):
        t = type(obj)
        if t is tuple:
            return self._entry(TUPLE, list(obj))
        if t is set or t is frozenset:
            return self._entry(SET if t is set else FROZENSET, list(obj))
        if t is int:  # beyond 64 bits: two's complement bytes (no decimal conversion, no digit limit)
            return msgpack.ExtType(_BIGINT, obj.to_bytes((obj.bit_length() + 8) // 8, "big", signed=True))
        if t is complex:
            return msgpack.ExtType(_COMPLEX, struct.pack(">dd", obj.real, obj.imag))
        if t is range:
            return self._entry(RANGE, [obj.start, obj.stop, obj.step])
        peer_id = self.peer_id(obj)
        if peer_id is not None:
            return self._entry(YOURS, peer_id)
        if isinstance(obj, BaseException):
            return self._entry(EXC, self.exception_fields(obj))
        value = _value_fields(obj, t)
        if value is not None:
            return self._entry(VALUE, value)
        fields = _namedtuple_fields(t) if issubclass(t, tuple) else None
        if fields is not None:
            return self._entry(NTUPLE, [*self.class_fields(t), list(fields), list(_AS_PLAIN[tuple](obj))])
        if issubclass(t, tuple) and type(getattr(t, "n_sequence_fields", None)) is int and stdlib_module(t.__module__):
            reduced = t.__reduce__(obj)  # (class, (the sequence, {the named-only fields}))
            return self._entry(STRUCTSEQ, [t.__module__, t.__qualname__, list(reduced[1][0]), dict(reduced[1][1] or {})])
        enum = sys.modules.get("enum")
        if enum is not None and isinstance(obj, enum.Enum):
            return self._entry(ENUM, [*self.class_fields(t), self.enum_fields(t), obj._value_])
        if t.__module__ in self.fixture_modules and self._is_module_class(t):
            return self._entry(OBJECT, [t.__module__, t.__qualname__, _state(obj)])
        ref = self.named(obj)
        if ref is not None:
            return self._entry(REF, ref)
        for base in _PLAIN_BASES:
            if isinstance(obj, base) and base is not bool:
                plain = _AS_PLAIN[base](obj)  # msgpack packs what default returns as is: tuples go round again
                return self._default(plain) if type(plain) in (tuple, set, frozenset, complex, int) else plain
        return self._entry(MINE, [self.export(obj), self.describe(obj)])

    def _is_module_class(self, cls) -> bool:
        try:
            return lookup(cls.__module__, cls.__qualname__) is cls
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
        cls = self.class_fields(type(exc))
        # a class named (not lent): its standard bases too, for a side that does not hold the class itself
        bases = [[b.__module__, b.__qualname__] for b in type(exc).__mro__[1:]
                 if stdlib_module(b.__module__) and issubclass(b, BaseException)] if cls[0] is None else []
        return [*cls, bases, list(args), text[:4000], self.traceback_text(exc), _exception_attributes(exc)]

    def class_fields(self, cls) -> list:
        """[the class itself or None, module, qualname]: the class crosses as itself (a handle,
        or the peer's own) unless the peer holds its own copy by that name (standard library,
        builtins, the task's modules): then None, and the peer looks the name up."""
        module, qualname = getattr(cls, "__module__", None), getattr(cls, "__qualname__", None)
        if type(module) is str and type(qualname) is str and (stdlib_module(module) or module in self.fixture_modules):
            try:
                if lookup(module, qualname) is cls:
                    return [None, module, qualname]
            except LookupError:
                pass
        return [cls, str(module), str(qualname)]

    def enum_fields(self, cls) -> list:
        """What it takes to make a copy of an enum class: [base kind, mixed-in plain type, members]."""
        import enum

        base = next((b.__name__ for b in cls.__mro__ if b in (enum.IntFlag, enum.Flag, enum.IntEnum, enum.StrEnum)), "Enum")
        mixin = next((b for b in cls.__mro__ if b in (int, str, float)), None) if base == "Enum" else None
        members = [[name, member._value_] for name, member in cls.__members__.items()]
        return [base, mixin.__name__ if mixin else None, members]

    # hooks -----------------------------------------------------------------------------------
    def peer_id(self, obj) -> int | None:
        """The peer's export id when `obj` is one of our stand-ins for a peer object."""
        return None

    def named(self, obj) -> list | None:
        """[module, qualname] when `obj` should cross by name (the receiver has its own)."""
        return None

    def describe(self, obj) -> list:
        return [type(obj).__qualname__]

    def traceback_text(self, exc: BaseException) -> str:
        return ""

    # -- decoding ---------------------------------------------------------------------------
    def loads(self, data: bytes):
        try:
            blobs = msgpack.unpackb(data, max_array_len=MAX_VALUES + 1, max_map_len=0, max_str_len=0, max_ext_len=0)
        except Exception as exc:
            raise CodecError(f"cannot decode a message: {type(exc).__name__}: {exc}") from None
        if type(blobs) is not list or not blobs or any(type(b) is not bytes for b in blobs):
            raise CodecError("a malformed message")
        built = [_UNBUILT] * len(blobs)
        leaves = _Leaves(built)
        for i in range(len(blobs) - 1, -1, -1):  # every reference points further on: built already
            leaves.i = i
            try:
                item = msgpack.unpackb(blobs[i], ext_hook=leaves, strict_map_key=False, unicode_errors="surrogatepass")
                if i == 0:
                    return item
                kind, payload = _list(item, 2)
                built[i] = self._build(kind, payload)
            except CodecError:
                raise
            except Exception as exc:  # garbled or hostile bytes: never more than "cannot decode"
                raise CodecError(f"cannot decode a value: {type(exc).__name__}: {exc}") from None
        raise CodecError("a malformed message")

    def _build(self, kind, payload):
        if kind == TUPLE:
            return tuple(_list(payload))
        if kind == SET:
            return set(_list(payload))
        if kind == FROZENSET:
            return frozenset(_list(payload))
        if kind == RANGE:
            return range(*(_typed(x, int) for x in _list(payload, 3)))
        if kind == VALUE:
            return _rebuild_value(_list(payload))
        if kind == OBJECT:
            module, qualname, state = _list(payload, 3)
            return self._rebuild_object(_typed(module, str), _typed(qualname, str), _typed(state, dict))
        if kind == REF:
            module, qualname = _list(payload, 2)
            return self.resolve_ref(_typed(module, str), _typed(qualname, str))
        if kind == EXC:
            cls, module, qualname, bases, args, text, tb, attrs = _list(payload, 8)
            cls = self.exception_class(cls, _typed(module, str), _typed(qualname, str), _list(bases))
            return self.rebuild_exception(cls, _list(args), text, tb, _typed(attrs, dict))
        if kind == MINE:
            hid, info = _list(payload, 2)
            return self.stand_in(_typed(hid, int), _typed(info, list))
        if kind == YOURS:
            obj = self.exports.get(_typed(payload, int), _UNBUILT)
            if obj is _UNBUILT:
                raise CodecError(f"no object #{payload} was lent to the other side")
            return obj
        if kind == NTUPLE:
            cls, module, qualname, fields, values = _list(payload, 5)
            fields = tuple(_typed(f, str) for f in _list(fields))
            return self.rebuild_namedtuple(cls, _typed(module, str), _typed(qualname, str), fields, _list(values))
        if kind == STRUCTSEQ:
            module, qualname, seq, extra = _list(payload, 4)
            return self._rebuild_structseq(_typed(module, str), _typed(qualname, str), _list(seq), _typed(extra, dict))
        if kind == ENUM:
            cls, module, qualname, shape, value = _list(payload, 5)
            return self.rebuild_enum(cls, _typed(module, str), _typed(qualname, str), _list(shape, 3), value)
        raise CodecError(f"unknown value kind {kind!r}")

    def _rebuild_object(self, module: str, qualname: str, state: dict):
        if module not in self.fixture_modules:
            raise CodecError(f"{module}.{qualname} is not a class of the task's own modules")
        cls = self.held_class(module, qualname)
        if cls is None:
            raise CodecError(f"{module}.{qualname}: the tests have not imported {module}")
        obj = cls.__new__(cls)
        for name, value in state.items():
            object.__setattr__(obj, _typed(name, str), value)
        return obj

    def held_class(self, module: str, qualname: str):
        """A class of the standard library or of the task's modules, if this process holds it."""
        if not (stdlib_module(module) or module in self.fixture_modules):
            return None
        try:
            cls = lookup(module, qualname)
        except LookupError:
            return None
        return cls if isinstance(cls, type) else None

    def resolve_ref(self, module: str, qualname: str):
        if not self.accept_ref(module):
            raise CodecError(f"{module}.{qualname} may not cross by name")
        try:
            return lookup(module, qualname)
        except LookupError as exc:
            raise CodecError(f"cannot find {module}{'.' + qualname if qualname else ''}: {exc}") from None

    def accept_ref(self, module: str) -> bool:
        return True

    def exception_class(self, cls, module: str, qualname: str, bases: list):
        """The class of an arriving exception: its own (a handle, ours), the one held by name, or
        (a standard class this side never loaded, so no test names it) a class of that name
        made here on the first standard base this side holds (`except OSError` still takes it)."""
        if cls is None:
            cls = self.held_class(module, qualname)
        if cls is None:
            base = next((b for b in (self.held_class(*_list(pair, 2)) for pair in bases if type(pair) is list
                                     and all(type(p) is str for p in pair) and len(pair) == 2)
                         if b is not None and issubclass(b, BaseException)), Exception)
            cls = plain_exception(module, qualname, base)
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            raise CodecError("an exception of a class that is not an exception")
        return cls

    def rebuild_exception(self, cls, args, text, tb, attrs):
        args = tuple(args)
        try:
            exc = cls(*args)
        except Exception:
            exc = cls.__new__(cls)
            exc.args = args
        _set_attributes(exc, attrs)
        return exc

    def rebuild_namedtuple(self, cls, module: str, qualname: str, fields: tuple, values: list):
        if cls is None:
            cls = self.held_class(module, qualname)
        if not (isinstance(cls, type) and issubclass(cls, tuple) and _namedtuple_fields(cls) == fields):
            cls = plain_namedtuple(qualname, fields)
        return tuple.__new__(cls, values)  # no __new__ of the class runs: the values are the values

    def _rebuild_structseq(self, module: str, qualname: str, seq: list, extra: dict):
        cls = self.held_class(module, qualname)
        if cls is None or not issubclass(cls, tuple) or type(getattr(cls, "n_sequence_fields", None)) is not int:
            return tuple(seq)
        return cls(seq, extra)

    def rebuild_enum(self, cls, module: str, qualname: str, shape: list, value):
        import enum

        if cls is None:
            cls = self.held_class(module, qualname)
        if not (isinstance(cls, type) and issubclass(cls, enum.Enum)):
            cls = plain_enum(qualname, shape)
        return cls(value)

    def stand_in(self, hid: int, info: list):  # pragma: no cover - each side defines it
        raise CodecError("this side accepts no handles")


class _Leaves:
    """The ext leaves of entry `i`: references to entries further on, big ints, complex numbers."""

    __slots__ = ("built", "i")

    def __init__(self, built: list) -> None:
        self.built, self.i = built, 0

    def __call__(self, code: int, data: bytes):
        if code == _ENTRY:
            j = int.from_bytes(data, "big")
            if len(data) != 4 or not self.i < j < len(self.built) or self.built[j] is _UNBUILT:
                raise CodecError("a malformed reference")
            return self.built[j]
        if code == _BIGINT:
            return int.from_bytes(data, "big", signed=True)
        if code == _COMPLEX:
            if len(data) != 16:
                raise CodecError("a malformed complex number")
            return complex(*struct.unpack(">dd", data))
        raise CodecError(f"unknown leaf kind {code}")


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


# C-level attributes of standard exceptions that their args do not carry
_EXC_SLOTS = (("OSError", ("errno", "strerror", "filename", "filename2")), ("ImportError", ("name", "path")),
              ("AttributeError", ("name",)), ("NameError", ("name",)), ("StopIteration", ("value",)),
              ("SystemExit", ("code",)))


def _exception_attributes(exc: BaseException) -> dict:
    """An exception's own attributes (its __dict__ and the standard classes' C-level ones) and
    its notes: what a test reads off it (`err.line`, `err.filename`, `err.__notes__`)."""
    attrs = {}
    try:
        own = object.__getattribute__(exc, "__dict__")
    except AttributeError:
        own = {}
    for name, value in dict(own).items():
        if type(name) is str and name.isidentifier() and not name.startswith("__") and not name.startswith("_rlhub"):
            attrs[name] = value
    for base, names in _EXC_SLOTS:
        if any(b.__name__ == base and b.__module__ == "builtins" for b in type(exc).__mro__):
            for name in names:
                try:
                    attrs.setdefault(name, getattr(exc, name))
                except Exception:
                    pass
    notes = own.get("__notes__") if isinstance(own, dict) else None
    if type(notes) is list:
        attrs["__notes__"] = [n for n in notes if type(n) is str][:20]
    return attrs


def _set_attributes(exc: BaseException, attrs: dict) -> None:
    for name, value in attrs.items():
        if name == "__notes__":
            for note in value if type(value) is list else ():
                if type(note) is str:
                    exc.add_note(note)
            continue
        if type(name) is not str or not name.isidentifier() or name.startswith("__") or name.startswith("_rlhub"):
            continue
        try:
            setattr(exc, name, value)
        except Exception:  # a read-only property of the class: what the constructor made stays
            pass


_PLAIN_CLASSES: dict = {}


def plain_exception(module: str, qualname: str, base: type) -> type:
    """An exception class of that name on `base`, made here (one per name and base)."""
    key = ("exception", module, qualname, base)
    cls = _PLAIN_CLASSES.get(key)
    if cls is None:
        name = qualname.rsplit(".", 1)[-1]
        for bases in ((base,), (Exception,)):
            try:
                cls = type(name if name.isidentifier() else "Error", bases, {"__module__": module, "__qualname__": qualname})
                break
            except TypeError:  # a base that cannot be subclassed
                continue
        _PLAIN_CLASSES[key] = cls
    return cls


def plain_namedtuple(qualname: str, fields: tuple) -> type:
    """A namedtuple class of that name and those fields, made here (one per shape)."""
    key = ("namedtuple", qualname, fields)
    cls = _PLAIN_CLASSES.get(key)
    if cls is None:
        import collections

        name = qualname.rsplit(".", 1)[-1]
        cls = collections.namedtuple(name if name.isidentifier() else "namedtuple", fields, rename=True)
        _PLAIN_CLASSES[key] = cls
    return cls


def plain_enum(qualname: str, shape: list):
    """An enum class of that name, kind and members, made here (one per shape)."""
    import enum

    base, mixin, members = shape
    members = [tuple(_list(m, 2)) for m in _list(members)]
    for name, _ in members:
        _typed(name, str)
    key = ("enum", qualname, base, mixin, repr(members))
    cls = _PLAIN_CLASSES.get(key)
    if cls is None:
        kinds = {"Enum": enum.Enum, "IntEnum": enum.IntEnum, "StrEnum": enum.StrEnum, "Flag": enum.Flag,
                 "IntFlag": enum.IntFlag}
        if base not in kinds or mixin not in (None, "int", "str", "float"):
            raise CodecError(f"an enum of an unknown kind {base!r}")
        name = qualname.rsplit(".", 1)[-1]
        extra = {"type": {"int": int, "str": str, "float": float}[mixin]} if mixin else {}
        try:
            cls = kinds[base](name if name.isidentifier() else "Enum", members, **extra)
        except Exception as exc:
            raise CodecError(f"cannot make enum {name}: {type(exc).__name__}: {exc}") from None
        _PLAIN_CLASSES[key] = cls
    return cls


# -- standard value types, rebuilt by their own constructors --------------------------------------
def _module_type(module: str, name: str):
    mod = sys.modules.get(module)
    return getattr(mod, name, None) if mod is not None else None


_IP_TYPES = ("IPv4Address", "IPv6Address", "IPv4Network", "IPv6Network", "IPv4Interface", "IPv6Interface")
_PATH_TYPES = ("PurePath", "PurePosixPath", "PureWindowsPath", "Path", "PosixPath", "WindowsPath")


def _value_fields(obj, t) -> list | None:
    """[kind, fields] for an instance of exactly one of the known value types, else None."""
    module, name = t.__module__, t.__qualname__
    if module == "datetime" and _module_type("datetime", name) is t:
        if name == "date":
            return ["date", [obj.year, obj.month, obj.day]]
        if name == "time":
            return ["time", [obj.hour, obj.minute, obj.second, obj.microsecond, _tz(obj.tzinfo, None), obj.fold]]
        if name == "datetime":
            return ["datetime", [obj.year, obj.month, obj.day, obj.hour, obj.minute, obj.second, obj.microsecond,
                                 _tz(obj.tzinfo, obj), obj.fold]]
        if name == "timedelta":
            return ["timedelta", [obj.days, obj.seconds, obj.microseconds]]
        if name == "timezone":
            return ["timezone", _timezone_args(obj)]
    elif module in ("decimal", "_decimal", "_pydecimal") and name == "Decimal" and _module_type("decimal", "Decimal") is t:
        return ["Decimal", str(obj)]
    elif module == "fractions" and name == "Fraction" and _module_type("fractions", "Fraction") is t:
        return ["Fraction", [obj.numerator, obj.denominator]]
    elif module == "collections" and _module_type("collections", name) is t:
        if name in ("Counter", "OrderedDict"):  # items(), not dict.items: an OrderedDict's own order (move_to_end)
            return [name, [[k, v] for k, v in obj.items()]]
        if name == "defaultdict":
            return ["defaultdict", [obj.default_factory, [[k, v] for k, v in dict.items(obj)]]]
        if name == "deque":
            return ["deque", [list(obj), obj.maxlen]]
        if name == "ChainMap":
            return ["ChainMap", list(obj.maps)]
    elif module == "pathlib" and name in _PATH_TYPES and _module_type("pathlib", name) is t:
        return ["path", [name, str(obj)]]
    elif module == "ipaddress" and name in _IP_TYPES and _module_type("ipaddress", name) is t:
        return ["ip", [name, str(obj)]]
    elif module == "uuid" and name == "UUID" and _module_type("uuid", "UUID") is t:
        return ["uuid", obj.bytes]
    elif module == "array" and name == "array" and _module_type("array", "array") is t:
        return ["array", [obj.typecode, obj.tobytes()]]
    elif module == "numpy" and "numpy" in sys.modules:
        np = sys.modules["numpy"]
        if t is np.ndarray and obj.dtype.kind in "biufc" and obj.dtype.names is None:
            return ["ndarray", [obj.dtype.str, list(obj.shape), np.ascontiguousarray(obj).tobytes()]]
        if isinstance(obj, np.generic) and obj.dtype.kind in "biufc":
            return ["npscalar", [obj.dtype.str, obj.tobytes()]]
    return None


def _timezone_args(tz) -> list:
    """[offset, name or None]: None when the zone was made without a name (timezone.utc
    arrives as the timezone.utc singleton: `tzinfo is timezone.utc` holds)."""
    args = tz.__getinitargs__()
    return [args[0], args[1] if len(args) > 1 else None]


def _tz(tz, moment):
    """A time zone as it crosses: a datetime.timezone as itself, a zoneinfo zone by its key,
    any other as the fixed offset it has at that moment."""
    if tz is None:
        return None
    timezone = _module_type("datetime", "timezone")
    if type(tz) is timezone:
        return ["timezone", *_timezone_args(tz)]
    if type(tz) is _module_type("zoneinfo", "ZoneInfo") and type(tz.key) is str:
        return ["zone", tz.key]
    offset = tz.utcoffset(moment)
    if offset is None:
        raise CodecError(f"a time zone of type {type(tz).__name__} without an offset cannot cross")
    name = tz.tzname(moment)
    return ["timezone", offset, name if type(name) is str else None]


def _rebuild_tz(tz):
    if type(tz) is list and tz and tz[0] == "timezone":
        return _rebuild_value(["timezone", _list(tz)[1:]])
    if type(tz) is list:
        import zoneinfo

        kind, key = _list(tz, 2)
        if kind != "zone":
            raise CodecError("malformed time zone")
        try:
            return zoneinfo.ZoneInfo(_typed(key, str))
        except Exception as exc:
            raise CodecError(f"no time zone {key!r} here: {type(exc).__name__}") from None
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
            return getattr(datetime, kind)(*parts, tzinfo=_rebuild_tz(tz), fold=fold)
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
        if factory is not None and not callable(factory):
            raise CodecError("a defaultdict factory must be callable")
        return collections.defaultdict(factory, ((k, v) for k, v in (_list(p, 2) for p in _list(items))))
    if kind == "deque":
        import collections

        items, maxlen = _list(data, 2)
        return collections.deque(_list(items), maxlen)
    if kind == "ChainMap":
        import collections

        maps = _list(data)
        if not all(isinstance(m, dict) for m in maps):
            raise CodecError("a ChainMap of something other than dicts")
        return collections.ChainMap(*maps)
    if kind in ("path", "ip"):
        import ipaddress
        import pathlib

        name, text = _list(data, 2)
        if name not in (_PATH_TYPES if kind == "path" else _IP_TYPES):
            raise CodecError(f"unknown {kind} type {name!r}")
        return getattr(pathlib if kind == "path" else ipaddress, name)(_typed(text, str))
    if kind == "uuid":
        import uuid

        return uuid.UUID(bytes=_typed(data, bytes))
    if kind == "array":
        import array

        typecode, raw = _list(data, 2)
        made = array.array(_typed(typecode, str))
        made.frombytes(_typed(raw, bytes))
        return made
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
