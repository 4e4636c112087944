"""Sandbox side of write-the-tests grading: an audit hook (PEP 578) in the child that runs the
model's tests, which ends the run the moment those tests reach for anything but the module's
behaviour: its file (by any path: the inode is compared), its code objects, frames (the runner's
memory), the garbage collector, process memory, ctypes, tracing, other processes.

Whose act it is: the nearest frame on the stack that is not library code (the standard library,
site-packages, rlhub's own modules). When that frame is the package under test (a mutant's own
code doing its work) or the runner, the event is fine; when it is the model's test file (or code
it compiled), the run ends with a `flagged` line on the report pipe. Audit hooks cannot be removed,
and the report is written before the event's operation proceeds: a test that closes or replaces
the pipe first only turns the run into a crash, which fails the original module as it fails a mutant.
"""

from __future__ import annotations

import json
import os
import sys
import sysconfig

# events that hand over frames, memory, tracing or other processes: flagged whenever the model asked
_ANY = frozenset({
    "sys._current_frames", "sys.settrace", "sys.setprofile", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle", "ctypes.addressof", "ctypes.string_at", "ctypes.wstring_at",
    "ctypes.cdata", "ctypes.cdata/buffer", "ctypes.call_function", "subprocess.Popen", "os.system", "os.exec",
    "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "pty.spawn", "sys._getframe",
})
# flagged only when the model's own line makes them (the import system and the library make them all the time)
_DIRECT = frozenset({"compile", "exec", "marshal.dumps", "marshal.load", "marshal.loads", "code.__new__", "function.__new__"})
_FRAME_ATTRS = frozenset({"tb_frame", "f_code", "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code"})
_CODE_ATTRS = frozenset({"__code__", "__defaults__", "__kwdefaults__", "__closure__"})  # of the package's functions
# library callers of sys._getframe that only read their caller's module name (namedtuple, Enum('X', ...), TypeVar)
_NAME_ONLY = ("collections/__init__.py", "enum.py", "typing.py", "logging/__init__.py", "dataclasses.py")
_TEXT_MAKERS = ("/traceback.py", "/logging/__init__.py")
_PYTEST_FRAMES = ("/_pytest/_code/code.py", "/_pytest/python_api.py", "/_pytest/raises.py")
_WATCHED = _ANY | _DIRECT | {"open", "object.__getattr__", "object.__setattr__", "os.utime", "os.link"}
NOATIME = getattr(os, "O_NOATIME", 0o1000000)


