"""The solution's own process (sandbox side, untrusted): imports the model's module and answers
the test runner's requests about it. Started by the runner with a fresh exec of Python, so none
of the runner's memory (the hidden tests, their expected values) is in this process at all.

    .venv/bin/python -c "import marshal, os ...; exec(...)"     (stand_in.py: _BOOT)

It is started as a user's Python: the work dir's venv, `site` loaded, no interpreter flags, a
user's environment (user_env.py), so what the model's code can ask the process (sys.flags,
builtins, sys.path, sys.prefix, os.environ) answers as a user's process does. Its own code arrives
compiled (marshal, from the runner: the trusted direction) rather than imported, under a package
name no one installs (`_bridge`), and leaves sys.modules once loaded: nothing of rlhub's is there by
name, on sys.path or importable.

Before any of the model's code runs it closes every fd but its socket (it never holds the
runner's result pipe), points stdin at /dev/null, and routes its prints into a capture that
travels back with each answer (so `capsys` in the tests sees them). Only msgpack values cross
(codec.py): the model's objects stay here, the runner gets handles to them.

Requests (runner -> here): import, namespace, getattr, setattr, delattr, call, op, dir, main.
Requests (here -> runner): callback (a test-side callable), stdin (read the tests' stdin).
"""

from __future__ import annotations

# The import machinery's own modules (always loaded): importlib.util would cost contextlib & co.
import _frozen_importlib as _bootstrap
import _frozen_importlib_external as _external
import io
import os
import sys

from .codec import Codec, CodecError, lookup, stdlib_module
from .rpc import Peer, Wire, WireClosed

OUTPUT_CAP = 1 << 20  # characters of stdout/stderr per answer; the rest is dropped, marked as cut
_OPS = {
    # name: (special method looked up on the type, arity) -- the runner's stand-ins forward these
    "len": len, "iter": iter, "next": next, "bool": bool, "repr": repr, "str": str, "hash": hash,
    "int": int, "float": float, "index": lambda o: o.__index__(), "complex": complex, "abs": abs,
    "neg": lambda o: -o, "pos": lambda o: +o, "invert": lambda o: ~o,
    "getitem": lambda o, k: o[k], "delitem": lambda o, k: o.__delitem__(k),
    "setitem": lambda o, k, v: o.__setitem__(k, v), "contains": lambda o, x: x in o,
    "format": format, "round": round, "reversed": reversed,
    "enter": lambda o: o.__enter__(), "exit": lambda o, *a: o.__exit__(*a),
    "isinstance": isinstance, "issubclass": issubclass,
}
_BINARY = ("eq", "ne", "lt", "le", "gt", "ge", "add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
           "matmul", "and", "or", "xor", "lshift", "rshift", "divmod")


def _capture() -> io.TextIOWrapper:
    """sys.stdout/sys.stderr here: a plain text stream whose text (and .buffer) is kept in memory."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace", write_through=True)


def _drain(stream: io.TextIOWrapper, raw: io.BytesIO) -> str:
    """What was written to `stream` since the last drain, at most OUTPUT_CAP characters."""
    try:
        stream.flush()
    except Exception:
        pass
    data = raw.getvalue()
    raw.seek(0)
    raw.truncate()
    text = data.decode("utf-8", "replace")
    if len(text) > OUTPUT_CAP:
        text = text[:OUTPUT_CAP] + f"\n[... {len(text) - OUTPUT_CAP} characters cut ...]\n"
    return text


class _TestsStdin(io.TextIOBase):
    """sys.stdin here reads from the tests' sys.stdin (monkeypatched there, or empty)."""

    def __init__(self, peer) -> None:
        self._peer = peer
        self._pending = ""
        self._eof = False

    def readable(self) -> bool:
        return True

    def _more(self) -> None:
        chunk = self._peer.request("stdin", 1 << 16)
        if not isinstance(chunk, str) or not chunk:
            self._eof = True
        else:
            self._pending += chunk

    def read(self, size: int = -1) -> str:
        while not self._eof and (size is None or size < 0 or len(self._pending) < size):
            self._more()
        if size is None or size < 0:
            size = len(self._pending)
        out, self._pending = self._pending[:size], self._pending[size:]
        return out

    def readline(self, size: int = -1) -> str:
        while not self._eof and "\n" not in self._pending and (size is None or size < 0 or len(self._pending) < size):
            self._more()
        end = self._pending.find("\n") + 1 or len(self._pending)
        if size is not None and size >= 0:
            end = min(end, size)
        out, self._pending = self._pending[:end], self._pending[end:]
        return out


