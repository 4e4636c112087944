"""Unified diffs: read from a response, parsed with `unidiff`, applied strictly to a tree of files.

Applying is `git apply` without fuzz: every hunk's context and removed lines must be found
exactly, at the line the hunk names or elsewhere in the file (the nearest such place wins, as
`patch` does with an offset); otherwise the patch does not apply and the reason names the file and
hunk. What a patch may not do is refused before anything is applied: paths outside the repository
(absolute, `..`), symlinks (mode 120000), binary content (a git binary patch, NUL bytes, bytes that
are not UTF-8), a diff larger than `max_bytes`, an empty diff.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from dataclasses import dataclass

import unidiff
from unidiff.constants import LINE_TYPE_ADDED, LINE_TYPE_CONTEXT, LINE_TYPE_REMOVED

from hub.core import response
from hub.core.response import read

MAX_PATCH_BYTES = 1 << 20
_DIFF_TAGS = ("diff", "patch", "udiff")
_STARTS = ("diff --git ", "--- ", "Index: ")


class PatchRefused(ValueError):
    """A diff that cannot be taken: `kind` says why in one word (the verdict names it)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class FileChange:
    path: str                 # the file's path after the change (its old path when deleted)
    old_path: str | None      # None: a new file
    deleted: bool
    hunks: tuple              # unidiff Hunks


def extract(response: str) -> str | None:
    """The unified diff in a response: its ```diff (or ```patch) blocks joined, else an untagged block
    or the whole response when it is a diff itself. None when there is none."""
    parsed = read(response)
    blocks = [b for b in parsed.blocks if b.closed]
    tagged = [b.body for b in blocks if b.tag in _DIFF_TAGS]
    if tagged:
        return "\n".join(t if t.endswith("\n") else t + "\n" for t in tagged)
    for block in blocks:
        if block.body.lstrip().startswith(_STARTS):
            return block.body if block.body.endswith("\n") else block.body + "\n"
    stripped = parsed.visible.lstrip()
    if stripped.startswith(_STARTS):
        return stripped if stripped.endswith("\n") else stripped + "\n"
    return None


def safe_path(raw: str | None) -> str | None:
    """A diff's path as a repository-relative path (a/ and b/ prefixes dropped), or None for /dev/null.
    Raises PatchRefused for a path that leaves the repository."""
    if raw is None:
        return None
    path = raw.strip().split("\t", 1)[0]
    if path == "/dev/null":
        return None
    if path.startswith(("a/", "b/")):
        path = path[2:]
    if not path or "\0" in path or "\\" in path or path.startswith("/") or path.startswith("~"):
        raise PatchRefused("outside_repo", f"path {raw!r} is not a relative path inside the repository")
    norm = posixpath.normpath(path)
    if norm.startswith("../") or norm == ".." or norm == "." or ".." in path.split("/"):
        raise PatchRefused("outside_repo", f"path {raw!r} leaves the repository")
    return norm


_BINARY = re.compile("[\\x00\\ud800-\\udfff]")  # NUL, or lone surrogates (bytes that were not UTF-8)
_MODE = re.compile(r"^(?:new file mode|new mode|old mode|deleted file mode) (\d+)$", re.MULTILINE)


