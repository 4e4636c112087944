"""Test-runner side of the boundary: the `solution` module the hidden tests import is a stand-in
whose attributes are remote calls into the solution's own process (solution_process.py).

- Values come back as plain data (codec.py): whatever the tests compare is a real int, str,
  list..., so an object that lies about equality never reaches them.
- Anything else of the model's (an instance of its class, a generator, a function) is a
  `SolutionObject`: each use (call, attribute, len, iteration, ...) is a request to the
  solution's process. Such an object never vouches for itself against a test's value:
  `==`/`!=` with a plain value is plain inequality, ordering and arithmetic with one are a
  TypeError, and it has no truth value in an assert (strict.py). Between two of the model's
  own objects, the model's methods answer (that is what a test of its class checks).
- Exception classes of the model arrive as real classes mirroring their exception bases
  (`pytest.raises(solution.ParseError)` works; a plain `ValueError` handler catches it).
- Test-side callables passed to the solution become callbacks it may call; other test-side
  objects do not cross (the tests say so with a TypeError).

The solution's process starts on the first `import solution` (a CLI or bash task never
imports it) and is replaced if it dies or hangs: that call fails, the next one gets a fresh
import, as a fresh test process would.
"""

from __future__ import annotations

import collections.abc
import ctypes
import importlib.abc
import os
import signal
import sys
import time
import types

from . import user_env as _user_env
from .codec import _STDLIB, Codec, CodecError, lookup, stdlib_module
from .rpc import Peer, Wire, WireClosed, WireTimeout

STARTUP_S = 10.0     # a fresh interpreter and the solution's import, at most (bounded by the test's deadline)
MAX_RESTARTS = 16    # the solution's process is replaced at most this often in one run
SOCKET_FD = 3        # the solution's end of the socket, in its process
# The solution's process is a user's `python -c ...` in the work dir's venv (user_env.py): site
# loaded, no interpreter flags, a user's environment and sys.path. This line reads the rest from
# the socket: a marshalled loader and our three modules' code, compiled once per warm worker.
_BOOT = ("import marshal, os\nb = b''\nwhile len(b) < {n}:\n    b += os.read(3, {n} - len(b)) or os._exit(3)\n"
         "exec(*marshal.loads(b))\n")
# The loader runs in a namespace of its own. Our modules live under a name of no package anyone
# installs, and leave sys.modules once loaded (msgpack too, and its Cython runtime): the solution's
# code finds nothing of rlhub's by name, in sys.modules, on sys.path, or in __main__ (the boot
# line's names go).
_LOADER = """\
import sys, types, __main__
for _name in ("b", "marshal", "os"):
    vars(__main__).pop(_name, None)
_before = set(sys.modules)
_package = types.ModuleType(PACKAGE)
_package.__path__ = []
_made = {PACKAGE: _package}
sys.modules[PACKAGE] = _package
try:
    for _name, _code in MODULES:
        _module = types.ModuleType(_name)
        _module.__package__ = PACKAGE
        sys.modules[_name] = _made[_name] = _module
        exec(_code, _module.__dict__)
finally:
    for _name in set(sys.modules) - _before:  # ours, msgpack and what it brought that is not the stdlib's
        if _name in _made or _name.split(".")[0] not in sys.stdlib_module_names:
            del sys.modules[_name]
_made[PACKAGE + ".serve"].serve(FD)
"""
PACKAGE = "_bridge"  # what our modules are called in the solution's process
OWN_FILES = f"<{PACKAGE}."  # their code's file names start so (its tracebacks leave our frames out)


def _own_code() -> bytes:
    import marshal

    here = os.path.dirname(os.path.abspath(__file__))
    code = []
    for name, as_name in (("codec", "codec"), ("rpc", "rpc"), ("solution_process", "serve")):
        path = os.path.join(here, name + ".py")
        with open(path) as f:
            full = f"{PACKAGE}.{as_name}"
            code.append((full, compile(f.read(), f"{OWN_FILES}{as_name}>", "exec", dont_inherit=True)))
    loader = compile(_LOADER, f"{OWN_FILES}boot>", "exec", dont_inherit=True)
    return marshal.dumps((loader, {"PACKAGE": PACKAGE, "MODULES": code, "FD": SOCKET_FD}))


_CODE = _own_code()  # at import: in the warm worker, before any task
_user_env.installed()  # the host's installed packages, listed once per warm worker (the venv links them)


class SolutionError(Exception):
    """The solution's process failed a request (it died, hung, or answered garbage)."""


class SolutionCrashed(SolutionError):
    pass


class SolutionTimeout(SolutionError):
    pass


class SolutionRaised(BaseException):
    """The solution raised something the tests must not receive as such (an interrupt: pytest
    would end the whole run on it). A BaseException, as the interrupt was: a test's
    `except Exception` or `pytest.raises(Exception)` does not take it for an ordinary error."""


class SolutionImportError(ImportError):
    """`import solution` failed in the solution's process; the message says how."""


