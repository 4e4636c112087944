"""The code as the analyser would see it with its hiding undone: the second view.

An analyser matches what code looks like (`os.popen(...)`, `zip(a, b)`, `x == None`,
`tr a-z A-Z`). The same behaviour written another way (the callable or the constant first bound
to a name, `getattr(con, "execute")`, `operator.eq(x, None)`, `(lambda x: ...,)[0]`,
`command expr`, `${v:+$v}`) says nothing to it. This module rewrites those forms back into the
plain ones, edit by edit (everything else keeps its exact text, so the analyser's other findings
are the same in both views); the analyser reads both views in one run, and a finding that only
the undone view has was hidden from it (rlhub_static.analyser: a blind-spot finding that costs
the component its weight). Ordinary code that merely resembles a hiding form is rewritten too,
but gives the analyser nothing new to say, so it costs nothing.

Nothing here runs the code; a rewrite that would not parse is dropped (the view is then the code
as it is, and nothing is counted).

Python, every analyser:
- a name bound once to a callable, an attribute, a constant or a literal display (`_sh = os.popen`,
  `_ALGO = "md5"`, `_OPTS = {"shell": True}`, `_EMPTY = []`, `Dict, List = ...`) is read as that
  value wherever it is used;
- `getattr(x, "name")` (not for ruff: its B009 is that rule) and `operator.attrgetter("name")(x)` are `x.name` (strings folded:
  `"ev" + "al"`), `operator.methodcaller("m", a)(x)` is `x.m(a)`; `str.format(s, ...)` is
  `s.format(...)`;
- `operator.eq/ne/lt/le/gt/ge/is_/is_not/contains/not_/truth(...)` are the operators;
- `(a, b)[0]`, `{"k": v}["k"]` are the element; `f(*("md5", d))` and `f(**{"shell": True})` are
  plain arguments; an f-string whose placeholders are all constants is the plain string it spells;
- statements that only touch a name (`del x`, a bare `x`, `f.__doc__ = None` for a function `f`),
  a `continue` ending a loop body, a `pass` beside other statements, a comprehension's
  `for _ in (0,)`, `__all__` entries that only name imports, and `match v: case name: ...` (an
  assignment) are taken out or written plainly.
ruff only: an annotated assignment is a plain one (`x: str = ...` dodges SIM108).
mypy only: `cast(T, e)` is `e` (mypy takes a cast on faith); `f = lambda ...:` is a `def` (mypy
--strict checks functions, not lambdas).

Shell (shellcheck): `command`/`builtin`/`\\` before a command word are dropped; `${v:+$v}`,
`${v:-}`, `${v#}`, `${v%}`, `${v:0}` are `$v`, `${!v}` the variable v names; a variable assigned once to a plain word
is that word where it is used (`lower='a-z'; tr "$lower" ...`).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict)
OPERATORS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "is_": "is", "is_not": "is not"}
ROUNDS = 6  # rewrites reveal one another (an alias of a getattr of a lambda...): a few rounds
STRING_TYPES = {"str", "bytes"}


@dataclass(frozen=True)
class Edit:
    start: int  # character offsets into the source
    end: int
    text: str
    line: int
    what: str


@dataclass(frozen=True)
class Undone:
    line: int
    what: str


class _Source:
    def __init__(self, code: str) -> None:
        self.code = code
        self.lines = code.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, lineno: int, col: int) -> int:
        line = self.lines[lineno - 1] if lineno - 1 < len(self.lines) else ""
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8", "ignore"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (self.offset(node.lineno, node.col_offset),  # type: ignore[attr-defined]
                self.offset(node.end_lineno, node.end_col_offset))  # type: ignore[attr-defined]

    def text(self, node: ast.AST) -> str:
        a, b = self.span(node)
        return self.code[a:b]

    def atom(self, node: ast.AST) -> str:
        """The node's text, parenthesised unless it is an atom already."""
        t = self.text(node)
        if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.List, ast.Tuple,
                             ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, ast.JoinedStr)):
            return t if not (isinstance(node, ast.Tuple) and not t.startswith("(")) else f"({t})"
        return f"({t})"

    def edit(self, node: ast.AST, text: str, what: str) -> Edit:
        a, b = self.span(node)
        return Edit(a, b, text, node.lineno, what)  # type: ignore[attr-defined]

    def statement_removed(self, node: ast.stmt, body: list[ast.stmt], what: str) -> Edit:
        """`node` taken out of `body` (replaced by `pass` when it is the block's only statement)."""
        if len(body) == 1:
            return self.edit(node, "pass", what)
        a, b = self.span(node)
        line_start = self.starts[node.lineno - 1]
        line_end = self.starts[node.end_lineno] if node.end_lineno < len(self.starts) else len(self.code)  # type: ignore[operator]
        whole = self.code[line_start:a].strip() == "" and self.code[b:line_end].strip() in ("", ";")
        if whole:
            return Edit(line_start, line_end, "", node.lineno, what)
        return Edit(a, b, "pass", node.lineno, what)


