"""Reference builds, cached so each reference script is built once per machine.

Two levels, both keyed by a hash of the script and the measurement settings (and the runner's
version): an in-memory LRU of decoded references (mesh, features, surface sample), and the
runner's JSON output on disk under ~/.cache/rlhub/mesh (RLHUB_MESH_CACHE overrides the
directory; "off" disables it). Disk entries are written atomically and a corrupt one is
simply rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable


def cache_dir() -> Path | None:
    configured = os.environ.get("RLHUB_MESH_CACHE", "")
    if configured.lower() in {"off", "0", "none"} or os.environ.get("RLHUB_CACHE", "").lower() == "off":
        return None  # RLHUB_CACHE=off: every cache of rlhub off (the fresh-process check sets it)
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rlhub" / "mesh"


def key_for(script: str, settings: dict[str, Any]) -> str:
    body = json.dumps({"script": script, "settings": settings}, sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


def read_disk(key: str) -> dict | None:
    folder = cache_dir()
    if folder is None:
        return None
    try:
        data = json.loads((folder / f"{key}.json").read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("ok") else None


def write_disk(key: str, built: dict) -> None:
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(built, f)
        os.replace(tmp, folder / f"{key}.json")
    except OSError:
        pass  # a read-only or full disk only costs a rebuild next time


class LRU:
    """A small thread-safe LRU; `get_or_make` builds outside the lock, once per key at a time."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}

    def get_or_make(self, key: str, make: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            gate = self._building.setdefault(key, threading.Lock())
        with gate:  # concurrent verifications of one task build its reference once
            with self._lock:
                if key in self._items:
                    return self._items[key]
            value = make()
            with self._lock:
                self._items[key] = value
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
                self._building.pop(key, None)
            return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
