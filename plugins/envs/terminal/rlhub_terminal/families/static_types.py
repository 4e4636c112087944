"""Static analysis, types: make `mypy --strict` clean while the hidden tests keep passing (add the
missing annotations, correct wrong ones, handle the `None` mypy found). Graded by unit_tests and
mypy together (rlhub_terminal.analysis)."""

from __future__ import annotations

import ast

from hub import Variant

from ..analysis import Module, Piece, fill, rubric
from ..family import WORDS, calls_spec, family

STRICT = {"strict": True, "disallow_any_explicit": True, "budget": 4}
RUBRIC = rubric("mypy", STRICT)
RULES = ("Do not silence the checker: `# type: ignore` and `# mypy:` comments are ignored, and explicit `Any` "
         "and `@no_type_check` count as findings.")


def annotate_prompt(what: str, code: str) -> str:
    return (f"This module {what}. Its behaviour is right (hidden tests check it), but `mypy --strict` rejects it: "
            f"it has no type annotations. Add annotations so that `mypy --strict` reports nothing, without "
            f"changing what any function returns. {RULES}\n\n```python\n{code.strip()}\n```")


def _rewrite(code: str, change) -> str:
    tree = ast.parse(code)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            change(node)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def any_annotated(reference: str) -> str:
    """The reference with every parameter and return annotated `Any`: clean only without
    disallow_any_explicit."""

    def to_any(fn: ast.FunctionDef) -> None:
        for arg in fn.args.args:
            if arg.arg != "self":
                arg.annotation = ast.Name("Any")
        fn.returns = ast.Name("Any")

    return "from typing import Any\n\n" + _rewrite(reference, to_any)


def unchecked(flawed: str) -> str:
    """The module with `@no_type_check` on every function: mypy --strict alone would accept it."""

    def off(fn: ast.FunctionDef) -> None:
        fn.decorator_list.insert(0, ast.Name("no_type_check"))

    return "from typing import no_type_check\n\n" + _rewrite(flawed, off)


def escape_hatches(module: Module) -> list[Variant]:
    return [Variant("Any annotations", any_annotated(module.reference), 1, "every annotation is `Any`"),
            Variant("checking switched off", unchecked(module.flawed), 1, "`@no_type_check` on every function")]


def numbers(rng, n: int, lo: int = -50, hi: int = 50) -> list[float]:
    return [round(rng.uniform(lo, hi), 2) for _ in range(n)]


@family("static", "static-mypy-annotate-stats", rubric=RUBRIC)
def mypy_annotate_stats(rng):
    """Annotate a statistics module until mypy --strict is clean."""
    n = dict(mean=rng.choice(["mean", "average", "avg"]), spread=rng.choice(["spread", "value_range", "span"]),
             scale=rng.choice(["scaled", "rescaled", "times"]), clamp=rng.choice(["clamp", "bounded", "limit"]),
             summary=rng.choice(["summary", "describe", "stats"]), d=rng.randint(2, 4), hi=rng.choice([1.0, 10.0, 100.0]))
    module = Module((
        Piece(fill("def $mean(xs):\n    return round(sum(xs) / len(xs), $d)\n\n\n", **n),
              fill("def $mean(xs: list[float]) -> float:\n    return round(sum(xs) / len(xs), $d)\n\n\n", **n),
              broken=fill("def $mean(xs: list[float]) -> float:\n    return round(sum(xs) / max(len(xs) - 1, 1), $d)\n\n\n", **n)),
        Piece(fill("def $spread(xs):\n    return max(xs) - min(xs)\n\n\n", **n),
              fill("def $spread(xs: list[float]) -> float:\n    return max(xs) - min(xs)\n\n\n", **n)),
        Piece(fill("def $scale(xs, factor):\n    return [round(x * factor, $d) for x in xs]\n\n\n", **n),
              fill("def $scale(xs: list[float], factor: float) -> list[float]:\n    return [round(x * factor, $d) for x in xs]\n\n\n", **n)),
        Piece(fill("def $clamp(x, lo=0.0, hi=$hi):\n    return min(max(x, lo), hi)\n\n\n", **n),
              fill("def $clamp(x: float, lo: float = 0.0, hi: float = $hi) -> float:\n    return min(max(x, lo), hi)\n\n\n", **n),
              broken=fill("def $clamp(x: float, lo: float = 0.0, hi: float = $hi) -> float:\n    return max(min(x, lo), hi)\n\n\n", **n)),
        Piece(fill('def $summary(xs):\n    return {"n": len(xs), "$mean": $mean(xs), "$spread": $spread(xs)}\n', **n),
              fill('def $summary(xs: list[float]) -> dict[str, float]:\n    return {"n": len(xs), "$mean": $mean(xs), "$spread": $spread(xs)}\n', **n)),
    ))
    calls = []
    for _ in range(2):
        xs = numbers(rng, rng.randint(2, 7))
        calls += [(n["mean"], (xs,)), (n["spread"], (xs,)), (n["summary"], (xs,))]
    calls += [(n["scale"], (numbers(rng, 4), rng.choice([0.5, 2, 3.25]))),
              (n["clamp"], (round(rng.uniform(-5, n["hi"] + 5), 2),)), (n["clamp"], (round(n["hi"] / 3, 2),)),
              (n["clamp"], (n["hi"] * 2, -1.0, n["hi"] / 2)), (n["clamp"], (-3, -1.0, n["hi"])),
              (n["clamp"], (-0.5,)), (n["scale"], ([1 / 3, 2 / 7], 1))]  # the default lower bound; digits to round
    prompt = annotate_prompt("computes simple statistics of lists of numbers (ints or floats)", module.flawed)
    return calls_spec(prompt, module.reference, module.wrong("  # type: ignore", "missing annotation") + escape_hatches(module), calls)


