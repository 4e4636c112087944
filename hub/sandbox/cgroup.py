"""Memory cgroups: the only bound on memory summed over all of a sandbox's processes.

One cgroup per live sandbox, created below the cgroup this process already lives in (so a
sandbox can only ever get less than its caller). cgroup v2 and v1 are both handled; where
neither is writable (or RLHUB_SANDBOX_CGROUP=0), `MemoryCgroup.create` returns None and callers
fall back to RLIMIT_AS and say so in the result (`memory_limit="rlimit"`).
"""

from __future__ import annotations

import os
import time
import uuid

_ROOTS = {"v2": "/sys/fs/cgroup", "v2-hybrid": "/sys/fs/cgroup/unified", "v1": "/sys/fs/cgroup/memory"}


def _own_parent() -> tuple[str, str] | None:
    """(version, directory) of a memory cgroup we can create children in, or None."""
    try:
        lines = open("/proc/self/cgroup").read().splitlines()
    except OSError:
        return None
    for line in lines:
        hid, controllers, path = line.split(":", 2)
        if hid == "0":  # v2: memory must be enabled for our children
            for version in ("v2", "v2-hybrid"):
                base = _ROOTS[version] + path
                try:
                    if "memory" in open(os.path.join(base, "cgroup.subtree_control")).read().split():
                        return version, base
                except OSError:
                    continue
        elif "memory" in controllers.split(","):
            base = _ROOTS["v1"] + path
            if os.path.exists(os.path.join(base, "memory.limit_in_bytes")):
                return "v1", base
    return None


_PARENT: tuple[str, str] | None | bool = False  # False: not probed yet
STALE_AFTER_S = 600


def _remove_stale(parent: str) -> None:
    """Empty cgroups left by a host process that was killed before it could remove them."""
    try:
        names = [n for n in os.listdir(parent) if n.startswith("rlhub-")]
    except OSError:
        return
    for name in names:
        path = os.path.join(parent, name)
        try:
            if time.time() - os.stat(path).st_mtime > STALE_AFTER_S and not open(os.path.join(path, "cgroup.procs")).read().strip():
                os.rmdir(path)
        except OSError:
            pass


class MemoryCgroup:
    def __init__(self, version: str, path: str) -> None:
        self.version, self.path = version, path
        self._limit = 0

    @classmethod
    def create(cls) -> "MemoryCgroup | None":
        global _PARENT
        if os.environ.get("RLHUB_SANDBOX_CGROUP", "1") == "0":  # operators' switch (and tests'): rlimits only
            return None
        if _PARENT is False:
            _PARENT = _own_parent()
            if _PARENT:
                _remove_stale(_PARENT[1])
        if not _PARENT:
            return None
        version, parent = _PARENT
        path = os.path.join(parent, f"rlhub-{uuid.uuid4().hex[:12]}")
        try:
            os.mkdir(path)
        except OSError:
            return None
        group = cls(version, path)
        if version == "v1":
            group._write("memory.swappiness", "0")
        return group

    def _write(self, name: str, value: str) -> bool:
        try:
            with open(os.path.join(self.path, name), "w") as f:
                f.write(value)
            return True
        except OSError:
            return False

    def _read(self, name: str) -> str:
        try:
            return open(os.path.join(self.path, name)).read()
        except OSError:
            return ""

    @property
    def procs_file(self) -> str:
        return os.path.join(self.path, "cgroup.procs")

    def usage(self) -> int:
        name = "memory.current" if self.version != "v1" else "memory.usage_in_bytes"
        try:
            return int(self._read(name).strip() or 0)
        except ValueError:
            return 0

    def set_limit(self, limit: int) -> bool:
        if self.version != "v1":
            return self._write("memory.max", str(limit)) and (self._write("memory.swap.max", "0") or True)
        # v1: memsw (memory+swap) must stay >= the memory limit at every step.
        memsw = os.path.exists(os.path.join(self.path, "memory.memsw.limit_in_bytes"))
        if memsw and self._limit and limit > self._limit:
            self._write("memory.memsw.limit_in_bytes", str(limit))
            ok = self._write("memory.limit_in_bytes", str(limit))
        else:
            ok = self._write("memory.limit_in_bytes", str(limit))
            if memsw:
                self._write("memory.memsw.limit_in_bytes", str(limit))
        self._limit = limit
        return ok

    def oom_kills(self) -> int:
        text = self._read("memory.events" if self.version != "v1" else "memory.oom_control")
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def destroy(self) -> None:
        for _ in range(50):
            try:
                os.rmdir(self.path)
                return
            except FileNotFoundError:
                return
            except OSError:  # processes still exiting: kill stragglers, retry
                for pid in self._read("cgroup.procs").split():
                    try:
                        os.kill(int(pid), 9)
                    except OSError:
                        pass
                time.sleep(0.02)