def _apply(code: str, edits: list[Edit]) -> tuple[str, list[Edit]]:
    """Non-overlapping edits applied right to left (the first of overlapping ones wins)."""
    chosen: list[Edit] = []
    for e in sorted(edits, key=lambda e: (e.start, -e.end)):
        if chosen and e.start < chosen[-1].end:
            continue
        chosen.append(e)
    for e in reversed(chosen):
        code = code[:e.start] + e.text + code[e.end:]
    return code, chosen


# -- constants ---------------------------------------------------------------------------------

def const_str(node: ast.AST) -> str | None:
    """The string a node spells before the code runs (`const_value`), or None."""
    v = const_value(node)
    return v if isinstance(v, str) else None


MAX_FOLDED = 10_000  # a folded value longer than this is not folded (nor computed)
STR_METHODS = {"lower", "upper", "casefold", "swapcase", "title", "capitalize", "strip", "lstrip", "rstrip", "replace",
               "removeprefix", "removesuffix", "format", "decode", "encode", "join"}
CODECS = {"utf-8", "utf8", "ascii", "latin-1", "latin1", "iso-8859-1", "utf-16", "utf-32", "rot13", "rot_13", "rot-13"}
DECODERS = {"b64decode", "b32decode", "b16decode", "urlsafe_b64decode", "standard_b64decode", "a85decode", "b85decode"}
WIDE = re.compile(r"\d{4,}")  # a format width that would build a huge string


def const_value(node: ast.AST, depth: int = 0) -> str | bytes | int | None:
    """The str, bytes or int a node spells before the code runs, computed without running it: a
    literal; literals added, repeated, sliced, indexed, %-formatted; an f-string of literals;
    `os.sep`; a literal's `.lower()`/`.upper()`/`.strip()`/`.replace()`/`.format()`/`.decode()`/
    `.encode()`/`.join()`/...; `chr(n)`, `str(s)`, `bytes([...])`, `bytes.fromhex(s)`,
    `os.path.join(...)`, `codecs.decode(s, "rot13")`, `base64.b64decode(s)` of literals. None for
    anything else (or anything that would be longer than MAX_FOLDED)."""
    if depth > 50:
        return None
    try:
        v = _const(node, depth + 1)
    except Exception:  # a literal the operation refuses (bad codec, bad format): not a constant
        return None
    if isinstance(v, bool) or (isinstance(v, (str, bytes)) and len(v) > MAX_FOLDED):
        return None
    if isinstance(v, int) and abs(v) > MAX_FOLDED:
        return None
    return v