@family("static", "static-mypy-annotate-records", rubric=RUBRIC)
def mypy_annotate_records(rng):
    """Annotate a module that indexes and groups records until mypy --strict is clean."""
    key, other = rng.sample(["city", "team", "kind", "owner", "color"], 2)
    n = dict(index=rng.choice(["index_by", "by_key", "keyed"]), count=rng.choice(["group_counts", "count_by", "tally"]),
             pluck=rng.choice(["pluck", "column", "values_of"]), miss=rng.choice(["?", "-", "n/a"]))
    module = Module((
        Piece(fill("def $index(rows, key):\n    return {row[key]: row for row in rows}\n\n\n", **n),
              fill("def $index(rows: list[dict[str, str]], key: str) -> dict[str, dict[str, str]]:\n"
                   "    return {row[key]: row for row in rows}\n\n\n", **n)),
        Piece(fill("def $count(rows, key):\n    counts = {}\n    for row in rows:\n"
                   "        counts[row[key]] = counts.get(row[key], 0) + 1\n    return counts\n\n\n", **n),
              fill("def $count(rows: list[dict[str, str]], key: str) -> dict[str, int]:\n    counts: dict[str, int] = {}\n"
                   "    for row in rows:\n        counts[row[key]] = counts.get(row[key], 0) + 1\n    return counts\n\n\n", **n),
              broken=fill("def $count(rows: list[dict[str, str]], key: str) -> dict[str, int]:\n    counts: dict[str, int] = {}\n"
                          "    for row in rows:\n        counts[row[key]] = 1\n    return counts\n\n\n", **n)),
        Piece(fill('def $pluck(rows, key, default="$miss"):\n    return [row.get(key, default) for row in rows]\n', **n),
              fill('def $pluck(rows: list[dict[str, str]], key: str, default: str = "$miss") -> list[str]:\n'
                   '    return [row.get(key, default) for row in rows]\n', **n)),
    ))
    rows = [{"name": w, key: rng.choice(["a", "b", "c"]), **({other: rng.choice(WORDS)} if rng.random() < 0.6 else {})}
            for w in rng.sample(WORDS, rng.randint(4, 8))]
    calls = [(n["index"], (rows, "name")), (n["count"], (rows, key)), (n["pluck"], (rows, other)),
             (n["pluck"], (rows, other, "none")), (n["count"], (rows[:2], key)), (n["index"], ([], key))]
    prompt = annotate_prompt(f"indexes and groups records (lists of dicts mapping str to str, e.g. {rows[0]!r})",
                             module.flawed)
    return calls_spec(prompt, module.reference, module.wrong("  # type: ignore", "missing annotation") + escape_hatches(module), calls)