def parse(diff: str, max_bytes: int = MAX_PATCH_BYTES) -> list[FileChange]:
    """The file changes of a diff (PatchRefused: too big, not a diff, binary, a symlink, outside the repo)."""
    size = len(diff.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise PatchRefused("too_large", f"the diff is {size} bytes; at most {max_bytes} are read")
    if not diff.strip():
        raise PatchRefused("empty", "the diff is empty: it changes nothing")
    if "GIT binary patch" in diff:
        raise PatchRefused("binary", "the diff carries binary content (GIT binary patch)")
    if _BINARY.search(diff):
        raise PatchRefused("binary", "the diff carries binary content (NUL bytes or characters that are not UTF-8 text)")
    try:
        patch = unidiff.PatchSet(diff)
    except (unidiff.UnidiffParseError, UnicodeError, ValueError) as exc:
        raise PatchRefused("malformed", f"not a unified diff: {exc}") from None
    if not len(patch):
        raise PatchRefused("malformed", "no file changes in the diff")
    changes = []
    for pf in patch:
        info = str(getattr(pf, "patch_info", "") or "")
        if pf.is_binary_file:
            raise PatchRefused("binary", f"{pf.path}: binary files cannot be patched")
        if any(mode.startswith("120") for mode in _MODE.findall(info)):
            raise PatchRefused("symlink", f"{pf.path}: the diff makes a symlink")
        old, new = safe_path(pf.source_file), safe_path(pf.target_file)
        if old is None and new is None:
            raise PatchRefused("malformed", "a file change from /dev/null to /dev/null")
        changes.append(FileChange(path=new or old, old_path=old, deleted=new is None, hunks=tuple(pf)))
    return changes


class DoesNotApply(ValueError):
    pass


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _hunk_lines(hunk) -> tuple[list[str], list[str]]:
    before, after = [], []
    for line in hunk:
        if line.line_type in (LINE_TYPE_CONTEXT, LINE_TYPE_REMOVED):
            before.append(line.value)
        if line.line_type in (LINE_TYPE_CONTEXT, LINE_TYPE_ADDED):
            after.append(line.value)
    return before, after


def _norm(line: str) -> str:
    return line.rstrip("\r\n")


def apply_hunks(text: str, hunks, where: str) -> str:
    """`text` with `hunks` applied in order; each found at its line or the nearest place after the
    previous hunk where its context and removed lines match exactly."""
    lines = _lines(text)
    shift = drift = 0  # lines added so far minus removed; how far the last hunk sat from its stated place
    floor = 0          # hunks apply in order: never before the end of the previous one
    for number, hunk in enumerate(hunks, 1):
        before, after = _hunk_lines(hunk)
        want = [_norm(x) for x in before]
        stated = (hunk.source_start - 1 if before else hunk.source_start) + shift
        expected = max(floor, stated + drift)
        found = None
        if not before:
            found = min(max(floor, stated), len(lines))
        else:
            n = len(want)
            for i in sorted(range(floor, len(lines) - n + 1), key=lambda i: (abs(i - expected), i)):
                if lines[i].rstrip("\r\n") == want[0] and [_norm(x) for x in lines[i:i + n]] == want:
                    found = i
                    break
        if found is None:
            raise DoesNotApply(f"{where}: hunk {number} (@@ -{hunk.source_start},{hunk.source_length} @@) does not "
                               "match the file: its context and removed lines are not there")
        new = [x if x.endswith("\n") else x + "\n" for x in after]
        lines[found:found + len(before)] = new
        drift = found - stated
        shift += len(new) - len(before)
        floor = found + len(new)
    return "".join(lines)


def apply(files: dict[str, str], changes: list[FileChange]) -> tuple[dict[str, str], list[str]]:
    """The tree after the changes, and the paths changed. DoesNotApply says which file and hunk."""
    out = dict(files)
    touched = []
    for change in changes:
        if change.old_path is None:  # a new file
            if change.path in out:
                raise DoesNotApply(f"{change.path}: the diff creates it but it already exists")
            out[change.path] = apply_hunks("", change.hunks, change.path)
        else:
            if change.old_path not in out:
                raise DoesNotApply(f"{change.old_path}: no such file in the repository")
            text = apply_hunks(out[change.old_path], change.hunks, change.old_path)
            if change.deleted:
                del out[change.old_path]
            else:
                if change.path != change.old_path:
                    if change.path in out:
                        raise DoesNotApply(f"{change.path}: the diff renames a file onto an existing one")
                    del out[change.old_path]
                out[change.path] = text
        touched.append(change.path)
    return out, touched


def make(old: dict[str, str], new: dict[str, str], context: int = 3) -> str:
    """A git-style unified diff from tree `old` to tree `new` (files in path order)."""
    parts = []
    for path in sorted(set(old) | set(new)):
        a, b = old.get(path), new.get(path)
        if a == b:
            continue
        head = [f"diff --git a/{path} b/{path}\n"]
        if a is None:
            head.append("new file mode 100644\n")
        elif b is None:
            head.append("deleted file mode 100644\n")
        body = difflib.unified_diff(_lines(a or ""), _lines(b or ""), "/dev/null" if a is None else f"a/{path}",
                                    "/dev/null" if b is None else f"b/{path}", n=context)
        lines = list(body)
        parts.append("".join(head) + "".join(x if x.endswith("\n") else x + "\n\\ No newline at end of file\n" for x in lines))
    return "".join(parts)


def changed_paths(old: dict[str, str], new: dict[str, str]) -> list[str]:
    return sorted(p for p in set(old) | set(new) if old.get(p) != new.get(p))


def fenced(diff: str) -> str:
    """A diff as a ```diff block, the fence longer than any run of backticks inside (a README's own fences)."""
    return response.fenced(diff, "diff")