def _const(node: ast.AST, d: int):
    cv = lambda n: const_value(n, d)  # noqa: E731
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, (str, bytes, int)) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = cv(node.operand)
        return -v if isinstance(v, int) else None
    if isinstance(node, ast.BinOp):
        left, right = cv(node.left), cv(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Add) and type(left) is type(right):
            return left + right  # type: ignore[operator]
        if isinstance(node.op, ast.Mult) and isinstance(left, (str, bytes)) and isinstance(right, int) and len(left) * right <= MAX_FOLDED:
            return left * right
        if isinstance(node.op, ast.Mod) and isinstance(left, (str, bytes)) and not WIDE.search(str(left)):
            args = right if not isinstance(node.right, ast.Tuple) else tuple(cv(e) for e in node.right.elts)
            if isinstance(args, tuple) and not all(isinstance(a, (str, bytes)) for a in args) or isinstance(args, int):
                return None
            return left % args
        return None
    if isinstance(node, ast.Subscript):
        value = cv(node.value)
        if not isinstance(value, (str, bytes)):
            return None
        if isinstance(node.slice, ast.Slice):
            parts = [cv(p) if p is not None else None for p in (node.slice.lower, node.slice.upper, node.slice.step)]
            given = [p for p in (node.slice.lower, node.slice.upper, node.slice.step)]
            if any(g is not None and not isinstance(v, int) for g, v in zip(given, parts)) or parts[2] == 0:
                return None
            return value[slice(*parts)]
        i = cv(node.slice)
        return value[i] if isinstance(i, int) else None
    if isinstance(node, ast.JoinedStr):
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(str(v.value))
            elif isinstance(v, ast.FormattedValue) and v.conversion in (-1, 115):
                inner = cv(v.value)
                spec = "" if v.format_spec is None else cv(v.format_spec)
                if not isinstance(inner, (str, int)) or isinstance(inner, bool) or not isinstance(spec, str) or WIDE.search(spec):
                    return None
                out.append(format(inner, spec))
            else:
                return None
        return "".join(out)
    if isinstance(node, ast.Attribute) and node.attr == "sep":
        root = node.value
        if isinstance(root, ast.Name) and root.id == "os" or isinstance(root, ast.Attribute) and root.attr == "path":
            return "/"
        return None
    if not isinstance(node, ast.Call) or any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    fn, args = node.func, node.args
    name = _dotted(fn) or ""
    if isinstance(fn, ast.Attribute) and fn.attr in STR_METHODS and not isinstance(fn.value, ast.Name):
        recv = cv(fn.value)
        if isinstance(recv, (str, bytes)):
            if fn.attr == "join":
                items = _const_items(args[0], d) if len(args) == 1 and not node.keywords else None
                return recv.join(items) if items is not None and all(type(i) is type(recv) for i in items) else None  # type: ignore[arg-type]
            vals = [cv(a) for a in args]
            kws = {k.arg: cv(k.value) for k in node.keywords}
            if any(v is None for v in vals) or any(v is None for v in kws.values()):
                return None
            if fn.attr == "format" and (WIDE.search(str(recv)) or not all(isinstance(v, (str, bytes)) for v in [*vals, *kws.values()])):
                return None
            if fn.attr in ("decode", "encode") and not all(isinstance(v, str) and v.lower() in CODECS | {"strict", "ignore", "replace"}
                                                           for v in [*vals, *kws.values()]):
                return None
            if fn.attr in ("decode", "encode") and any(str(v).lower().startswith("rot") for v in vals):
                return None  # str.encode refuses rot13; codecs.* below reads it
            return getattr(recv, fn.attr)(*vals, **kws)
    if node.keywords:
        return None
    vals = [cv(a) for a in args]
    if name == "chr" and len(vals) == 1 and isinstance(vals[0], int) and 0 <= vals[0] < 0x110000:
        return chr(vals[0])
    if name == "str" and len(vals) == 1 and isinstance(vals[0], str):
        return vals[0]
    if name in ("bytes", "bytearray") and len(args) == 1:
        items = _const_items(args[0], d)
        if items is not None and all(isinstance(i, int) and 0 <= i < 256 for i in items):
            return bytes(items)  # type: ignore[arg-type]
        return None
    if name == "bytes.fromhex" and len(vals) == 1 and isinstance(vals[0], str):
        return bytes.fromhex(vals[0])
    if name.endswith("path.join") and vals and all(isinstance(v, str) for v in vals):
        import posixpath
        return posixpath.join(*vals)  # type: ignore[arg-type]
    if name in ("codecs.decode", "codecs.encode") and len(vals) == 2 and isinstance(vals[1], str) and vals[1].lower() in CODECS:
        import codecs
        return getattr(codecs, name.split(".")[1])(vals[0], vals[1])
    if name.split(".")[-1] in DECODERS and name.startswith("base64.") and len(vals) == 1 and isinstance(vals[0], (str, bytes)):
        import base64
        return getattr(base64, name.split(".")[-1])(vals[0])
    return None


def _const_items(node: ast.AST, d: int) -> list | None:
    """The constant items of a display, `reversed(c)`, `sorted(c)`, `map(chr, c)`, or a constant string."""
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [const_value(e, d) for e in node.elts]
        return None if any(i is None for i in items) else items
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        if node.func.id in ("reversed", "sorted", "list", "tuple") and len(node.args) == 1:
            items = _const_items(node.args[0], d)
            if items is None:
                return None
            return list(reversed(items)) if node.func.id == "reversed" else sorted(items) if node.func.id == "sorted" else items
        if node.func.id == "map" and len(node.args) == 2 and isinstance(node.args[0], ast.Name) and node.args[0].id in ("chr", "str"):
            items = _const_items(node.args[1], d)
            if items is None or not all(isinstance(i, int) and 0 <= i < 0x110000 if node.args[0].id == "chr" else isinstance(i, str)
                                        for i in items):
                return None
            return [chr(i) if node.args[0].id == "chr" else i for i in items]
    v = const_value(node, d)
    if isinstance(v, str):
        return list(v)
    if isinstance(v, bytes):
        return list(v)
    return None


def _is_folded(node: ast.AST) -> bool:
    """A string spelled from parts (what a literal would say in one)."""
    return not isinstance(node, ast.Constant) and isinstance(const_value(node), (str, bytes))


# -- the module's names ------------------------------------------------------------------------