@family("static", "static-mypy-annotate-text", rubric=RUBRIC)
def mypy_annotate_text(rng):
    """Annotate a text-helpers module until mypy --strict is clean."""
    n = dict(slug=rng.choice(["slugify", "to_slug", "make_slug"]), sep=rng.choice(["-", "_", "."]),
             trunc=rng.choice(["truncate", "shorten", "clip"]), mark=rng.choice(["...", "~", "+"]),
             lens=rng.choice(["word_lengths", "lengths", "sizes"]), ini=rng.choice(["initials", "monogram", "abbrev"]))
    module = Module((
        Piece(fill('def $slug(text):\n    words = "".join(c if c.isalnum() else " " for c in text.lower()).split()\n'
                   '    return "$sep".join(words)\n\n\n', **n),
              fill('def $slug(text: str) -> str:\n    words = "".join(c if c.isalnum() else " " for c in text.lower()).split()\n'
                   '    return "$sep".join(words)\n\n\n', **n)),
        Piece(fill('def $trunc(text, width):\n    if len(text) <= width:\n        return text\n'
                   '    return text[: max(width - len("$mark"), 0)] + "$mark"\n\n\n', **n),
              fill('def $trunc(text: str, width: int) -> str:\n    if len(text) <= width:\n        return text\n'
                   '    return text[: max(width - len("$mark"), 0)] + "$mark"\n\n\n', **n),
              broken=fill('def $trunc(text: str, width: int) -> str:\n    return text[:width] + "$mark"\n\n\n', **n)),
        Piece(fill("def $lens(text):\n    return {w: len(w) for w in text.split()}\n\n\n", **n),
              fill("def $lens(text: str) -> dict[str, int]:\n    return {w: len(w) for w in text.split()}\n\n\n", **n)),
        Piece(fill('def $ini(name, dots=True):\n    letters = [p[0].upper() for p in name.split()]\n'
                   '    return ("." if dots else "").join(letters) + ("." if dots and letters else "")\n', **n),
              fill('def $ini(name: str, dots: bool = True) -> str:\n    letters = [p[0].upper() for p in name.split()]\n'
                   '    return ("." if dots else "").join(letters) + ("." if dots and letters else "")\n', **n)),
    ))
    phrases = [" ".join(rng.sample(WORDS, rng.randint(2, 5))) for _ in range(3)]
    calls = [(n["slug"], (f"{phrases[0].title()}! {rng.randint(1, 99)}",)), (n["slug"], (f"  {phrases[1]} -- ok ",)),
             (n["trunc"], (phrases[2], rng.randint(4, 12))), (n["trunc"], ("short", 10)), (n["lens"], (phrases[1],)),
             (n["ini"], (phrases[0],)), (n["ini"], (phrases[2], False)), (n["ini"], ("", True)),
             (n["trunc"], ("exact", 5)), (n["trunc"], ("abcdef", 1)), (n["trunc"], ("abcdef", 0))]  # at and below the mark
    prompt = annotate_prompt("holds small text helpers", module.flawed)
    return calls_spec(prompt, module.reference, module.wrong("  # type: ignore", "missing annotation") + escape_hatches(module), calls)