class _Callback:
    """A test-side callable handed to the solution: calling it asks the runner to call it."""

    __slots__ = ("_peer", "_hid", "__name__", "__qualname__")

    def __init__(self, peer, hid: int, name: str) -> None:
        self._peer, self._hid = peer, hid
        self.__name__ = self.__qualname__ = name

    def __call__(self, *args, **kwargs):
        return self._peer.request("callback", self._hid, list(args), kwargs)

    def __repr__(self) -> str:
        return f"<test callable {self.__name__}>"


class SolutionCodec(Codec):
    """Everything of the model's that is not plain data stays here and crosses as a handle."""

    def __init__(self, fixture_modules, solution_file: str) -> None:
        super().__init__(fixture_modules)
        self.peer = None
        self.solution_file = solution_file

    def peer_id(self, obj):
        return obj._hid if type(obj) is _Callback else None

    def named(self, obj):
        """Modules, builtin types and exception classes of the standard library or the task's
        modules cross by name; everything else of the model's stays here (a handle)."""
        t = type(obj)
        if t is type(sys):
            name = obj.__name__
            if type(name) is not str or sys.modules.get(name) is not obj:
                return None
            return [name, ""] if stdlib_module(name) or name in self.fixture_modules else None
        if isinstance(obj, type):
            module, qualname = obj.__module__, obj.__qualname__
            if type(module) is not str or type(qualname) is not str:
                return None
            trusted = module == "builtins" or (issubclass(obj, BaseException) and (
                stdlib_module(module) or module in self.fixture_modules))
            if trusted:
                try:
                    if lookup(module, qualname) is obj:
                        return [module, qualname]
                except LookupError:
                    return None
        return None

    def describe(self, obj) -> list:
        """[kind, name, ...] so the runner can make the right stand-in: exception classes get
        a real class there, with their exception bases, so `pytest.raises` accepts them;
        dataclass instances a stand-in whose class carries the fields (`dataclasses.asdict`)."""
        if isinstance(obj, type):
            name = str(getattr(obj, "__qualname__", "?"))
            if issubclass(obj, BaseException):
                return ["exc_class", name, [b for b in obj.__bases__ if issubclass(b, BaseException)]]
            return ["class", name]
        if type(obj) is type(sys):
            return ["module", str(getattr(obj, "__name__", "?"))]
        cls = type(obj)
        fields = getattr(cls, "__dataclass_fields__", None)
        params = getattr(cls, "__dataclass_params__", None)
        if isinstance(fields, dict) and params is not None:
            try:
                shown = [[str(f.name), bool(f.init), bool(f.repr), bool(f.compare)] for f in fields.values()
                         if getattr(f, "_field_type", None) is getattr(sys.modules.get("dataclasses"), "_FIELD", 0)]
                return ["dataclass", str(cls.__qualname__), cls, shown,
                        [bool(params.eq), bool(params.order), bool(params.frozen)]]
            except Exception:
                pass
        return ["callable" if callable(obj) else "object", cls.__qualname__]

    def exception_class(self, cls, module: str, qualname: str, bases: list):
        """A test-side exception class the solution does not hold: a plain class of that name."""
        if cls is not None and not (isinstance(cls, type) and issubclass(cls, BaseException)):
            cls = _local_exception(qualname)
        return super().exception_class(cls, module, qualname, bases)

    def traceback_text(self, exc: BaseException) -> str:
        import traceback

        frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith(_OWN_FILES)]
        if not frames:
            return ""
        lines = traceback.format_list(frames[-8:])
        return ("Traceback in the solution's process (most recent call last):\n" + "".join(lines))[-3000:]

    def stand_in(self, hid: int, info: list):
        name = info[0] if info and type(info[0]) is str else "callable"
        return _Callback(self.peer, hid, name)


_OWN_FILES = f"<{__package__}."  # our code's file names here (stand_in.OWN_FILES)
_LOCAL_EXCEPTIONS: dict = {}