# -- the solution's process, as the runner drives it -----------------------------------------------
class SolutionProcess:
    """Spawned on first use; `deadline` (monotonic) bounds every wait for it."""

    def __init__(self, setup: dict, python: str) -> None:
        self.setup = setup
        self.python = python
        self.venv: str | None = None  # the work dir's .venv python (made on the first start)
        self.codec = RunnerCodec(self, setup["fixtures"])
        self.peer: Peer | None = None
        self.pid = 0
        self.deadline = time.monotonic() + 3600
        self.restarts = -1
        self.module_hids: dict[str, int] = {}  # module name -> its handle in the current process
        self.import_failure: BaseException | None = None
        self.started = 0  # how many processes this run started
        self.on_start = None
        self.protected: frozenset = frozenset()  # names the tests bind themselves (star imports leave them)
        self.timings = {"solution_start": 0.0, "solution_import": 0.0, "rpc": 0.0, "rpc_calls": 0}

    # lifecycle ---------------------------------------------------------------------------------
    def ensure(self) -> None:
        if self.peer is not None:
            return
        began = time.perf_counter()
        if self.restarts >= MAX_RESTARTS:
            raise SolutionCrashed(f"the solution's process was replaced {MAX_RESTARTS} times already; giving up")
        self.restarts += 1
        self.codec.new_generation()
        work = self.setup["workdir"]
        if self.venv is None:
            self.venv = _user_env.make_venv(work, self.python)
        env = _user_env.environment(work)
        if os.environ.get("RLHUB_DEBUG_SOLUTION_PROCESS"):
            env["RLHUB_DEBUG_SOLUTION_PROCESS"] = os.environ["RLHUB_DEBUG_SOLUTION_PROCESS"]
        ours, theirs = _socketpair()
        argv = [self.venv, "-c", _BOOT.format(n=len(_CODE))]
        try:
            # vfork + exec: a fresh interpreter, none of this process's memory; setsid: its own group
            self.pid = os.posix_spawn(self.venv, argv, env, setsid=True, file_actions=[(os.POSIX_SPAWN_DUP2, theirs, SOCKET_FD)])
        finally:
            os.close(theirs)
        view = memoryview(_CODE)  # fits the socket's buffer: never blocks for long
        while view:
            view = view[os.write(ours, view):]
        self.started += 1
        if self.on_start is not None:
            self.on_start()
        peer = RunnerPeer(Wire(ours), self.codec, {"callback": self._callback, "stdin": _read_stdin},
                          deadline=None, clock=time.monotonic)
        self.peer = peer
        peer.wire.send(Codec().dumps(self.setup))
        self._wait(lambda: Codec().loads(peer.wire.recv(self._deadline(STARTUP_S), time.monotonic)), "starting")
        self.timings["solution_start"] += time.perf_counter() - began

    def kill(self) -> None:
        if self.pid:
            for target in (-self.pid, self.pid):  # its group (what it started), then itself
                try:
                    os.kill(target, signal.SIGKILL)
                except OSError:
                    pass
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
        if self.peer is not None:
            os.close(self.peer.wire.fd)
        self.peer, self.pid = None, 0
        self.module_hids.clear()

    def _exit_status(self) -> str:
        if not self.pid:
            return "is gone"
        for _ in range(100):  # it closed its socket: it is exiting, give it a moment
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.pid = 0
                if os.WIFSIGNALED(status):
                    return f"was killed by signal {os.WTERMSIG(status)}"
                return f"exited with code {os.WEXITSTATUS(status)}"
            time.sleep(0.001)
        return "closed its connection"

    def _deadline(self, at_most: float | None = None) -> float:
        return self.deadline if at_most is None else min(self.deadline, time.monotonic() + at_most)

    def _wait(self, fn, what: str):
        try:
            return fn()
        except WireTimeout:
            self.kill()
            raise SolutionTimeout(f"the solution did not finish {what} in time (the test's time limit)") from None
        except WireClosed:
            why = self._exit_status()
            self.kill()
            raise SolutionCrashed(f"the solution's process {why} while {what}") from None
        except CodecError as exc:
            self.kill()
            raise SolutionCrashed(f"the solution's process sent something unreadable while {what}: {exc}") from None
        except BaseException as exc:
            if not getattr(exc, "__rlhub_remote__", False) and not isinstance(exc, TypeError):
                self.kill()  # interrupted mid-call (the test's timer): the conversation is out of step
            raise

    # requests ----------------------------------------------------------------------------------
    def request(self, op: str, *args, what: str = ""):
        self.ensure()
        peer = self.peer
        peer.deadline = self.deadline
        began = time.perf_counter()
        try:
            return self._wait(lambda: peer.request(op, *args), what or f"answering {op}")
        finally:
            self.timings["solution_import" if op == "import" else "rpc"] += time.perf_counter() - began
            self.timings["rpc_calls"] += op != "import"

    def module(self, name: str | None = None):
        """The handle of the solution's module (or, for a package, of its module `name`), importing
        it (once per process)."""
        name = name or self.setup["module"]
        if self.import_failure is not None:
            raise self.import_failure
        if self.peer is None or name not in self.module_hids:
            try:
                handle = self.request("import", *([name] if self.setup.get("package") else []), what=f"importing {name}")
            except SolutionError as exc:
                raise self._failed_import(f"the solution could not be imported: {exc}")
            except SystemExit as exc:
                raise self._failed_import(f"the solution exited during import (SystemExit: {exc.code!r})")
            except (KeyboardInterrupt, SolutionRaised) as exc:
                raise self._failed_import(f"the solution raised {exc} during import")
            except BaseException as exc:
                self.import_failure = exc
                raise
            self.module_hids[name] = handle._SolutionObject__hid
        return self.module_hids[name]

    def on_module(self, op: str, *args, name: str | None = None):
        """`op` on the solution module itself, or the package's module `name` (getattr, setattr, delattr, dir)."""
        return self.request(op, _Yours(self.module(name)), *args)

    def owns(self, module: str) -> bool:
        """Is `module` the solution's (its module, or a module of its package)?"""
        top = self.setup["module"]
        return module == top or (bool(self.setup.get("package")) and module.startswith(top + "."))

    def _failed_import(self, message: str) -> BaseException:
        self.import_failure = SolutionImportError(message)
        return self.import_failure

    def _callback(self, hid, args, kwargs):
        fn = self.codec.exports.get(hid) if type(hid) is int else None
        if fn is None or type(args) is not list or type(kwargs) is not dict:
            raise TypeError("the solution called something the tests did not hand it")
        return fn(*args, **kwargs)