@family("static", "static-mypy-annotate-class", rubric=RUBRIC)
def mypy_annotate_class(rng):
    """Annotate a small stateful class and its driver until mypy --strict is clean."""
    n = dict(cls=rng.choice(["Bin", "Shelf", "Locker", "Crate"]), run=rng.choice(["replay", "simulate", "run_ops"]))
    module = Module((
        Piece(fill("class $cls:\n", **n)),
        Piece("    def __init__(self, limit):\n        self.limit = limit\n        self.items = {}\n\n",
              "    def __init__(self, limit: int) -> None:\n        self.limit = limit\n        self.items: dict[str, int] = {}\n\n"),
        Piece("    def add(self, name, qty=1):\n        if qty <= 0 or sum(self.items.values()) + qty > self.limit:\n"
              "            return False\n        self.items[name] = self.items.get(name, 0) + qty\n        return True\n\n",
              "    def add(self, name: str, qty: int = 1) -> bool:\n        if qty <= 0 or sum(self.items.values()) + qty > self.limit:\n"
              "            return False\n        self.items[name] = self.items.get(name, 0) + qty\n        return True\n\n",
              broken="    def add(self, name: str, qty: int = 1) -> bool:\n        if qty <= 0:\n            return False\n"
                     "        self.items[name] = self.items.get(name, 0) + qty\n        return True\n\n"),
        Piece("    def take(self, name, qty=1):\n        have = self.items.get(name, 0)\n        n = min(have, qty)\n"
              "        if n == have:\n            self.items.pop(name, None)\n        else:\n            self.items[name] = have - n\n"
              "        return n\n\n",
              "    def take(self, name: str, qty: int = 1) -> int:\n        have = self.items.get(name, 0)\n        n = min(have, qty)\n"
              "        if n == have:\n            self.items.pop(name, None)\n        else:\n            self.items[name] = have - n\n"
              "        return n\n\n"),
        Piece("    def report(self):\n        return sorted(self.items.items())\n\n\n",
              "    def report(self) -> list[tuple[str, int]]:\n        return sorted(self.items.items())\n\n\n"),
        Piece(fill('def $run(limit, ops):\n    box = $cls(limit)\n    out = []\n    for op, name, qty in ops:\n'
                   '        out.append(box.add(name, qty) if op == "add" else box.take(name, qty))\n    return out, box.report()\n', **n),
              fill('def $run(limit: int, ops: list[tuple[str, str, int]]) -> tuple[list[int], list[tuple[str, int]]]:\n'
                   '    box = $cls(limit)\n    out: list[int] = []\n    for op, name, qty in ops:\n'
                   '        out.append(box.add(name, qty) if op == "add" else box.take(name, qty))\n    return out, box.report()\n', **n)),
    ))
    calls = []
    for _ in range(4):
        names = rng.sample(WORDS, 3)
        ops = [[rng.choice(["add", "add", "take"]), rng.choice(names), rng.randint(0, 6)] for _ in range(rng.randint(4, 9))]
        calls.append((n["run"], (rng.randint(5, 15), ops)))
    full = rng.sample(WORDS, 2)  # one replay that runs into the limit
    calls.append((n["run"], (5, [["add", full[0], 4], ["add", full[1], 3], ["take", full[0], 2], ["add", full[1], 1],
                                 ["add", full[1], 2]])))  # a qty of 1; then exactly up to the limit
    prompt = (annotate_prompt(f"keeps a bounded stock of named items; `{n['run']}(limit, ops)` replays operations "
                              "(ops: lists of [op, name, qty]) and returns the results and the final report", module.flawed))
    spec = calls_spec(prompt, module.reference, module.wrong("  # type: ignore", "missing annotation") + escape_hatches(module),
                      calls)
    unreached = "the replay passes every qty: the methods' defaults are not reached through it (the tests call functions only)"
    spec.equivalent.update({"-> `def add(self, name: str, qty: int = ": unreached, "-> `def take(self, name: str, qty: int = ": unreached})
    return spec


@family("static", "static-mypy-optional", rubric=RUBRIC)
def mypy_optional(rng):
    """Fix the None-handling bugs mypy --strict reports in a price module."""
    n = dict(find=rng.choice(["find_price", "price_of", "lookup"]), line=rng.choice(["line_total", "cost", "subtotal"]),
             cheap=rng.choice(["cheapest", "best_buy", "lowest"]))
    module = Module((
        Piece(fill("def $find(prices: dict[str, float], name: str) -> float | None:\n"
                   "    return prices.get(name.strip().lower())\n\n\n", **n)),
        Piece(fill("def $line(prices: dict[str, float], name: str, qty: int) -> float:\n"
                   "    return round($find(prices, name) * qty, 2)\n\n\n", **n),
              fill("def $line(prices: dict[str, float], name: str, qty: int) -> float:\n    price = $find(prices, name)\n"
                   "    return 0.0 if price is None else round(price * qty, 2)\n\n\n", **n),
              broken=fill("def $line(prices: dict[str, float], name: str, qty: int) -> float:\n"
                          "    return round(cast(float, $find(prices, name)) * qty, 2)\n\n\n", **n)),
        Piece(fill("def $cheap(prices: dict[str, float], names: list[str]) -> str:\n    best = None\n    for name in names:\n"
                   "        price = $find(prices, name)\n        if price is not None and (best is None or price < $find(prices, best)):\n"
                   "            best = name\n    return best\n", **n),
              fill("def $cheap(prices: dict[str, float], names: list[str]) -> str:\n    best, best_price = \"\", 0.0\n"
                   "    for name in names:\n        price = $find(prices, name)\n"
                   "        if price is not None and (not best or price < best_price):\n            best, best_price = name, price\n"
                   "    return best\n", **n)),
    ))
    items = rng.sample(WORDS, 6)
    prices = {w: round(rng.uniform(0.5, 20), 2) for w in items[:4]}
    calls = [(n["line"], (prices, items[0].upper(), rng.randint(1, 9))), (n["line"], (prices, f" {items[1]} ", 3)),
             (n["line"], (prices, items[4], 2)), (n["cheap"], (prices, rng.sample(items, 4))),
             (n["cheap"], (prices, [items[5], items[4]])), (n["cheap"], (prices, [])), (n["find"], (prices, items[5])),
             (n["cheap"], ({items[0]: 5.0, items[1]: 5.0}, [items[4], items[1], items[0]]))]  # a tie: the first name wins
    prompt = (f"`mypy --strict` reports errors in this module, and they are real bugs: `{n['line']}` crashes for an "
              f"unknown item and `{n['cheap']}` can return None. Fix them: an unknown item costs 0.0 in `{n['line']}`, "
              f"and `{n['cheap']}` returns \"\" when none of the names has a price (ties: the first name wins). "
              f"Names are matched case-insensitively, ignoring surrounding spaces, as `{n['find']}` does. "
              f"Afterwards `mypy --strict` must report nothing. {RULES}\n\n```python\n{module.flawed.strip()}\n```")
    spec = calls_spec(prompt, module.reference, _with_cast_import(module.wrong("  # type: ignore", "None-handling bug")), calls)
    unread = "best_price is read only once best is set, and it is set with it"
    spec.equivalent.update({"-> `best, best_price = \"\", 1.0`": unread, "-> `best, best_price = \"\", -1.0`": unread,
                            "round(price * qty, 3)`": "prices have 2 decimals and qty is whole: the product has 2 decimals"})
    return spec