def _bindings(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """Every place a name is bound (assigned, a parameter, imported, defined, a loop target...)."""
    out: dict[str, list[ast.AST]] = {}

    def add(name: str, node: ast.AST) -> None:
        out.setdefault(name, []).append(node)

    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            add(node.id, node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            add(node.name, node)
        elif isinstance(node, ast.arg):
            add(node.arg, node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                add(a.asname or a.name.split(".")[0], node)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for n in node.names:
                add(n, node)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            add(node.name, node)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            add(node.name, node)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            add(node.rest, node)
    return out


def _aliasable(node: ast.AST) -> bool:
    """A value that reads the same wherever it is written: a name, an attribute chain, a constant,
    a display of such, a string spelled from literals."""
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Attribute):
        return _aliasable(node.value) and not isinstance(node.value, (ast.Constant, ast.List, ast.Dict, ast.Set, ast.Tuple))
    if isinstance(node, ast.Constant):
        return not isinstance(node.value, type(...))
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(_aliasable(e) and not isinstance(e, ast.Starred) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _aliasable(k) and _aliasable(v) for k, v in zip(node.keys, node.values))
    return _is_folded(node)


class Rewriter:
    """One kind of rewrite: `edits(tree, src)` -> the edits it makes on this parse."""

    def __init__(self, analyser: str) -> None:
        self.analyser = analyser
        self.orphans: set[str] = set()  # names no longer read once their reads are rewritten

    def edits(self, tree: ast.Module, src: _Source) -> list[Edit]:
        raise NotImplementedError


class Aliases(Rewriter):
    """A name bound once to an aliasable value is that value where it is read."""

    def edits(self, tree, src):
        binds = _bindings(tree)
        values: dict[str, tuple[ast.AST, int]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                pairs = self._pairs(node.targets[0], node.value)
            elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name) and node.simple:
                pairs = [(node.target, node.value)] if not self._is_type_alias(node) else []
            elif isinstance(node, ast.NamedExpr):
                pairs = [(node.target, node.value)]
            else:
                continue
            for target, value in pairs:
                name = target.id
                if (len(binds.get(name, ())) == 1 and _aliasable(value) and not (name.startswith("__") and name.endswith("__"))
                        and not any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(value))):
                    values[name] = (value, node.lineno)
        # inside an f-string a literal's quotes may clash with the string's: placeholders stay
        in_fstrings = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for inner in ast.walk(node)}
        parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        out = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in values:
                if id(node) in in_fstrings:
                    continue
                parent = parents.get(id(node))
                if isinstance(values[node.id][0], DISPLAYS) and not (
                        isinstance(parent, (ast.arguments, ast.Starred)) or isinstance(parent, ast.keyword) and parent.arg is None):
                    continue  # a display (mutable, or long) only where it is the value itself: a default, * or **
                value, line = values[node.id]
                self.orphans.add(node.id)
                text = repr(const_value(value)) if _is_folded(value) else src.atom(value)
                out.append(src.edit(node, text, f"`{node.id}` read as what it is bound to on line {line} ({_short(text)})"))
        return out

    @staticmethod
    def _pairs(target: ast.AST, value: ast.AST) -> list[tuple[ast.Name, ast.AST]]:
        if isinstance(target, ast.Name):
            return [(target, value)]
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
                and len(target.elts) == len(value.elts) and all(isinstance(t, ast.Name) for t in target.elts):
            return list(zip(target.elts, value.elts))  # type: ignore[arg-type]
        return []

    @staticmethod
    def _is_type_alias(node: ast.AnnAssign) -> bool:
        ann = node.annotation
        return isinstance(ann, (ast.Name, ast.Attribute)) and (getattr(ann, "id", None) or getattr(ann, "attr", "")) == "TypeAlias"


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _operator_names(tree: ast.Module) -> dict[str, str]:
    """Local names of the operator module's functions: `operator.eq` -> eq, `from operator import eq as e` -> e."""
    out: dict[str, str] = {}
    mods = {"operator", "_operator"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in mods and a.asname:
                    mods.add(a.asname)
        elif isinstance(node, ast.ImportFrom) and node.module in ("operator", "_operator"):
            for a in node.names:
                out[a.asname or a.name] = a.name
    out["__modules__"] = ",".join(sorted(mods))
    return out


def _operator_fn(func: ast.AST, names: dict[str, str]) -> str | None:
    mods = names["__modules__"].split(",")
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in mods:
        return func.attr
    if isinstance(func, ast.Name) and func.id in names:
        return names[func.id]
    return None


IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


class Lookups(Rewriter):
    """getattr with a constant name, attrgetter/methodcaller, operator functions, str.method(s, ...)."""

    def edits(self, tree, src):
        names = _operator_names(tree)
        out = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            if (isinstance(fn, ast.Name) and fn.id == "getattr" and len(node.args) == 2 and not node.keywords
                    and self.analyser != "ruff"):  # ruff's own B009 reads a constant getattr
                name = const_str(node.args[1])
                if name and IDENT.fullmatch(name) and "." not in name:
                    out.append(src.edit(node, f"{src.atom(node.args[0])}.{name}", f"`getattr(..., {name!r})` read as `.{name}`"))
                continue
            if isinstance(fn, ast.Call) and len(node.args) == 1 and not node.keywords:
                kind = _operator_fn(fn.func, names)
                attrs = [const_str(a) for a in fn.args]
                target = src.atom(node.args[0])
                if kind == "attrgetter" and attrs and not fn.keywords and all(a and IDENT.fullmatch(a) for a in attrs):
                    got = [f"{target}.{a}" for a in attrs]  # type: ignore[str-bytes-safe]
                    text = got[0] if len(got) == 1 else "(" + ", ".join(got) + ")"
                    out.append(src.edit(node, text, f"`attrgetter(...)` read as `{_short(text)}`"))
                elif kind == "methodcaller" and attrs and attrs[0] and IDENT.fullmatch(attrs[0]) and "." not in attrs[0]:
                    args = [src.text(a) for a in fn.args[1:]] + [f"{k.arg}={src.text(k.value)}" if k.arg else f"**{src.text(k.value)}"
                                                                 for k in fn.keywords]
                    text = f"{target}.{attrs[0]}({', '.join(args)})"
                    out.append(src.edit(node, text, f"`methodcaller(...)` read as `{_short(text)}`"))
                continue
            kind = _operator_fn(fn, names)
            args = node.args
            if kind and not node.keywords and not any(isinstance(a, ast.Starred) for a in args):
                text = None
                if kind in OPERATORS and len(args) == 2:
                    text = f"({src.atom(args[0])} {OPERATORS[kind]} {src.atom(args[1])})"
                elif kind == "contains" and len(args) == 2:
                    text = f"({src.atom(args[1])} in {src.atom(args[0])})"
                elif kind == "not_" and len(args) == 1:
                    a = args[0]
                    inner = src.text(a) if isinstance(a, (ast.Compare, ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant)) else f"({src.text(a)})"
                    text = f"(not {inner})"
                elif kind == "truth" and len(args) == 1:
                    text = f"bool({src.text(args[0])})"
                if text:
                    out.append(src.edit(node, text, f"`operator.{kind}(...)` read as `{_short(text)}`"))
                    continue
            if (isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id in STRING_TYPES
                    and args and not isinstance(args[0], ast.Starred) and fn.attr != "maketrans"):
                rest = [src.text(a) for a in args[1:]] + [f"{k.arg}={src.text(k.value)}" if k.arg else f"**{src.text(k.value)}"
                                                          for k in node.keywords]
                text = f"{src.atom(args[0])}.{fn.attr}({', '.join(rest)})"
                out.append(src.edit(node, text, f"`{fn.value.id}.{fn.attr}(s, ...)` read as `s.{fn.attr}(...)`"))
        return out


class Displays(Rewriter):
    """`(a, b)[0]`, `{"k": v}["k"]`, `f(*(a, b))`, `f(**{"k": v})`, f-strings of constants."""

    def edits(self, tree, src):
        out = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
                got = self._element(node)
                if got is not None:
                    out.append(src.edit(node, src.atom(got), "an element taken from a literal display read as itself"))
            elif isinstance(node, ast.Call):
                if any(isinstance(a, ast.Starred) and isinstance(a.value, (ast.Tuple, ast.List)) for a in node.args) or any(
                        k.arg is None and isinstance(k.value, ast.Dict) and all(
                            isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.isidentifier()
                            for key in k.value.keys) for k in node.keywords):
                    text = self._call(node, src)
                    if text:
                        out.append(src.edit(node, text, "arguments passed as a literal display read as plain arguments"))
            elif isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in node.values):
                s = const_str(node)
                if s is not None:
                    text = "f" + repr(s.replace("{", "{{").replace("}", "}}"))
                    out.append(src.edit(node, text, "an f-string whose placeholders are constants read as the text it spells"))
        return out

    @staticmethod
    def _element(node: ast.Subscript) -> ast.AST | None:
        v, i = node.value, node.slice
        if isinstance(v, (ast.Tuple, ast.List)) and isinstance(i, ast.Constant) and isinstance(i.value, int) \
                and not isinstance(i.value, bool) and not any(isinstance(e, ast.Starred) for e in v.elts):
            if -len(v.elts) <= i.value < len(v.elts):
                return v.elts[i.value]
        if isinstance(v, ast.Dict) and isinstance(i, ast.Constant) and None not in v.keys:
            for k, val in zip(v.keys, v.values):
                if isinstance(k, ast.Constant) and k.value == i.value and type(k.value) is type(i.value):
                    return val
        return None

    @staticmethod
    def _call(node: ast.Call, src: _Source) -> str | None:
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred) and isinstance(a.value, (ast.Tuple, ast.List)):
                args += [src.text(e) for e in a.value.elts]
            else:
                args.append(src.text(a))
        for k in node.keywords:
            if k.arg is None and isinstance(k.value, ast.Dict) and all(
                    isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.isidentifier() for key in k.value.keys):
                args += [f"{key.value}={src.text(val)}" for key, val in zip(k.value.keys, k.value.values)]  # type: ignore[union-attr]
            elif k.arg is None:
                args.append(f"**{src.text(k.value)}")
            else:
                args.append(f"{k.arg}={src.text(k.value)}")
        return f"{src.atom(node.func)}({', '.join(args)})"