def _read_stdin(size):
    data = sys.stdin.read(size if type(size) is int and size > 0 else 1 << 16)
    return data if isinstance(data, str) else data.decode("utf-8", "replace")


def _socketpair() -> tuple[int, int]:
    import socket

    a, b = socket.socketpair()
    ours, theirs = a.detach(), b.detach()
    os.set_inheritable(theirs, True)
    return ours, theirs


class RunnerPeer(Peer):
    def on_output(self, output) -> None:
        """What the solution printed: into this process's stdout/stderr, where capsys sees it."""
        if type(output) is list and len(output) == 2:
            for text, stream in zip(output, (sys.stdout, sys.stderr)):
                if type(text) is str and text:
                    try:
                        stream.write(text)
                    except Exception:
                        pass


# -- the codec on this side ------------------------------------------------------------------------
class RunnerCodec(Codec):
    def __init__(self, process: SolutionProcess, fixture_modules) -> None:
        super().__init__(fixture_modules)
        self.process = process
        self.hidden_modules = {"test_hidden", "__main__", process.setup["module"]}
        self.mirrors: dict[tuple, type] = {}  # (kind, solution class handle) -> the class made here for it

    def new_generation(self) -> None:
        self.generation += 1
        self.proxies.clear()
        self.exports.clear()
        self._export_ids.clear()
        self.mirrors.clear()

    def peer_id(self, obj):
        t = type(obj)
        if isinstance(obj, SolutionObject):
            return obj._SolutionObject__hid_now()
        if t is _Yours:
            return obj.hid
        if t is SolutionModule:
            return self.process.module(_MODULE_DICT.__get__(obj)["__name__"])
        if isinstance(obj, SolutionSubclassBase):
            return _backing(obj)._SolutionObject__hid_now()
        if isinstance(obj, type) and "__rlhub_hid__" in obj.__dict__:
            if obj.__rlhub_gen__ != self.generation:
                raise CodecError(f"{obj.__name__} belonged to a solution process that has ended")
            return obj.__rlhub_hid__
        return None

    def named(self, obj):
        """Test-side functions, types and modules the solution can import itself (builtins,
        standard library, installed packages, the task's modules) cross by name."""
        if isinstance(obj, types.ModuleType):
            module, qualname = obj.__name__, ""
        else:
            module = getattr(obj, "__module__", None)
            if module is None and hasattr(obj, "__objclass__"):  # str.lower and friends
                module = getattr(obj.__objclass__, "__module__", None)
            qualname = getattr(obj, "__qualname__", None)
        if (type(module) is not str or type(qualname) is not str or module in self.hidden_modules
                or self.process.owns(module) or "<" in qualname):
            return None
        top = module.split(".")[0]
        if not (top in _STDLIB or module in self.fixture_modules or _installed(top)):
            return None
        try:
            return [module, qualname] if lookup(module, qualname) is obj else None
        except LookupError:
            return None

    def _default(self, obj):
        try:
            return super()._default(obj)
        except CodecError:
            raise
        except Exception as exc:
            raise CodecError(f"cannot send {type(obj).__name__} to the solution: {exc}") from None

    def export(self, obj) -> int:
        if not callable(obj):
            raise CodecError(f"an object of type {type(obj).__qualname__} cannot be passed to the solution "
                             "(only plain values, the solution's own objects and callables cross)")
        return super().export(obj)

    def describe(self, obj) -> list:
        return [str(getattr(obj, "__name__", type(obj).__name__))]

    def resolve_ref(self, module: str, qualname: str):
        """What the solution names resolves only against what this process already holds, and
        only to a module, an exception class or a builtin type of the standard library or the
        task's modules: nothing is imported, nothing else is handed to the tests."""
        if not (stdlib_module(module) or module in self.fixture_modules):
            raise CodecError(f"{module}.{qualname} may not cross by name")
        obj = super().resolve_ref(module, qualname)
        if isinstance(obj, types.ModuleType) or (isinstance(obj, type) and (
                issubclass(obj, BaseException) or (module == "builtins" and qualname.isidentifier()))):
            return obj
        raise CodecError(f"{module}.{qualname} may not cross by name")

    def stand_in(self, hid: int, info: list):
        key = hid
        known = self.proxies.get(key)
        if known is not None:
            return known
        kind = info[0] if info and type(info[0]) is str else "object"
        name = info[1] if len(info) > 1 and type(info[1]) is str else "?"
        if kind == "exc_class":
            bases = info[2] if len(info) > 2 and type(info[2]) is list else []
            made = _mirror_exception(name, bases, hid, self.generation)
        elif kind == "dataclass" and len(info) == 5:
            made = self._dataclass_class(info)._make(self.process, hid, self.generation, "object", name)
        else:
            made = SolutionObject._make(self.process, hid, self.generation, kind, name)
        self.proxies[key] = made
        return made

    def _dataclass_class(self, info: list) -> type:
        """The stand-ins' class for instances of one of the solution's dataclasses: a handle whose
        type carries the dataclass's fields, so `dataclasses.asdict`, `fields`, `replace` and
        `is_dataclass` work on it (each field read is a request)."""
        _, name, cls, fields, params = info
        key = ("dataclass", id(cls))
        made = self.mirrors.get(key)
        if made is None:
            made = _dataclass_stand_in(name, cls, fields, params)
            self.mirrors[key] = made
        return made

    def rebuild_exception(self, cls, args, text, tb, attrs):
        if issubclass(cls, (KeyboardInterrupt, GeneratorExit)):
            # an interrupt would end the test run itself (pytest stops on one): never raised here as such
            exc = SolutionRaised(f"{cls.__name__}: {text}")
        elif "__rlhub_hid__" in cls.__dict__:
            exc = cls.__new__(cls)
            exc.args = tuple(args)
            exc._rlhub_text = text if type(text) is str else ""
            _set_exception_attributes(exc, attrs)
        else:
            exc = super().rebuild_exception(cls, args, text, tb, attrs)
        exc.__rlhub_remote__ = True
        if type(tb) is str and tb:
            exc.add_note(tb)
        return exc

    def rebuild_namedtuple(self, cls, module, qualname, fields, values):
        if isinstance(cls, SolutionObject):  # the solution's own namedtuple class: a copy of it made here
            cls = self._mirror("namedtuple", cls, lambda: _mirror_namedtuple(qualname, fields, cls, self))
        return super().rebuild_namedtuple(cls, module, qualname, fields, values)

    def rebuild_enum(self, cls, module, qualname, shape, value):
        if isinstance(cls, SolutionObject):
            cls = self._mirror("enum", cls, lambda: _mirror_enum(qualname, shape, cls, self))
        return super().rebuild_enum(cls, module, qualname, shape, value)

    def _mirror(self, kind: str, handle, make):
        key = (kind, handle._SolutionObject__hid)
        made = self.mirrors.get(key)
        if made is None:
            made = self.mirrors[key] = make()
        return made


