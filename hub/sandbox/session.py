"""Sessions: one persistent, sized work dir for a multi-turn episode (run, observe, revise).

Every `run` is a fresh sandboxed process (own namespaces, /tmp, limits) on the same work dir.
Files are written and read by a helper that has dropped to the session's unprivileged uid,
so a symlink the model planted can never make a privileged process read for it; the helper
opens nothing that could block it (O_NONBLOCK) and handles regular files only: a FIFO, socket,
directory or symlink where a file should be is refused on write and left out on read.
"""

from __future__ import annotations

import base64

from .process import SandboxProcess
from .profile import Profile
from .result import RunResult


class Session:
    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self._box: SandboxProcess | None = SandboxProcess(profile, persistent_work=True)

    def _live(self) -> SandboxProcess:
        if self._box is None:
            raise RuntimeError("session is closed")
        return self._box

    def run(self, argv: list[str], files=None, stdin: bytes | str = b"", env=None, profile: Profile | None = None) -> RunResult:
        return self._live().run_task(profile or self.profile, argv=list(argv), files=files, stdin=stdin, env=env)

    def write_files(self, files: dict[str, str | bytes]) -> None:
        encoded = {k: base64.b64encode(v.encode() if isinstance(v, str) else v).decode() for k, v in files.items()}
        reply = self._live().request({"op": "write", "files": encoded})
        if "error" in reply:  # what was in the way, as the helper said it ("x is a FIFO ...")
            raise ValueError(reply["error"].removeprefix("ValueError: "))

    def read_files(self, paths: list[str]) -> dict[str, bytes]:
        """Regular files among `paths` (relative to the work dir); missing ones are left out."""
        reply = self._live().request({"op": "read", "paths": list(paths), "limit": self.profile.tmpfs_mb << 20})
        if "error" in reply:
            raise ValueError(f"cannot read files: {reply['error']}")
        return {k: base64.b64decode(v) for k, v in reply["ok"].items()}

    def read_tree(self, skip: tuple[str, ...] = (), max_entries: int = 10_000, max_bytes: int = 24 << 20,
                  max_file_bytes: int = 1 << 20) -> dict:
        """Every regular file of the work dir, walked by the helper without following a link:
        {"files": {path: bytes}, "left_out": [(path, why)], "over": None or why the tree was not
        read in full}. Whatever is not read (links, FIFOs, sockets, names that are not UTF-8, files
        of `max_file_bytes` or more, what its mode makes unreadable) is named in `left_out`;
        directories named in `skip` are not walked. More than `max_entries` entries or `max_bytes`
        bytes: `over` says so and `files` is empty (a part of a tree is never the tree)."""
        reply = self._live().request({"op": "tree", "skip": list(skip), "max_entries": max_entries,
                                      "max_bytes": max_bytes, "max_file_bytes": max_file_bytes})
        if "error" in reply:
            raise ValueError(f"cannot read the work tree: {reply['error']}")
        got = reply["ok"]
        return {"files": {k: base64.b64decode(v) for k, v in got["files"].items()},
                "left_out": [tuple(x) for x in got["left_out"]], "over": got["over"]}

    def close(self) -> None:
        if self._box is not None:
            self._box.close()
            self._box = None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