def _local_exception(qualname: str) -> type:
    cls = _LOCAL_EXCEPTIONS.get(qualname)
    if cls is None:
        name = qualname.rsplit(".", 1)[-1]
        cls = _LOCAL_EXCEPTIONS[qualname] = type(name if name.isidentifier() else "TestError", (Exception,), {})
    return cls


def _override(name: str):
    def method(self, *args, **kwargs):
        return object.__getattribute__(self, "_rlhub_overrides")[name](*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


class _SourceLoader:
    """Loads a task fixture module from its source text (the same text the runner has)."""

    def __init__(self, source: str) -> None:
        self.source = source

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(compile(self.source, module.__spec__.origin, "exec"), module.__dict__)


class _Finder:
    def __init__(self, modules: dict[str, tuple[str, str]]) -> None:
        self.modules = modules  # name -> (path, source)

    def find_spec(self, name, path=None, target=None):
        if name in self.modules:
            origin, source = self.modules[name]
            return _bootstrap.spec_from_loader(name, _SourceLoader(source), origin=origin)
        return None


class Server:
    """The model's module and what the runner may ask of it."""

    def __init__(self, peer: Peer, codec: SolutionCodec, setup: dict) -> None:
        self.peer, self.codec = peer, codec
        self.setup = setup
        self.module = None
        self.import_error: BaseException | None = None
        self._main_code = None
        self._subclasses: dict = {}

    def handlers(self) -> dict:
        return {"import": self.do_import, "namespace": self.namespace, "getattr": getattr, "setattr": setattr,
                "delattr": delattr, "call": self.call, "dir": lambda o: sorted(map(str, dir(o))),
                "op": self.op, "main": self.run_main, "new": self.new, "init": self.init, "methods": self.methods}

    # a test class subclassing one of the solution's (stand_in.SolutionSubclassBase)
    def new(self, base, name: str, overrides: dict, args: list, kwargs: dict):
        """An instance of a subclass of `base`, named like the tests' class, whose methods named in
        `overrides` call the tests' (not initialised: the tests' class calls `init` when it does)."""
        key = (base, name, tuple(sorted(overrides)))
        cls = self._subclasses.get(key)
        if cls is None:
            cls = self._subclasses[key] = type(name if type(name) is str and name.isidentifier() else base.__name__,
                                               (base,), {n: _override(n) for n in overrides})
        # object.__new__ takes no arguments when the class itself defines no __init__ (the tests' does)
        obj = object.__new__(cls) if cls.__new__ is object.__new__ else cls.__new__(cls, *args, **kwargs)
        object.__setattr__(obj, "_rlhub_overrides", overrides)
        return obj

    def init(self, obj, args: list, kwargs: dict) -> None:
        super(type(obj), obj).__init__(*args, **kwargs)  # the class the tests subclassed: its own __init__

    def methods(self, cls) -> list:
        return [n for n in dir(cls) if type(n) is str and not n.startswith("_") and callable(getattr(cls, n, None))]

    def call(self, fn, args: list, kwargs: dict):
        """fn(*args, **kwargs) -> [result, {arg position or name: its new state}]: the lists,
        dicts, sets and bytearrays the tests passed come back changed in place, as they would
        in one process."""
        mutable = {**{i: a for i, a in enumerate(args)}, **kwargs}
        mutable = {k: v for k, v in mutable.items() if type(v) in (list, dict, set, bytearray)}
        before = {k: self.codec.dumps(v) for k, v in mutable.items()}
        result = fn(*args, **kwargs)
        changed = {}
        for key, value in mutable.items():
            try:
                if self.codec.dumps(value) != before[key]:
                    changed[key] = value
            except CodecError:
                pass  # it now holds something that cannot cross: the tests keep what they had
        return [result, changed]

    def do_import(self, name=None):
        """Import the solution (once); its module object stays here, the runner gets a handle.
        A package (setup["package"]): import its module `name` the usual way, from the work dir."""
        if self.setup.get("package"):
            top = self.setup["module"]
            name = top if name is None else name
            if type(name) is not str or not (name == top or name.startswith(top + ".")):
                raise ImportError(f"{name!r} is not a module of {top}")
            _bootstrap._gcd_import(top)  # the package first (as `import a.b` does), then the module
            return _bootstrap._gcd_import(name)
        if self.module is None:
            if self.import_error is not None:
                raise self.import_error
            name, path = self.setup["module"], self.setup["path"]
            spec = _external.spec_from_file_location(name, path)
            module = _bootstrap.module_from_spec(spec)
            sys.modules[name] = module
            try:
                spec.loader.exec_module(module)
            except BaseException as exc:
                sys.modules.pop(name, None)
                self.import_error = exc.with_traceback(exc.__traceback__)
                raise
            self.module = module
        return self.module

    def namespace(self, names: list) -> dict:
        """The module's task names the tests of a check program see (benchmark semantics)."""
        module = self.do_import()
        found = vars(module)
        return {k: found[k] for k in names if type(k) is str and k in found}

    def op(self, name: str, obj, *args):
        if name in _BINARY:
            import operator

            fn = getattr(operator, name if name not in ("and", "or") else name + "_") if name != "divmod" else divmod
            return fn(obj, *args)
        return _OPS[name](obj, *args)

    def run_main(self, stdin: str, argv: list):
        """Run the solution file as __main__ on `stdin` (stdio-style problems, as their own
        harnesses do in-process): [stdout, stderr, exit status]."""
        path = self.setup["path"]
        if self._main_code is None:
            with open(path, "rb") as f:
                self._main_code = compile(f.read(), path, "exec")
        code = self._main_code
        drain = self.peer.take_output
        drain()
        saved = sys.stdin, sys.argv, os.dup(0)
        _put_fd(_memfd_with(stdin.encode()), 0)  # open(0) and os.read(0) see the input too
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        sys.argv = [path, *map(str, argv)]
        status = 0
        try:
            exec(code, {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})
        except SystemExit as exc:
            status = exc.code if type(exc.code) is int else (0 if exc.code is None else 1)
            if exc.code is not None and type(exc.code) is not int:
                err.write(f"{exc.code}\n")
        except BaseException as exc:
            import traceback

            err.write("".join(traceback.format_exception(exc)))
            status = 1
        finally:
            sys.stdin, sys.argv = saved[0], saved[1]
            _put_fd(saved[2], 0)
        return [*(drain() or ["", ""]), status]


def _memfd_with(data: bytes) -> int:
    fd = os.memfd_create("stdin")
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _put_fd(fd: int, target: int) -> None:
    os.dup2(fd, target)
    os.close(fd)


def _close_fds_except(keep: int) -> None:
    os.closerange(3, keep)
    os.closerange(keep + 1, 1 << 20)


def serve(fd: int) -> None:
    """The process's whole life: set up, then answer the runner until it hangs up."""
    _close_fds_except(fd)
    null = os.open(os.devnull, os.O_RDWR)
    for target in (0, 1, 2):
        os.dup2(null, target)
    os.close(null)
    wire = Wire(fd)
    bootstrap = Codec()  # the setup message is plain data
    setup = bootstrap.loads(wire.recv())
    # sys.path stays as this interpreter made it: '' (the work dir) first, the stdlib, the venv
    modules = {name: (os.path.join(setup["workdir"], name.replace(".", "/") + ".py"), src)
               for name, src in setup["fixtures"].items()}
    if modules:
        sys.meta_path.insert(0, _Finder(modules))
    os.chdir(setup["workdir"])
    if not setup.get("package"):
        sys.argv = [setup["path"]]  # a module imported as `python solution.py` would see (a package: `-c`)
    codec = SolutionCodec(setup["fixtures"], setup["path"])
    out, err = _capture(), _capture()
    raws = out.buffer, err.buffer
    sys.stdout, sys.stderr = out, err

    class SolutionPeer(Peer):
        def take_output(self):
            o, e = _drain(out, raws[0]), _drain(err, raws[1])
            return [o, e] if o or e else None

    peer = SolutionPeer(wire, codec, {})
    codec.peer = peer
    sys.stdin = _TestsStdin(peer)
    server = Server(peer, codec, setup)
    peer.handlers = server.handlers()
    wire.send(bootstrap.dumps("ready"))
    try:
        peer.serve_forever()
    except WireClosed:
        pass
    except BaseException:
        if os.environ.get("RLHUB_DEBUG_SOLUTION_PROCESS"):
            import traceback
            traceback.print_exc(file=open(os.environ["RLHUB_DEBUG_SOLUTION_PROCESS"], "w"))
    finally:
        os._exit(0)