def _installed(top: str) -> bool:
    module = sys.modules.get(top)
    path = getattr(module, "__file__", None) or ""
    return "site-packages" in path or "dist-packages" in path


def _mirror_str(self) -> str:
    return self.__dict__.get("_rlhub_text", "")


def _set_exception_attributes(exc, attrs) -> None:
    from .codec import _set_attributes

    _set_attributes(exc, attrs if type(attrs) is dict else {})


def _mirror_exception(name: str, bases: list, hid: int, generation: int) -> type:
    """A real exception class standing in for one of the model's: same name, exception bases
    mirrored (an interrupt's as a plain exception: see rebuild_exception), no code of the model's."""
    real = tuple(b for b in bases if isinstance(b, type) and issubclass(b, BaseException)
                 and not issubclass(b, (KeyboardInterrupt, GeneratorExit))) or (Exception,)
    namespace = {"__module__": "solution", "__qualname__": name, "__str__": _mirror_str,
                 "__rlhub_hid__": hid, "__rlhub_gen__": generation}
    short = name.rsplit(".", 1)[-1]
    for attempt in (real, real[:1], (Exception,)):
        try:
            return type(short, attempt, dict(namespace))
        except TypeError:  # e.g. an instance lay-out conflict between two builtin bases
            continue
    raise CodecError(f"cannot mirror exception class {name}")


