"""The start-up index: what a full load of the plugins found, kept on disk so that `rlhub --help`
and `rlhub list` need not load them all again.

Loading every plugin and resolving the registry costs about a second (pydantic, numpy, every
plugin's verifiers), while `--help` needs only each verb's name and help line, a verb only its own
command module, and `list` only its rows. An entry is written by a run that did the full load and
is read only as the program's own start (`main()` reading sys.argv; in-process callers always load
for real). It is keyed by what decides the answer (the interpreter, sys.path, the working folder,
the RLHUB_* settings, the verb's own key) and carries a stamp (mtime, size, or "absent") of
everything the full load depended on:
- every imported module's file and the folder holding it (a new module or registry fragment
  changes the folder), and every sys.path entry (a distribution installed, upgraded or removed
  changes its site folder);
- every file opened for reading and every folder listed during the load (an audit hook sees
  them: data files a plugin registers from, dist-info entry points, registry files);
- the paths the caller names (./registry.yaml present or not, a dataset's file).
Any difference is a miss: the full load runs and writes the entry again. File times are coarse,
so nothing is written while a stamped file is younger than RACY_S (an edit in the same tick would
go unseen). RLHUB_CACHE=off turns the index off, as every rlhub cache.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
import zlib
from pathlib import Path
from typing import Any, Iterable

VERSION = 1
RACY_S = 2.0
KEEP = 64  # entries kept (newest first); each working folder and registry argument has its own
_SKIP = ("/proc/", "/dev/", "/sys/")

active = False  # set by main(): this process is the program itself, and the index is on
_seen: set[str] = set()  # files opened for reading and folders listed since watch() (an audit hook adds them)
_watching = False  # the audit hook is in place (it cannot be removed: pause() makes it return at once)
_on = False
_complete = False  # watch() began before the plugins loaded: _seen holds all they read


def enabled() -> bool:
    return os.environ.get("RLHUB_CACHE", "").lower() != "off"


def folder() -> Path:
    home = os.environ.get("RLHUB_HOME") or Path.home() / ".cache" / "rlhub"
    return Path(home) / "startup"


def _key(kind: str, extra: Any) -> str:
    from ..core import __version__

    settings = sorted((k, v) for k, v in os.environ.items() if k.startswith("RLHUB_"))
    return json.dumps([VERSION, __version__, kind, extra, sys.executable, sys.path, os.getcwd(), settings])


def _file(key: str) -> Path:
    return folder() / f"{zlib.crc32(key.encode()):08x}.json"  # the entry holds its key: a clash only misses


def _stamp(path: str) -> list:
    try:
        st = os.stat(path)
    except OSError:
        return [path, None, None]
    return [path, st.st_mtime_ns, st.st_size]


def lookup(kind: str, extra: Any = None) -> Any | None:
    """The data stored for (kind, extra), or None: absent, unreadable, or any stamp differs."""
    key = _key(kind, extra)
    try:
        entry = json.loads(_file(key).read_text())
        if entry["key"] != key:
            return None
        for path, mtime, size in entry["stamps"]:
            if _stamp(path) != [path, mtime, size]:
                return None
        return entry["data"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _audit(event: str, args: tuple) -> None:
    if not _on:
        return
    try:
        _note(event, args)
    except Exception:  # noting must never change what the operation does
        pass


def _note(event: str, args: tuple) -> None:
    if event == "open":
        path, _mode, flags = args
        if isinstance(flags, int) and flags & os.O_ACCMODE != os.O_RDONLY:
            return
    elif event in ("os.listdir", "os.scandir"):
        path = args[0] if args else None
    else:
        return
    if isinstance(path, (str, os.PathLike)):
        _seen.add(os.path.abspath(os.fspath(path)))


def watch() -> None:
    """Note every file opened for reading and folder listed from now on, for the stamps of what
    this process writes to the index. Call it before the plugins load (else nothing is written)."""
    global _watching, _complete, _on
    if not _watching:
        from ..plugins.manager import installed

        _complete = installed.cache_info().currsize == 0
        sys.addaudithook(_audit)
        _watching = True
    _on = True


def pause() -> None:
    """Stop noting (what was noted is kept): the verb's own work is no part of the catalog, and
    processes forked from here (sandbox workers) carry a hook that does nothing."""
    global _on
    _on = False


def _stdlib(path: str, lib: str = os.path.dirname(os.__file__)) -> bool:
    """The standard library's own files change only with the interpreter (whose file is stamped)."""
    return path.startswith(lib + os.sep) and not path.startswith(os.path.join(lib, "site-packages"))


def _depended_on(extra: Iterable[str | os.PathLike]) -> list[str]:
    paths = set(_seen)
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if isinstance(file, str):
            paths.add(file)
            paths.add(os.path.dirname(file))
    paths.update(p for p in sys.path if p)
    paths.update(os.path.abspath(os.fspath(p)) for p in extra)
    own = str(folder().absolute())  # the index's own writes are no change to the catalog
    paths = {p for p in paths if not p.startswith(_SKIP) and "/__pycache__/" not in p and not _stdlib(p)
             and not (p == own or p.startswith(own + os.sep))}
    return sorted(paths | {sys.executable, os.path.realpath(sys.executable), os.__file__})


def store(kind: str, data: Any, extra: Iterable[str | os.PathLike] = (), extra_key: Any = None) -> bool:
    """Keep `data` for (kind, extra_key) with the stamps of what the load depended on (see watch()).
    False (nothing written) when watching began too late, a stamped file changed in the last
    RACY_S, or the folder is not writable."""
    if not _complete:
        return False
    stamps = [_stamp(p) for p in _depended_on(extra)]
    young = time.time_ns() - int(RACY_S * 1e9)
    if any(mtime is not None and mtime > young for _, mtime, _ in stamps):
        return False
    key = _key(kind, extra_key)
    target = _file(key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}")
        tmp.write_text(json.dumps({"key": key, "stamps": stamps, "data": data}))
        os.replace(tmp, target)  # readers see the old entry or the new one, never half of one
    except OSError:
        return False
    with contextlib.suppress(OSError):  # another process may be pruning too
        _prune(target.parent)
    return True


def _prune(where: Path) -> None:
    entries = sorted(where.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[KEEP:]:
        with contextlib.suppress(OSError):
            old.unlink()