def _with_cast_import(variants: list[Variant]) -> list[Variant]:
    return [Variant(v.kind, "from typing import cast\n\n\n" + v.response, v.size, v.note) if "cast(" in v.response else v
            for v in variants]


@family("static", "static-mypy-wrong-annotations", rubric=RUBRIC)
def mypy_wrong_annotations(rng):
    """Correct annotations that contradict what the (correct) code returns."""
    n = dict(ratio=rng.choice(["ratio", "share", "progress"]), label=rng.choice(["label", "tag", "code_for"]),
             first=rng.choice(["first_word", "head", "lead_word"]), totals=rng.choice(["totals", "sums", "group_sums"]),
             d=rng.randint(1, 3), p=rng.choice(["item", "job", "row", "ticket"]), w=rng.randint(2, 4))
    module = Module((
        Piece(fill("def $ratio(done: int, total: int) -> int:\n    return round(done / total, $d)\n\n\n", **n),
              fill("def $ratio(done: int, total: int) -> float:\n    return round(done / total, $d)\n\n\n", **n),
              broken=fill("def $ratio(done: int, total: int) -> int:\n    return done // total\n\n\n", **n)),
        Piece(fill('def $label(n: int, prefix: str = "$p") -> int:\n    return f"{prefix}-{n:0${w}d}"\n\n\n', **n),
              fill('def $label(n: int, prefix: str = "$p") -> str:\n    return f"{prefix}-{n:0${w}d}"\n\n\n', **n),
              broken=fill('def $label(n: int, prefix: str = "$p") -> int:\n    return n\n\n\n', **n)),
        Piece(fill("def $first(text: str) -> str:\n    words = text.split()\n    return words[0] if words else None\n\n\n", **n),
              fill("def $first(text: str) -> str | None:\n    words = text.split()\n    return words[0] if words else None\n\n\n", **n),
              broken=fill('def $first(text: str) -> str:\n    words = text.split()\n    return words[0] if words else ""\n\n\n', **n)),
        Piece(fill("def $totals(groups: dict[str, list[int]]) -> dict[str, str]:\n"
                   "    return {k: sum(v) for k, v in groups.items()}\n", **n),
              fill("def $totals(groups: dict[str, list[int]]) -> dict[str, int]:\n"
                   "    return {k: sum(v) for k, v in groups.items()}\n", **n)),
    ))
    groups = {w: [rng.randint(-9, 30) for _ in range(rng.randint(0, 4))] for w in rng.sample(WORDS, 3)}
    calls = [(n["ratio"], (rng.randint(1, 40), rng.randint(41, 90))), (n["ratio"], (3, 3)),
             (n["label"], (rng.randint(1, 500),)), (n["label"], (rng.randint(1, 9), "x")),
             (n["first"], (" ".join(rng.sample(WORDS, 3)),)), (n["first"], ("   ",)), (n["totals"], (groups,))]
    prompt = (f"The functions in this module behave correctly (hidden tests check them), but some of their type "
              f"annotations are wrong, so `mypy --strict` reports errors. Correct the annotations so that `mypy --strict` "
              f"reports nothing; do not change what any function returns. {RULES}\n\n```python\n{module.flawed.strip()}\n```")
    return calls_spec(prompt, module.reference, module.wrong("  # type: ignore", "wrong annotation"), calls)