def _remote_attribute(self, name: str):
    """What a copy made here lacks (a method or property of the solution's class): asked of the
    solution's own value, rebuilt there from this copy. Only public names: the protocols the
    copy implements itself (equality, hashing, iteration, fields) stay the copy's own."""
    cls = type(self)
    codec = cls.__dict__.get("__rlhub_codec__")
    if name.startswith("_") or codec is None or cls.__dict__.get("__rlhub_gen__") != codec.generation:
        raise AttributeError(f"{cls.__name__!r} object has no attribute {name!r}")
    return codec.process.request("getattr", self, name)


def _mirror_namedtuple(qualname: str, fields: tuple, handle, codec) -> type:
    import collections

    name = qualname.rsplit(".", 1)[-1]
    cls = collections.namedtuple(name if name.isidentifier() else "namedtuple", fields, rename=True, module="solution")
    cls.__qualname__ = qualname
    cls.__getattr__ = _remote_attribute
    cls.__rlhub_hid__, cls.__rlhub_gen__, cls.__rlhub_codec__ = handle._SolutionObject__hid, codec.generation, codec
    return cls


def _mirror_enum(qualname: str, shape: list, handle, codec) -> type:
    from .codec import plain_enum

    cls = plain_enum(f"{qualname}#{handle._SolutionObject__hid}.{codec.generation}", shape)  # one per class
    name = qualname.rsplit(".", 1)[-1]
    for attr, value in (("__name__", name), ("__qualname__", qualname), ("__module__", "solution"),
                        ("__getattr__", _remote_attribute), ("__rlhub_hid__", handle._SolutionObject__hid),
                        ("__rlhub_gen__", codec.generation), ("__rlhub_codec__", codec)):
        type.__setattr__(cls, attr, value)
    return cls


def _dataclass_stand_in(name: str, cls, fields, params) -> type:
    import dataclasses
    import typing

    try:
        eq, order, frozen = (bool(p) for p in params)
        shadow = dataclasses.make_dataclass(
            name.rsplit(".", 1)[-1] if name.rsplit(".", 1)[-1].isidentifier() else "dataclass",
            [(str(f), typing.Any, dataclasses.field(init=bool(i), repr=bool(r), compare=bool(c))) for f, i, r, c in fields],
            eq=eq, order=order, frozen=frozen)
    except Exception:  # field names no dataclass here can have: a plain handle
        return SolutionObject
    namespace = {"__slots__": (), "__module__": "solution", "__qualname__": name, "__rlhub_class__": cls,
                 "__dataclass_fields__": shadow.__dataclass_fields__, "__dataclass_params__": shadow.__dataclass_params__,
                 "__match_args__": tuple(f for f, i, _, _ in fields if i), "__new__": _dataclass_new}
    return type(shadow.__name__, (SolutionObject,), namespace)


def _dataclass_new(cls, *args, **kwargs):
    """`dataclasses.replace(obj, ...)` calls `obj.__class__(...)`: a new instance of the solution's class."""
    return cls.__rlhub_class__(*args, **kwargs)


# -- stand-ins -------------------------------------------------------------------------------------
def _plain(value, t, what):
    if type(value) is not t:
        raise TypeError(f"the solution's {what} returned a {type(value).__name__}, not {t.__name__}")
    return value