def _blocks(tree: ast.AST):
    """Every statement list (a body, an orelse, a finally) with the node that holds it."""
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield node, field, block
        if isinstance(node, ast.Try):
            for h in node.handlers:
                yield h, "body", h.body


class Folds(Rewriter):
    """A string or bytes computed from literals (`"5dm"[::-1]`, `"/TMP".lower()`, `"/{}".format("tmp")`,
    `os.path.join("/", "tmp")`, `b"..".decode()`) is the literal it computes; `x.__call__` is `x`."""

    def edits(self, tree, src):
        in_fstrings = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for inner in ast.walk(node)}
        out = []
        for node in ast.walk(tree):
            if id(node) in in_fstrings:
                continue
            if isinstance(node, ast.Attribute) and node.attr == "__call__" and isinstance(node.ctx, ast.Load):
                out.append(src.edit(node, src.atom(node.value), "`.__call__` read as the callable itself"))
            elif not isinstance(node, (ast.JoinedStr, ast.Attribute)) and _is_folded(node):
                text = repr(const_value(node))
                out.append(src.edit(node, text, f"a string computed from literals read as the literal ({_short(text)})"))
        return out


class LambdaBindings(Rewriter):
    """(ruff, mypy) A lambda bound to a name in any other form is `name = lambda ...`: unpacked
    (`[f] = [lambda ...]`, `f, = [...]`, `f, g = lambda ..., lambda ...`), by a walrus statement
    (`(f := lambda ...)`), as a `for` target over a display of lambdas, or returned by an
    immediately called lambda (`f = (lambda: lambda x: ...)()`)."""

    def edits(self, tree, src):
        out = []
        for _, _, block in _blocks(tree):
            for stmt in block:
                pairs, head = None, None
                if isinstance(stmt, ast.Assign):
                    found = [_pair_up(t, stmt.value) for t in stmt.targets]
                    if all(f is not None for f in found):
                        pairs = [p for f in found for p in f]  # type: ignore[union-attr]
                        if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Lambda):
                            pairs = None  # already plain
                elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.NamedExpr):
                    pairs = _pair_up(stmt.value.target, stmt.value.value)
                elif isinstance(stmt, (ast.For, ast.AsyncFor)) and not stmt.orelse and isinstance(stmt.iter, (ast.List, ast.Tuple)):
                    elts = stmt.iter.elts
                    if elts and all(isinstance(_called(e), ast.Lambda) for e in elts):
                        found = [_pair_up(stmt.target, e) for e in elts]
                        if all(f is not None for f in found):
                            pairs = [p for f in found for p in f]  # type: ignore[union-attr]
                            if not all(isinstance(b, ast.Pass) or isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)
                                       for b in stmt.body):
                                head = "for _ in (0,):" if len(elts) == 1 else None
                                if head is None:
                                    pairs = None  # a loop over several functions: ordinary
                if not pairs or not any(isinstance(v, ast.Lambda) for _, v in pairs):
                    continue
                indent = src.lines[stmt.lineno - 1][:len(src.lines[stmt.lineno - 1]) - len(src.lines[stmt.lineno - 1].lstrip())]
                text = f"\n{indent}".join(f"{name} = {src.text(v)}" for name, v in pairs)
                if head is not None:
                    a = src.span(stmt)[0]
                    out.append(Edit(a, src.span(stmt.iter)[1] + 1, text + f"\n{indent}{head}", stmt.lineno,
                                    "a lambda bound by a `for` over a display read as `name = lambda ...`"))
                else:
                    out.append(src.edit(stmt, text, "a lambda bound by unpacking, a walrus, a `for` or a call read as "
                                                    "`name = lambda ...`"))
        return out