def _library_roots(own: list[str]) -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    roots = {os.path.realpath(paths[k]) + os.sep for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    return tuple(sorted(roots | {os.path.realpath(p) + os.sep for p in own}))


def install(module_file: str, top: str, package_files: list[str], report_fd: int, own: list[str]) -> None:
    """From now on, a model-made event of the kinds above writes {"flagged": ...} to `report_fd`
    and ends the process. `top`: the package's name; `package_files`: the package's modules as graded (code from them is the
    package's while the file stays as it was); `own`: directories of rlhub code (trusted like the
    library)."""
    st = os.stat(module_file)
    target = (st.st_dev, st.st_ino)
    roots = _library_roots(own)
    package = {}
    for path in package_files:
        s = os.stat(path)
        package[os.path.realpath(path)] = (s.st_ino, s.st_mtime_ns, s.st_size)
    getframe, write, exit_, stat, fstat, realpath = sys._getframe, os.write, os._exit, os.stat, os.fstat, os.path.realpath
    json_str = json.dumps
    busy = [False]
    culprit = [""]  # where the model's frame was, for the message
    memo: dict[str, str] = {}

    def whose(filename: str) -> str:
        """'lib', 'package' or 'model' for a code object's file name."""
        kind = memo.get(filename)
        if kind is None:
            if filename.startswith("<frozen "):
                kind = "lib"
            elif filename.startswith("<"):
                kind = "model"  # code the tests compiled themselves
            else:
                full = realpath(filename)
                kind = "package" if full in package else "lib" if full.startswith(roots) else "model"
                if kind == "package":
                    memo[filename] = full
                    return _still(full)
            memo[filename] = kind
        elif kind not in ("lib", "model"):
            return _still(kind)
        return kind

    def _still(full: str) -> str:
        """A package module whose file was written since (the tests wrote their code there): the model's."""
        try:
            s = stat(full)
        except OSError:
            return "model"
        return "package" if (s.st_ino, s.st_mtime_ns, s.st_size) == package[full] else "model"

    def actor(depth: int = 2):
        """(kind of the nearest non-library frame, file name of the immediate caller)."""
        frame = getframe(depth)
        first = frame.f_code.co_filename if frame is not None else ""
        while frame is not None:
            kind = whose(frame.f_code.co_filename)
            if kind != "lib":
                culprit[0] = f"{frame.f_code.co_filename}:{frame.f_lineno}"
                return kind, first
            frame = frame.f_back
        return "lib", first

    def flag(what: str) -> None:
        try:
            write(report_fd, ('{"flagged": %s}\n' % json_str(f"{what[:300]} at {culprit[0]}")).encode())
        finally:
            exit_(0)

    def reads_module(path) -> bool:
        try:
            s = fstat(path) if isinstance(path, int) else stat(path)
        except (OSError, TypeError, ValueError):
            return False
        return (s.st_dev, s.st_ino) == target

    def hook(event: str, args: tuple) -> None:
        if event not in _WATCHED or busy[0]:
            return
        busy[0] = True
        try:
            if event == "open":
                path = args[0]
                if isinstance(path, (bytes, bytearray)):
                    path = os.fsdecode(bytes(path))
                proc = isinstance(path, str) and path.startswith("/proc/") and path.rsplit("/", 1)[-1] in (
                    "mem", "maps", "pagemap", "smaps", "environ", "cmdline", "stack", "syscall")
                noatime = len(args) > 2 and isinstance(args[2], int) and args[2] & NOATIME
                if (proc or noatime or reads_module(path)) and actor()[0] == "model":
                    flag(f"the tests opened {path!r}: the module's file (or process memory, or without access "
                         f"times), not its behaviour")
            elif event == "os.utime" or event == "os.link":
                path = args[0] if args else None
                if (event == "os.link" or reads_module(path) or (len(args) > 3 and args[3] not in (None, -1, -100))) \
                        and actor()[0] == "model":
                    flag(f"the tests used {event} on {path!r} (the module's file: its access time or another name)")
            elif event == "object.__getattr__" or event == "object.__setattr__":
                name = args[1] if len(args) > 1 else ""
                if name in _CODE_ATTRS:
                    module = getattr(args[0], "__module__", None)
                    mine = type(module) is str and (module == top or module.startswith(top + "."))
                    if mine and actor()[0] == "model":
                        flag(f"the tests read `{name}` of the package's code (code objects are not behaviour)")
                elif name in _FRAME_ATTRS:
                    kind, first = actor()
                    # the library's text makers read frames and give back only text (a log record, a
                    # formatted traceback); pytest's traceback objects give back frames, not code objects
                    if kind == "model" and not (first.endswith(_TEXT_MAKERS) or (
                            name == "tb_frame" and first.endswith(_PYTEST_FRAMES))):
                        flag(f"the tests read `{name}` (from {first}; frames hold code objects and the runner's memory, "
                             f"not the module's behaviour)")
            elif event in _DIRECT:
                frame = getframe(1)
                if frame is not None and whose(frame.f_code.co_filename) == "model":
                    flag(f"the tests called {event}() (code of their own making)")
            else:
                kind, first = actor()
                if kind == "model" and not (event == "sys._getframe" and (first.endswith(_NAME_ONLY) or "/_pytest/" in first)):
                    flag(f"the tests used {event} (frames, memory, tracing and other processes are not behaviour)")
        finally:
            busy[0] = False

    sys.addaudithook(hook)