class SolutionObject:
    """An object that lives in the solution's process."""

    __slots__ = ("__process", "__hid", "__gen", "__kind", "__name", "__weakref__")

    @classmethod
    def _make(cls, process, hid, gen, kind, name):
        self = object.__new__(cls)  # never cls.__new__: a dataclass's stand-in class makes a new remote instance
        for slot, value in (("__process", process), ("__hid", hid), ("__gen", gen), ("__kind", kind), ("__name", name)):
            object.__setattr__(self, "_SolutionObject" + slot, value)
        return self

    def __hid_now(self) -> int:
        if self.__gen != self.__process.codec.generation or self.__process.peer is None:
            raise SolutionCrashed(f"this {self.__name} belonged to a solution process that has ended")
        return self.__hid

    def __req(self, op, *args):
        self.__hid_now()
        return self.__process.request(op, *args)

    def __op(self, name, *args):
        return self.__req("op", name, self, *args)

    # attributes and calls
    def __getattr__(self, name):
        if name.startswith("_SolutionObject__"):
            raise AttributeError(name)
        return self.__req("getattr", self, name)

    def __setattr__(self, name, value):
        self.__req("setattr", self, name, value)

    def __delattr__(self, name):
        self.__req("delattr", self, name)

    def __call__(self, *args, **kwargs):
        reply = self.__req("call", self, list(args), kwargs)
        return _returned(reply, args, kwargs)

    def __dir__(self):
        return list(self.__req("dir", self))

    # text
    def __repr__(self):
        try:
            text = self.__op("repr")
        except Exception:
            text = None
        return text if type(text) is str else f"<solution {self.__kind} {self.__name}>"

    def __str__(self):
        return _plain(self.__op("str"), str, "__str__")

    def __format__(self, spec):
        return _plain(self.__op("format", spec), str, "__format__")

    # containers and iteration
    def __len__(self):
        return _plain(self.__op("len"), int, "__len__")

    def __iter__(self):
        return self.__op("iter")

    def __next__(self):
        return self.__op("next")

    def __reversed__(self):
        return self.__op("reversed")

    def __getitem__(self, key):
        return self.__op("getitem", key)

    def __setitem__(self, key, value):
        self.__op("setitem", key, value)

    def __delitem__(self, key):
        self.__op("delitem", key)

    def __contains__(self, item):
        return _plain(self.__op("contains", item), bool, "__contains__")

    def __bool__(self):
        return _plain(self.__op("bool"), bool, "__bool__")

    def __hash__(self):
        return hash((self.__gen, self.__hid))

    # numbers
    def __int__(self):
        return _plain(self.__op("int"), int, "__int__")

    def __float__(self):
        return _plain(self.__op("float"), float, "__float__")

    def __index__(self):
        return _plain(self.__op("index"), int, "__index__")

    def __complex__(self):
        return _plain(self.__op("complex"), complex, "__complex__")

    def __round__(self, *args):
        return self.__op("round", *args)

    def __neg__(self):
        return self.__op("neg")

    def __pos__(self):
        return self.__op("pos")

    def __abs__(self):
        return self.__op("abs")

    def __invert__(self):
        return self.__op("invert")

    # context managers, classes, copies
    def __enter__(self):
        return self.__op("enter")

    def __exit__(self, exc_type, exc, tb):
        try:
            return self.__op("exit", exc_type, exc, None)
        except TypeError:  # a test-side exception that cannot cross: the model sees none
            return self.__op("exit", None, None, None)

    def __instancecheck__(self, instance):
        try:
            return _plain(self.__req("op", "isinstance", instance, self), bool, "isinstance")
        except TypeError:
            return False

    def __subclasscheck__(self, subclass):
        try:
            return _plain(self.__req("op", "issubclass", subclass, self), bool, "issubclass")
        except TypeError:
            return False

    def __copy__(self):
        return _returned(self.__req("call", _COPY, [self], {}), [self], {})

    def __deepcopy__(self, memo):
        return _returned(self.__req("call", _DEEPCOPY, [self], {}), [self], {})

    def __reduce_ex__(self, protocol):
        raise TypeError(f"the solution's {self.__name} cannot be pickled in the tests")

    def __mro_entries__(self, bases):
        """`class Mine(solution.Base)` in the tests: see SolutionSubclassBase."""
        if self.__kind != "class":
            raise TypeError(f"the tests cannot subclass the solution's {self.__kind} {self.__name}")
        return (_subclass_base(self, self.__process),)


def _between_solution_objects(name):
    """`self OP other` is the model's own answer only when both are the model's objects."""

    def method(self, other):
        if not isinstance(other, SolutionObject):
            return NotImplemented
        result = self._SolutionObject__op(name, other)
        if name in ("eq", "ne", "lt", "le", "gt", "ge"):
            return result if type(result) is bool else NotImplemented
        return result

    def reflected(self, other):
        if not isinstance(other, SolutionObject):
            return NotImplemented
        return other._SolutionObject__op(name, self)

    return method, reflected


for _name in ("eq", "ne", "lt", "le", "gt", "ge", "add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
              "matmul", "and", "or", "xor", "lshift", "rshift", "divmod"):
    _method, _reflected = _between_solution_objects(_name)
    setattr(SolutionObject, f"__{_name}__", _method)
    if _name not in ("eq", "ne", "lt", "le", "gt", "ge"):
        setattr(SolutionObject, f"__r{_name}__", _reflected)
del _name, _method, _reflected


import copy as _copy_module

_COPY, _DEEPCOPY = _copy_module.copy, _copy_module.deepcopy


def _returned(reply, args, kwargs):
    """The result of a call, after syncing the containers the solution changed in place."""
    if type(reply) is not list or len(reply) != 2 or type(reply[1]) is not dict:
        raise SolutionCrashed("the solution's process sent a malformed answer to a call")
    result, changed = reply
    for key, new in changed.items():
        old = args[key] if type(key) is int and 0 <= key < len(args) else kwargs.get(key) if type(key) is str else None
        if old is not None and type(old) is type(new):
            _sync(old, new)
    return result


