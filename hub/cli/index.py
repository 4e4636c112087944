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
from typing import Any, Iterable, Iterator

VERSION = 1
RACY_S = 2.0
KEEP = 64  # entries kept (newest first); each working folder and registry argument has its own
_SKIP = ("/proc/", "/dev/", "/sys/")

active = False  # set by main(): this process is the program itself, and the index is on
_recording: list[set[str]] = []  # the path sets of the recordings under way (an audit hook fills them)
_hooked = False


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
    if not _recording:
        return
    if event == "open":
        path, _mode, flags = args
        if isinstance(flags, int) and flags & os.O_ACCMODE != os.O_RDONLY:
            return
    elif event not in ("os.listdir", "os.scandir"):
        return
    else:
        path = args[0] if args else None
    if isinstance(path, (str, os.PathLike)):
        path = os.path.abspath(os.fspath(path))
        for paths in _recording:
            paths.add(path)


@contextlib.contextmanager
def recording() -> Iterator[set[str]]:
    """The files opened for reading and folders listed while the block runs."""
    global _hooked
    if not _hooked:
        sys.addaudithook(_audit)
        _hooked = True
    paths: set[str] = set()
    _recording.append(paths)
    try:
        yield paths
    finally:
        _recording.remove(paths)


def _stdlib(path: str, lib: str = os.path.dirname(os.__file__)) -> bool:
    """The standard library's own files change only with the interpreter (whose file is stamped)."""
    return path.startswith(lib + os.sep) and not path.startswith(os.path.join(lib, "site-packages"))


def _depended_on(recorded: Iterable[str], extra: Iterable[str | os.PathLike]) -> list[str]:
    paths = set(recorded)
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if isinstance(file, str):
            paths.add(file)
            paths.add(os.path.dirname(file))
    paths.update(p for p in sys.path if p)
    paths.update(os.path.abspath(os.fspath(p)) for p in extra)
    paths = {p for p in paths if not p.startswith(_SKIP) and "/__pycache__/" not in p and not _stdlib(p)}
    return sorted(paths | {sys.executable, os.path.realpath(sys.executable), os.__file__})


def store(kind: str, data: Any, recorded: Iterable[str], extra: Iterable[str | os.PathLike] = (),
          extra_key: Any = None) -> bool:
    """Keep `data` for (kind, extra_key) with the stamps of what the load depended on. False
    (nothing written) when a stamped file changed in the last RACY_S or the folder is not writable."""
    stamps = [_stamp(p) for p in _depended_on(recorded, extra)]
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