def _called(node: ast.AST) -> ast.AST:
    """`(lambda: e)()` is `e` (an immediately called lambda without parameters returns its body)."""
    while (isinstance(node, ast.Call) and isinstance(node.func, ast.Lambda) and not node.args and not node.keywords
           and not any((*node.func.args.posonlyargs, *node.func.args.args, *node.func.args.kwonlyargs,
                        node.func.args.vararg, node.func.args.kwarg))):
        node = node.func.body
    return node


def _pair_up(target: ast.AST, value: ast.AST) -> list[tuple[str, ast.AST]] | None:
    """(name, value) for each name a target binds to the matching part of a display; None when the
    shapes do not match."""
    value = _called(value)
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) and len(target.elts) == len(value.elts) \
            and not any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts)):
        out = []
        for t, v in zip(target.elts, value.elts):
            got = _pair_up(t, v)
            if got is None:
                return None
            out += got
        return out
    return None


class Statements(Rewriter):
    """Statements that only touch a name, no-op `continue`/`pass`, `for _ in (0,)`, `__all__` of
    imports, a `match` that only captures."""

    def edits(self, tree, src):
        binds = _bindings(tree)
        functions = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        imported = {name for name, nodes in binds.items() if nodes and all(isinstance(n, (ast.Import, ast.ImportFrom)) for n in nodes)}
        out = []
        for holder, field, block in _blocks(tree):
            for i, stmt in enumerate(block):
                why = None
                if isinstance(stmt, ast.Delete) and all(isinstance(t, ast.Name) for t in stmt.targets):
                    why = "`del` of a name (it only makes the name look used)"
                elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, (ast.Name, ast.Attribute)):
                    why = "a statement that only names a value"
                elif (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute)
                      and isinstance(stmt.targets[0].value, ast.Name) and stmt.targets[0].value.id in functions
                      and stmt.targets[0].attr.startswith("__")):
                    why = f"an assignment to `{stmt.targets[0].value.id}.{stmt.targets[0].attr}`"
                elif isinstance(stmt, ast.Continue) and i == len(block) - 1 and field == "body" and isinstance(holder, (ast.For, ast.AsyncFor, ast.While)):
                    why = "a `continue` that ends a loop's body"
                elif isinstance(stmt, ast.Pass) and len(block) > 1:
                    why = "a `pass` beside other statements"
                elif isinstance(stmt, ast.Match):
                    edit = self._match(stmt, src)
                    if edit:
                        out.append(edit)
                    continue
                if why:
                    out.append(src.statement_removed(stmt, block, why))
        for node in ast.walk(tree):
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) and len(node.generators) > 1:
                for g in node.generators:
                    if (isinstance(g.iter, (ast.Tuple, ast.List)) and len(g.iter.elts) == 1 and not g.ifs
                            and isinstance(g.target, ast.Name) and g.target.id == "_"):
                        a = src.offset(g.target.lineno, g.target.col_offset)
                        # from the `for` before the target to the end of the iterable
                        start = src.code.rfind("for", 0, a)
                        end = src.span(g.iter)[1]
                        while start > 0 and src.code[start - 1] in " \t":
                            start -= 1
                        if start >= 0:
                            out.append(Edit(start, end, "", g.iter.lineno, "a comprehension's `for _ in (x,)` that runs once"))
        for stmt in tree.body:
            if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                    and stmt.targets[0].id == "__all__" and isinstance(stmt.value, (ast.List, ast.Tuple))):
                keep = [e for e in stmt.value.elts if not (isinstance(e, ast.Constant) and e.value in imported)]
                if len(keep) < len(stmt.value.elts):
                    text = "[" + ", ".join(src.text(e) for e in keep) + "]"
                    out.append(src.edit(stmt.value, text, "`__all__` entries that only name imports"))
        return out

    @staticmethod
    def _match(stmt: ast.Match, src: _Source) -> Edit | None:
        if len(stmt.cases) != 1:
            return None
        case = stmt.cases[0]
        p = case.pattern
        if not (isinstance(p, ast.MatchAs) and p.pattern is None and p.name and case.guard is None):
            return None
        indent = src.lines[stmt.lineno - 1][:stmt.col_offset]
        body_start = src.starts[case.body[0].lineno - 1]
        body_end = src.span(case.body[-1])[1]
        body = src.code[body_start:body_end]
        depth = len(src.lines[case.body[0].lineno - 1]) - len(src.lines[case.body[0].lineno - 1].lstrip())
        lines = [ln[depth - len(indent):] if ln[:depth].strip() == "" else ln for ln in body.splitlines(keepends=True)]
        text = f"{p.name} = {src.text(stmt.subject)}\n" + "".join(lines)
        a = src.span(stmt)[0]
        return Edit(a, body_end, text, stmt.lineno, f"`match ...: case {p.name}:` read as an assignment")