def _sync(old, new) -> None:
    """Make `old` hold what `new` holds, keeping nested containers of the same type (the tests
    may hold references to them)."""
    if type(old) is list:
        merged = [_kept(o, n) for o, n in zip(old, new)] + new[len(old):]
        old[:] = merged
    elif type(old) is dict:
        for key in [k for k in old if k not in new]:
            del old[key]
        for key, value in new.items():
            old[key] = _kept(old[key], value) if key in old else value
    elif type(old) in (set, bytearray):
        old.clear()
        old.update(new) if type(old) is set else old.extend(new)


def _kept(old, new):
    if type(old) is type(new) and type(old) in (list, dict, set, bytearray):
        _sync(old, new)
        return old
    return new


# -- test classes that subclass the solution's -------------------------------------------------
class SolutionSubclassBase:
    """The base the tests' class gets for `class Mine(solution.Base)`.

    Each instance is backed by an instance made in the solution's process, of a subclass of
    `Base` whose methods named like the test class's own call back into the tests: the
    solution's methods calling `self.hook()` reach the test's `hook`, as they would in one
    process. What the test class does not define is the backing instance's (a request);
    `super().method()` is `Base.method` on the backing instance. Attributes the test code
    sets go to the backing instance where they can cross, else stay on the test's object.
    """

    __rlhub_class__ = None    # the SolutionObject of `Base`
    __rlhub_process__ = None

    def __new__(cls, *args, **kwargs):
        self = object.__new__(cls)
        base = cls.__rlhub_base__
        overrides = {}
        for klass in cls.__mro__:
            if klass is base:
                break
            for name, value in vars(klass).items():
                if callable(value) and not name.startswith("__") and name not in overrides:
                    overrides[name] = getattr(self, name)  # the test's bound method: a callback
        backing = cls.__rlhub_process__.request("new", cls.__rlhub_class__, cls.__name__, overrides, list(args), kwargs)
        object.__setattr__(self, "_rlhub_backing", backing)
        return self

    def __init__(self, *args, **kwargs):
        self.__rlhub_process__.request("init", _backing(self), list(args), kwargs)

    def __getattr__(self, name):
        if name.startswith("_rlhub") or name.startswith("__"):
            raise AttributeError(name)
        return getattr(_backing(self), name)

    def __setattr__(self, name, value):
        try:
            setattr(_backing(self), name, value)
        except TypeError as exc:
            if "cannot be passed to the solution" not in str(exc):
                raise
            object.__setattr__(self, name, value)  # a test-side object: it stays on the test's instance

    def __repr__(self):
        return repr(_backing(self))

    def __str__(self):
        return str(_backing(self))

    def __len__(self):
        return len(_backing(self))

    def __iter__(self):
        return iter(_backing(self))

    def __getitem__(self, key):
        return _backing(self)[key]

    def __setitem__(self, key, value):
        _backing(self)[key] = value

    def __contains__(self, item):
        return item in _backing(self)

    def __eq__(self, other):
        return _backing(self) == (_backing(other) if isinstance(other, SolutionSubclassBase) else other)

    def __hash__(self):
        return hash(_backing(self))


def _backing(obj: SolutionSubclassBase) -> SolutionObject:
    return object.__getattribute__(obj, "_rlhub_backing")


def _subclass_base(handle: SolutionObject, process: SolutionProcess) -> type:
    """One base class per solution class: its public methods as stubs calling `Base.method` on
    the backing instance (so `super().method()` in the test's class works)."""
    codec = process.codec
    key = ("subclass", handle._SolutionObject__hid)
    made = codec.mirrors.get(key)
    if made is not None:
        return made
    name = str(handle._SolutionObject__name)
    namespace = {"__module__": "solution", "__qualname__": name, "__rlhub_class__": handle, "__rlhub_process__": process}
    for method in process.request("methods", handle, what=f"listing {name}'s methods"):
        if type(method) is str and method.isidentifier() and not method.startswith("_"):
            namespace[method] = _base_method(handle, method)
    made = type(name.rsplit(".", 1)[-1], (SolutionSubclassBase,), namespace)
    made.__rlhub_base__ = made
    codec.mirrors[key] = made
    return made


def _base_method(handle: SolutionObject, name: str):
    def method(self, *args, **kwargs):
        return getattr(handle, name)(_backing(self), *args, **kwargs)

    method.__name__ = name
    return method


_MODULE_DICT = types.ModuleType.__dict__["__dict__"]  # the stand-in's own (real) namespace


