"""Is the old name of a rename really gone? A static reading of the final tree, before any test runs.

The hidden tests check by import that no module of the package and not the owner class has the
old name (tasks.OLD_NAME_TEST); this module checks what importing cannot see:
- the old name as code (a name or attribute: a definition, an assignment, an import, a call site,
  a property) or as a string that is exactly the name (`getattr(self, "find")`, `__all__`) in
  any module of the package, or as a word in the README, more often than the reference leaves it;
- machinery that makes names at run time (`__getattr__`, `setattr`, `globals()`, `__dict__`,
  `exec`...) added anywhere in the package: a rename needs none, and an alias built from pieces
  of the name needs some.
Only files that differ from the reference's are read (tokenized), so a right answer costs little.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter

# Names through which code makes or finds attributes whose names it computes.
MACHINERY = frozenset({
    "__getattr__", "__getattribute__", "__dir__", "__setattr__", "__delattr__", "setattr", "getattr", "delattr",
    "globals", "locals", "vars", "__dict__", "exec", "eval", "compile", "__import__", "importlib", "modules",
    "__class__", "__init_subclass__", "__set_name__", "metaclass", "__builtins__", "builtins", "attrgetter",
    "methodcaller", "property", "partialmethod", "type", "SimpleNamespace", "__class_getitem__", "__mro_entries__",
})


def _tokens(text: str) -> list[tokenize.TokenInfo] | None:
    try:
        return list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None


def _code_counts(text: str, old: str) -> tuple[int, Counter]:
    """(how often `old` occurs as code or as an exact string, machinery names by count)."""
    toks = _tokens(text)
    if toks is None:  # does not tokenize: compare words (it will not import either)
        words = re.findall(r"\w+", text)
        return words.count(old), Counter(w for w in words if w in MACHINERY)
    hits, machinery = 0, Counter()
    for t in toks:
        if t.type == tokenize.NAME:
            hits += t.string == old
            if t.string in MACHINERY:
                machinery[t.string] += 1
        elif t.type == tokenize.STRING:
            body = t.string.lstrip("rbuRBUfF")
            body = body[3:-3] if body[:3] in ('"""', "'''") else body[1:-1]
            hits += body == old
    return hits, machinery


def _words(text: str, old: str) -> int:
    return len(re.findall(r"(?<!\w)" + re.escape(old) + r"(?!\w)", text))


def kept(rename: dict, base: dict[str, str], final: dict[str, str], target: dict[str, str]) -> list[str]:
    """Where the final tree keeps the old name (empty: it is gone). `rename` (tasks.Built.rename):
    the old name and the package; `target`: the reference's tree."""
    old, package = rename["old"], rename["package"]
    found = []
    for path in sorted(set(final) | set(target)):
        is_code = path.startswith(package + "/") and path.endswith(".py")
        if not (is_code or path == "README.md"):
            continue
        now, ref = final.get(path, ""), target.get(path, "")
        if now == ref:
            continue
        if not is_code:
            if _words(now, old) > _words(ref, old):
                found.append(f"{path} still names `{old}`")
            continue
        (hits, machinery), (ref_hits, _) = _code_counts(now, old), _code_counts(ref, old)
        if hits > ref_hits:
            found.append(f"{path} keeps `{old}` ({hits - ref_hits} more use(s) than the renamed code has)")
        was = _code_counts(base.get(path, ""), old)[1]
        added = sorted(n for n, c in machinery.items() if c > was.get(n, 0))
        if added:
            found.append(f"{path} adds {', '.join(added)}: a rename needs no code that makes names at run time")
    return found