class Annotations(Rewriter):
    """(ruff) `x: T = v` in a function is `x = v`: an annotation changes which rules apply (SIM108)."""

    def edits(self, tree, src):
        out = []
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
                    # drop `: T` between the target and ` = v`
                    out.append(Edit(src.span(node.target)[1], src.span(node.annotation)[1], "", node.lineno,
                                    "an annotated assignment read as a plain one"))
        return out


class Casts(Rewriter):
    """(mypy) `cast(T, e)` is `e`."""

    def edits(self, tree, src):
        names = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                 and n.module in ("typing", "typing_extensions") for a in n.names if a.name == "cast"}
        modules = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.Import)
                   for a in n.names if a.name in ("typing", "typing_extensions")}
        out = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords:
                fn = node.func
                if (isinstance(fn, ast.Name) and fn.id in names or isinstance(fn, ast.Attribute) and fn.attr == "cast"
                        and isinstance(fn.value, ast.Name) and fn.value.id in modules):
                    out.append(src.edit(node, src.atom(node.args[1]), "a `cast` (mypy takes it on faith) read as its value"))
        return out


class Lambdas(Rewriter):
    """(mypy) `f = lambda x: e` is `def f(x): return e` (mypy --strict checks defs, not lambdas)."""

    def edits(self, tree, src):
        out = []
        for _, _, block in _blocks(tree):
            for stmt in block:
                if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                        and isinstance(stmt.value, ast.Lambda)):
                    lam = stmt.value
                    start, body = src.span(lam)[0], src.span(lam.body)[0]
                    head = src.code[start:body]
                    colon = head.rfind(":")
                    args = " ".join(head[len("lambda"):colon].split())
                    indent = src.lines[stmt.lineno - 1][:stmt.col_offset]
                    text = f"def {stmt.targets[0].id}({args}):\n{indent}    return ({src.text(lam.body)})"
                    out.append(src.edit(stmt, text, f"`{stmt.targets[0].id} = lambda ...` read as a function"))
        return out