class SolutionModule(types.ModuleType):
    """`import solution` in the tests: every attribute but the module's own dunders is the
    solution module's, read (and written, for monkeypatch) in its process each time. Its
    `__dict__` (vars(), monkeypatch's undo record) is a view of the remote namespace."""

    @property
    def __dict__(self):
        return _Namespace(self)

    def __getattr__(self, name):
        own = _MODULE_DICT.__get__(self)
        process, module = own["__rlhub_process__"], own["__name__"]
        if name == "__all__":  # `from solution import *`: its __all__, else its public names
            try:
                names = process.on_module("getattr", "__all__", name=module)
            except AttributeError:
                names = [n for n in process.on_module("dir", name=module) if type(n) is str and not n.startswith("_")]
            return _star_names(names, process.protected)
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return process.on_module("getattr", name, name=module)

    def __setattr__(self, name, value):
        if (name.startswith("__") and name.endswith("__")) or type(value) is SolutionModule:
            # dunders, and a package's submodule bound by the import system: the stand-in's own
            return super().__setattr__(name, value)
        own = _MODULE_DICT.__get__(self)
        own["__rlhub_process__"].on_module("setattr", name, value, name=own["__name__"])

    def __delattr__(self, name):
        own = _MODULE_DICT.__get__(self)
        if (name.startswith("__") and name.endswith("__")) or type(own.get(name)) is SolutionModule:
            return super().__delattr__(name)
        own["__rlhub_process__"].on_module("delattr", name, name=own["__name__"])

    def __dir__(self):
        own = _MODULE_DICT.__get__(self)
        return own["__rlhub_process__"].on_module("dir", name=own["__name__"])


def _star_names(names, protected: frozenset) -> list[str]:
    """What `from solution import *` binds in the tests: never a builtin's name, a dunder, or a
    name the tests bind themselves (their `pytest`, their helpers), wherever the import is."""
    import builtins

    if not isinstance(names, (list, tuple)):
        raise TypeError("the solution's __all__ is not a list of names")
    return [n for n in names if type(n) is str and n.isidentifier() and not n.startswith("__")
            and not hasattr(builtins, n) and n not in protected]


class _Namespace(collections.abc.Mapping):
    def __init__(self, module: SolutionModule) -> None:
        self.module, self.own = module, _MODULE_DICT.__get__(module)

    def __getitem__(self, name):
        if type(name) is str and name.startswith("__") and name.endswith("__"):
            return self.own[name]
        try:
            return getattr(self.module, name)
        except AttributeError:
            raise KeyError(name) from None

    def __iter__(self):
        return iter([*self.own, *(n for n in dir(self.module) if not (n.startswith("__") and n.endswith("__")))])

    def __len__(self):
        return sum(1 for _ in self)


class _Yours:
    """A handle of the solution's, by id (the solution module's own)."""

    __slots__ = ("hid",)

    def __init__(self, hid: int) -> None:
        self.hid = hid


class StandInLoader(importlib.abc.Loader):
    def __init__(self, process: SolutionProcess) -> None:
        self.process = process

    def create_module(self, spec):
        module = SolutionModule(spec.name)
        _MODULE_DICT.__get__(module)["__rlhub_process__"] = self.process
        return module

    def exec_module(self, module) -> None:
        name = _MODULE_DICT.__get__(module)["__name__"]
        setup = self.process.setup
        if name == setup["module"]:
            module.__file__ = setup["path"]
        else:  # a module of the package: where it would be in the work dir
            module.__file__ = os.path.join(setup["workdir"], *name.split(".")) + ".py"
        self.process.module(name)


def not_dumpable() -> None:
    """Other processes of our uid (the solution's) may then not read our memory or our fds."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE
    except (OSError, AttributeError):
        pass


def bind(namespace: dict, module, names) -> None:
    """Benchmark semantics for check programs: the tests call the solution's task names (the
    entry point, the names the prompt gives it) as globals. Only those: nothing else of the
    solution's enters the tests' namespace (its helpers, its imports, a `math` or a
    `__builtins__` of its own), whatever its process answers."""
    names = [n for n in names if type(n) is str and n.isidentifier() and not n.startswith("__")]
    if not names:
        return
    own = _MODULE_DICT.__get__(module)
    if isinstance(module, NullModule):
        namespace.update((n, NULL) for n in names)
        return
    process = own["__rlhub_process__"]
    process.module(own["__name__"])
    found = process.request("namespace", names, what="reading the solution's task names")
    if type(found) is dict:
        namespace.update((n, found[n]) for n in names if n in found)


class _Null:
    """Every name of the solution while the tests load without it (a null solution: the
    verifier's test of whether a load failure was the solution's doing). Anything goes,
    nothing happens."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self

    def __call__(self, *args, **kwargs):
        return self

    def __getitem__(self, key):
        return self

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def __bool__(self):
        return False

    def __index__(self):
        return 0

    __int__ = __index__

    def __float__(self):
        return 0.0

    def __repr__(self):
        return "<no solution>"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __mro_entries__(self, bases):
        return (object,)


for _op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift", "matmul"):
    setattr(_Null, f"__{_op}__", lambda self, other: self)
    setattr(_Null, f"__r{_op}__", lambda self, other: self)
del _op
NULL = _Null()


class NullModule(types.ModuleType):
    """`import solution` while the tests load without the solution."""

    def __getattr__(self, name):
        if name == "__all__":
            return []
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return NULL


class NullLoader(importlib.abc.Loader):
    def create_module(self, spec):
        return NullModule(spec.name)

    def exec_module(self, module) -> None:
        pass