PYTHON_REWRITERS: dict[str, tuple[type[Rewriter], ...]] = {
    "all": (Lookups, Aliases, Displays, Folds, Statements),
    "ruff": (Annotations, LambdaBindings),
    "mypy": (Casts, LambdaBindings, Lambdas),
}


@dataclass(frozen=True)
class Seen:
    code: str  # the second view (the code itself when nothing was undone)
    undone: tuple[Undone, ...]
    orphans: frozenset[str]  # names the view no longer reads (their "unused" findings are the rewrite's)


def python_seen(code: str, analyser: str) -> Seen:
    """The code with its hiding undone for `analyser` (ruff, mypy, bandit), and what was undone."""
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return Seen(code, (), frozenset())
    rewriters = [cls(analyser) for cls in PYTHON_REWRITERS["all"] + PYTHON_REWRITERS.get(analyser, ())]
    undone: list[Undone] = []
    for _ in range(ROUNDS):
        changed = False
        for rw in rewriters:
            tree = ast.parse(code)
            edits = rw.edits(tree, _Source(code))
            if not edits:
                continue
            new, chosen = _apply(code, edits)
            try:
                ast.parse(new)
            except (SyntaxError, ValueError):
                continue  # a rewrite we could not make: the view stays as it was
            if new != code:
                code, changed = new, True
                undone += [Undone(e.line, e.what) for e in chosen]
        if not changed:
            break
    orphans = set().union(*(rw.orphans for rw in rewriters))
    return Seen(code, tuple(undone), frozenset(orphans))


# -- shell -------------------------------------------------------------------------------------

_PREFIX = re.compile(r"(?P<lead>(?:^|[;&|(`{]|\$\(|\bthen|\bdo|\belse|\bif|\bwhile|\buntil|!)\s*)"
                     r"(?:(?:command|builtin)\s+(?!-)|(?:env|nohup|nice|time|exec|timeout\s+[\d.]+[smhd]?)[ \t]+(?=[A-Za-z_])"
                     r"|\\(?=[A-Za-z_]))")
_TRIVIAL_EXPANSION = re.compile(r"\$\{(?P<name>[A-Za-z_]\w*|[0-9@*#?])(?::\+\$\{?(?P=name)\}?|:\+\"\$\{?(?P=name)\}?\"|:?-|#|%|##|%%|:0)\}")
_INDIRECT = re.compile(r"\$\{!(?P<name>[A-Za-z_]\w*)\}")
_ASSIGN = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)=(?P<value>'[^'$`\\]*'|\"[^\"$`\\]*\"|[\w./:,+-]+)\s*$")


def _target(name: str, words: dict[str, tuple[str, int]]) -> str:
    """What `${!name}` expands: the variable `name` holds the name of (when it holds one plain
    word), else `name` itself (still an unquoted expansion)."""
    word = words.get(name, ("", 0))[0]
    return word if re.fullmatch(r"[A-Za-z_]\w*|[0-9]+", word) else name


def shell_seen(code: str) -> Seen:
    """The script with `command`/`builtin`/`\\` prefixes dropped, trivial expansions plain, and
    variables set once to a plain word read as that word."""
    lines = code.splitlines(keepends=True)
    undone: list[Undone] = []
    counts: dict[str, int] = {}
    for ln in lines:
        for m in re.finditer(r"(?:^|[;\s])([A-Za-z_]\w*)(?:\+)?=", ln):
            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
        for m in re.finditer(r"\b(?:read|for|local|declare|export|readonly|typeset|let)\b[^;|&]*", ln):
            for w in re.findall(r"\b([A-Za-z_]\w*)\b", m.group(0)):
                counts[w] = counts.get(w, 0) + 1
    words: dict[str, tuple[str, int]] = {}
    for i, ln in enumerate(lines, 1):
        m = _ASSIGN.match(ln)
        if m and counts.get(m.group("name")) == 1:
            v = m.group("value")
            words[m.group("name")] = (v[1:-1] if v[:1] in "'\"" else v, i)
    out, inlined = [], set()
    for i, ln in enumerate(lines, 1):
        if ln.lstrip().startswith("#"):
            out.append(ln)
            continue
        new = _PREFIX.sub(lambda m: m.group("lead"), ln)
        new = _TRIVIAL_EXPANSION.sub(lambda m: "${" + m.group("name") + "}", new)
        if not _ASSIGN.match(ln):
            for name, (value, _) in words.items():
                if re.search(r"[\s'\"]", value) or not value:
                    continue
                newer = re.sub(r"\"\$\{?" + name + r"\}?\"|\$\{" + name + r"\}|\$" + name + r"\b", value, new)
                if newer != new:
                    inlined.add(name)
                new = newer
        new = _INDIRECT.sub(lambda m: "${" + _target(m.group("name"), words) + "}", new)
        if new != ln:
            undone.append(Undone(i, "`command`/`builtin` prefixes, trivial expansions or a variable that only holds a word "
                                    "read plainly"))
        out.append(new)
    return Seen("".join(out), tuple(undone), frozenset(inlined))
