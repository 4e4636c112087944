"""Static analysis, lint: fix every `ruff` finding of the selected rule families without changing
behaviour (hidden tests check it). Graded by unit_tests and ruff together (rlhub_terminal.analysis)."""

from __future__ import annotations

from ..analysis import Module, Piece, fill, rubric
from ..family import NAMES, WORDS, calls_spec, family


def ruff(select: list[str], budget: float = 5) -> dict:
    return rubric("ruff", {"select": select, "budget": budget, "line_length": 88, "target_version": "py310"})


def lint_prompt(what: str, select: list[str], module: Module) -> str:
    return (f"This module {what}. Its behaviour is right (hidden tests check it), but "
            f"`ruff check --select {','.join(select)} --target-version py310 --line-length 88` reports findings. "
            f"Fix every finding without changing what any function returns. `# noqa` comments are ignored: fix, "
            f"do not silence.\n\n```python\n{module.flawed.strip()}\n```")


def text_of(rng, n: int) -> str:
    return " ".join(rng.choice(WORDS[:8]) for _ in range(n))


UNUSED = ["F"]


@family("static", "static-ruff-unused", rubric=ruff(UNUSED))
def ruff_unused(rng):
    """Remove unused imports and variables, placeholder-less f-strings and shadowed definitions."""
    n = dict(unused=rng.choice(["os", "sys", "math", "json", "itertools"]), extra=rng.choice(["defaultdict", "OrderedDict", "deque"]),
             count=rng.choice(["word_counts", "tally", "frequencies"]), top=rng.choice(["top_words", "most_common", "leaders"]),
             longest=rng.choice(["longest_word", "longest", "max_word"]), tag=rng.choice(["top", "best", "lead"]))
    module = Module((
        Piece(fill("import $unused\n", **n), ""),
        Piece(fill("from collections import Counter, $extra\n\n\n", **n), "from collections import Counter\n\n\n"),
        Piece(fill("def $count(text):\n    words = text.lower().split()\n    total = len(words)\n    return dict(Counter(words))\n\n\n", **n),
              fill("def $count(text):\n    words = text.lower().split()\n    return dict(Counter(words))\n\n\n", **n),
              broken=fill("def $count(text):\n    words = text.split()\n    return dict(Counter(words))\n\n\n", **n)),
        Piece(fill('def $top(text, n):\n    counts = $count(text)\n    label = f"$tag"\n'
                   '    return [label] + sorted(counts, key=lambda w: (-counts[w], w))[:n]\n\n\n', **n),
              fill('def $top(text, n):\n    counts = $count(text)\n    label = "$tag"\n'
                   '    return [label] + sorted(counts, key=lambda w: (-counts[w], w))[:n]\n\n\n', **n)),
        Piece(fill("def $longest(text):\n    return text\n\n\n", **n), ""),
        Piece(fill("def $longest(text):\n    try:\n        return max(text.split(), key=len)\n    except ValueError as error:\n"
                   '        return ""\n', **n),
              fill("def $longest(text):\n    try:\n        return max(text.split(), key=len)\n    except ValueError:\n"
                   '        return ""\n', **n)),
    ))
    texts = [text_of(rng, rng.randint(3, 12)).title() for _ in range(3)]
    calls = [(n["count"], (texts[0],)), (n["top"], (texts[1], rng.randint(1, 3))), (n["top"], (texts[2], 5)),
             (n["longest"], (texts[0],)), (n["longest"], ("",)), (n["count"], ("",))]
    return calls_spec(lint_prompt("counts words", UNUSED, module), module.reference,
                      module.wrong("  # noqa", "finding"), calls)


COMPARISONS = ["E7"]


@family("static", "static-ruff-comparisons", rubric=ruff(COMPARISONS))
def ruff_comparisons(rng):
    """Fix comparison style findings (== None, == True, not in, type(), lambda assignment, ambiguous names)."""
    n = dict(cls=rng.choice(["classify", "kind_of", "check_value"]), even=rng.choice(["is_even", "even", "divisible"]),
             flags=rng.choice(["count_flags", "true_count", "flags_set"]), k=rng.choice([2, 3, 5]),
             miss=rng.choice(["missing", "none", "empty"]), unk=rng.choice(["unknown", "other", "foreign"]))
    module = Module((
        Piece(fill("def $cls(value, allowed):\n", **n)),
        Piece(fill('    if value == None:\n        return "$miss"\n', **n), fill('    if value is None:\n        return "$miss"\n', **n),
              broken=fill('    if not value:\n        return "$miss"\n', **n)),
        Piece('    if type(value) == bool:\n        return "flag"\n', '    if type(value) is bool:\n        return "flag"\n'),
        Piece(fill('    if not value in allowed:\n        return "$unk"\n    return "ok"\n\n\n', **n),
              fill('    if value not in allowed:\n        return "$unk"\n    return "ok"\n\n\n', **n)),
        Piece(fill("$even = lambda x: x % $k == 0\n\n\n", **n), fill("def $even(x):\n    return x % $k == 0\n\n\n", **n)),
        Piece(fill("def $flags(items):\n    l = [x for x in items if x == True]\n    return len(l)\n", **n),
              fill("def $flags(items):\n    found = [x for x in items if x is True]\n    return len(found)\n", **n),
              broken=fill("def $flags(items):\n    found = [x for x in items if x]\n    return len(found)\n", **n)),
    ))
    allowed = rng.sample(WORDS, 3)
    calls = [(n["cls"], (None, allowed)), (n["cls"], (True, allowed)), (n["cls"], (allowed[1], allowed)),
             (n["cls"], (rng.choice(WORDS[10:]), allowed)), (n["cls"], (0, [0, 1])), (n["cls"], ("", allowed)),
             (n["even"], (rng.randint(0, 50) * n["k"],)), (n["even"], (n["k"] * 3 + 1,)),
             (n["flags"], ([True, False, "yes", True, "", rng.choice([True, False])],)), (n["flags"], ([True, True, False],))]
    prompt = lint_prompt("classifies values (None, booleans, strings, numbers) and counts `True` flags in lists of "
                         "booleans and strings", COMPARISONS, module)
    return calls_spec(prompt, module.reference, module.wrong("  # noqa", "finding"), calls)


BUGBEAR = ["B", "E722"]


@family("static", "static-ruff-bugbear", rubric=ruff(BUGBEAR))
def ruff_bugbear(rng):
    """Fix bugbear findings (mutable defaults, unused loop variables, bare except, getattr with a constant, zip)."""
    n = dict(total=rng.choice(["total", "grand_total", "sum_all"]), parse=rng.choice(["parse_ints", "to_ints", "ints"]),
             pairs=rng.choice(["pairs", "zipped", "matched"]), attr=rng.choice(["name", "title", "label"]),
             get=rng.choice(["get_label", "label_of", "read_label"]), bad=rng.choice([-1, 0, None]))
    module = Module((
        Piece(fill("def $total(xs, extra=[]):\n    return sum(xs) + sum(extra)\n\n\n", **n),
              fill("def $total(xs, extra=()):\n    return sum(xs) + sum(extra)\n\n\n", **n)),
        Piece(fill("def $parse(items):\n    out = []\n    for i, item in enumerate(items):\n        try:\n"
                   "            out.append(int(item))\n        except:\n            out.append($bad)\n    return out\n\n\n", **n),
              fill("def $parse(items):\n    out = []\n    for item in items:\n        try:\n"
                   "            out.append(int(item))\n        except ValueError:\n            out.append($bad)\n    return out\n\n\n", **n),
              broken=fill("def $parse(items):\n    out = []\n    for item in items:\n        try:\n"
                          "            out.append(int(item))\n        except TypeError:\n            out.append($bad)\n    return out\n\n\n", **n)),
        Piece(fill("def $pairs(keys, values):\n    return list(zip(keys, values))\n\n\n", **n),
              fill("def $pairs(keys, values):\n    return list(zip(keys, values, strict=False))\n\n\n", **n),
              broken=fill("def $pairs(keys, values):\n    return list(zip(keys, values, strict=True))\n\n\n", **n)),
        Piece(fill('def $get(obj):\n    return getattr(obj, "$attr")\n', **n), fill("def $get(obj):\n    return obj.$attr\n", **n)),
    ))
    keys = rng.sample(NAMES, rng.randint(3, 5))
    calls = [(n["total"], ([rng.randint(-9, 9) for _ in range(4)],)), (n["total"], ([1, 2], [rng.randint(1, 9)])),
             (n["parse"], ([str(rng.randint(-99, 99)), "x" + rng.choice(WORDS), " 7 ", "3.5"],)),
             (n["pairs"], (keys, list(range(len(keys) - 1)))), (n["pairs"], (keys[:2], [True, False])),
             (n["total"], ([],))]
    prompt = lint_prompt(f"sums, parses and pairs values (`{n['parse']}` maps strings that are not integers to {n['bad']!r}; "
                         f"`{n['pairs']}` stops at the shorter list)", BUGBEAR, module)
    spec = calls_spec(prompt, module.reference, module.wrong("  # noqa", "finding"), calls)
    # not equivalent: untestable here. unit_tests passes the solution plain values only (its process
    # boundary), and no plain value has the attribute; the analyser still grades the getattr fix
    untested = f"no plain value has .{n['attr']}, and unit_tests passes the solution plain values only: {n['get']} is not called"
    spec.equivalent.update({f"StatementRemoved: `return obj.{n['attr']}` -> `pass`": untested,
                            f"-> `return type(obj)().{n['attr']}`": untested})
    return spec


MODERNIZE = ["UP"]


@family("static", "static-ruff-modernize", rubric=ruff(MODERNIZE))
def ruff_modernize(rng):
    """Modernize a module for Python 3.10 (builtin generics, X | None, f-strings, super(), open modes)."""
    n = dict(cls=rng.choice(["Tally", "Counter2", "Ledger"]), base=rng.choice(["Store", "Base", "Record"]),
             fmt=rng.choice(["describe", "render", "show"]), unit=rng.choice(["items", "units", "pcs"]),
             pick=rng.choice(["first_over", "find_over", "above"]))
    module = Module((
        Piece("from typing import Dict, List, Optional\n\n\n", "", needed=True),
        Piece(fill("class $base(object):\n    def __init__(self, name):\n        self.name = name\n\n\n", **n),
              fill("class $base:\n    def __init__(self, name):\n        self.name = name\n\n\n", **n)),
        Piece(fill("class $cls($base):\n", **n)),
        Piece(fill("    def __init__(self, name, counts: Dict[str, int]):\n        super($cls, self).__init__(name)\n"
                   "        self.counts = counts\n\n", **n),
              fill("    def __init__(self, name, counts: dict[str, int]):\n        super().__init__(name)\n"
                   "        self.counts = counts\n\n", **n)),
        Piece(fill('    def $fmt(self) -> List[str]:\n        return ["{}: {} $unit".format(k, v) for k, v in sorted(self.counts.items())]\n\n\n', **n),
              fill('    def $fmt(self) -> list[str]:\n        return [f"{k}: {v} $unit" for k, v in sorted(self.counts.items())]\n\n\n', **n),
              broken=fill('    def $fmt(self) -> list[str]:\n        return [f"{k}: {v}" for k, v in sorted(self.counts.items())]\n\n\n', **n)),
        Piece(fill("def $pick(xs: List[int], limit: int) -> Optional[int]:\n    for x in xs:\n        if x > limit:\n"
                   "            return x\n    return None\n\n\n", **n),
              fill("def $pick(xs: list[int], limit: int) -> int | None:\n    for x in xs:\n        if x > limit:\n"
                   "            return x\n    return None\n\n\n", **n)),
        Piece(fill('def lines(name, counts: Dict[str, int]) -> List[str]:\n    return [$cls(name, counts).name] + $cls(name, counts).$fmt()\n', **n),
              fill('def lines(name, counts: dict[str, int]) -> list[str]:\n    return [$cls(name, counts).name] + $cls(name, counts).$fmt()\n', **n)),
    ))
    counts = {w: rng.randint(0, 40) for w in rng.sample(WORDS, rng.randint(2, 5))}
    xs = [rng.randint(-20, 40) for _ in range(6)]
    calls = [("lines", (rng.choice(NAMES), counts)), ("lines", ("empty", {})), (n["pick"], (xs, rng.randint(-5, 20))),
             (n["pick"], (xs, 100)), (n["pick"], ([1, 5, 9], 5)), (n["pick"], ([7, 2], 1))]  # a value at the limit
    spec = calls_spec(lint_prompt("formats counts and picks values", MODERNIZE, module), module.reference,
                      module.wrong("  # noqa", "finding"), calls)
    spec.equivalent.update({"+ Counter2(type(name)(), counts)": "the second object's name is never shown",
                            "[Counter2(name, type(counts)()).name]": "the first object is only asked its name"})
    for cls in ("Tally", "Counter2", "Ledger"):  # the class name varies with the seed
        spec.equivalent[f"+ {cls}(type(name)(), counts)"] = "the second object's name is never shown"
        spec.equivalent[f"[{cls}(name, type(counts)()).name]"] = "the first object is only asked its name"
    return spec


SIMPLIFY = ["SIM", "C4"]


@family("static", "static-ruff-simplify", rubric=ruff(SIMPLIFY))
def ruff_simplify(rng):
    """Simplify code the way flake8-simplify and flake8-comprehensions ask (ternaries, any(), dict membership)."""
    n = dict(grade=rng.choice(["grade", "verdict", "rating"]), cut=rng.randint(40, 70), hi=rng.choice(["pass", "ok", "good"]),
             lo=rng.choice(["fail", "low", "bad"]), has=rng.choice(["has_negative", "any_below", "dips"]),
             known=rng.choice(["known", "is_known", "present"]), uniq=rng.choice(["unique_lengths", "lengths", "sizes"]),
             copy=rng.choice(["copy_all", "as_list", "listed"]))
    module = Module((
        Piece(fill('def $grade(score):\n    if score >= $cut:\n        result = "$hi"\n    else:\n        result = "$lo"\n    return result\n\n\n', **n),
              fill('def $grade(score):\n    return "$hi" if score >= $cut else "$lo"\n\n\n', **n),
              broken=fill('def $grade(score):\n    return "$hi" if score > $cut else "$lo"\n\n\n', **n)),
        Piece(fill("def $has(xs, floor):\n    for x in xs:\n        if x < floor:\n            return True\n    return False\n\n\n", **n),
              fill("def $has(xs, floor):\n    return any(x < floor for x in xs)\n\n\n", **n)),
        Piece(fill("def $known(table, key):\n    if key in table.keys():\n        if table[key] is not None:\n"
                   "            return True\n    return False\n\n\n", **n),
              fill("def $known(table, key):\n    return key in table and table[key] is not None\n\n\n", **n)),
        Piece(fill("def $uniq(words):\n    return sorted(set(len(w) for w in words))\n\n\n", **n),
              fill("def $uniq(words):\n    return sorted({len(w) for w in words})\n\n\n", **n)),
        Piece(fill("def $copy(xs):\n    out = dict()\n    out['items'] = [x for x in xs]\n    return out\n", **n),
              fill("def $copy(xs):\n    out = {}\n    out['items'] = list(xs)\n    return out\n", **n)),
    ))
    table = {w: rng.choice([None, rng.randint(0, 9)]) for w in rng.sample(WORDS, 4)}
    calls = [(n["grade"], (n["cut"],)), (n["grade"], (rng.randint(0, n["cut"] - 1),)), (n["grade"], (rng.randint(n["cut"], 100),)),
             (n["has"], ([rng.randint(0, 9) for _ in range(5)], rng.randint(1, 5))), (n["has"], ([], 0)),
             (n["known"], (table, rng.choice(list(table)))), (n["known"], (table, "zzz")),
             (n["known"], ({"a": None, "b": 0}, "a")), (n["known"], ({"a": None, "b": 0}, "b")),
             (n["uniq"], (rng.sample(WORDS, 5),)), (n["copy"], ((1, 2, 3),)),
             (n["grade"], (n["cut"] - 1,)), (n["has"], ([3, 5], 3)), (n["has"], ([5, 0, 7], 1))]  # at each boundary
    return calls_spec(lint_prompt("grades scores and inspects collections", SIMPLIFY, module), module.reference,
                      module.wrong("  # noqa", "finding"), calls)


STYLE = ["E4", "E5", "E7", "E9", "W", "I"]


@family("static", "static-ruff-style", rubric=ruff(STYLE))
def ruff_style(rng):
    """Fix layout findings: import order, one import per line, long lines, one statement per line, escapes."""
    n = dict(fn=rng.choice(["extract_ids", "find_ids", "ids_in"]), pre=rng.choice(["ID", "REF", "NO"]),
             fmt=rng.choice(["report", "summary_line", "banner"]), word=rng.choice(["entries", "matches", "records"]))
    long_line = fill('    return f"{title}: {len(ids)} $word found, first={ids[0] if ids else None!r}, last={ids[-1] if ids else None!r}"\n', **n)
    module = Module((
        Piece("import re, json\nimport collections\n\n\n", "import collections\nimport json\nimport re\n\n\n"),
        Piece(fill('def $fn(text):\n    ids = re.findall("$pre-(\\d+)", text)\n', **n),
              fill('def $fn(text):\n    ids = re.findall(r"$pre-(\\d+)", text)\n', **n)),
        Piece("    if not ids: return []\n", "    if not ids:\n        return []\n"),
        Piece("    counts = collections.Counter(ids); ordered = sorted(counts, key=int)\n",
              "    counts = collections.Counter(ids)\n    ordered = sorted(counts, key=int)\n",
              broken="    counts = collections.Counter(ids)\n    ordered = sorted(counts)\n"),
        Piece("    return [json.dumps({\"id\": int(i), \"n\": counts[i]}) for i in ordered]\n\n\n"),
        Piece(fill("def $fmt(title, ids):\n", **n)),
        Piece(long_line, fill('    first = ids[0] if ids else None\n    last = ids[-1] if ids else None\n'
                              '    return f"{title}: {len(ids)} $word found, first={first!r}, last={last!r}"\n', **n)),
    ))
    ids = [str(rng.randint(1, 120)) for _ in range(rng.randint(3, 7))]
    text = " ".join(f"{n['pre']}-{i}" if rng.random() < 0.8 else f"{rng.choice(WORDS)}-{i}" for i in ids + ids[:2])
    calls = [(n["fn"], (text,)), (n["fn"], (f"no {n['pre'].lower()} here",)), (n["fmt"], (rng.choice(WORDS), ids)),
             (n["fmt"], ("none", []))]
    spec = calls_spec(lint_prompt("extracts ids and formats a report line", STYLE, module), module.reference,
                      module.wrong("  # noqa", "finding"), calls)
    spec.equivalent.update({"StatementRemoved: `if not ids:` -> `pass`": "no ids give no lines either way",
                            "StatementRemoved: `return []` -> `pass`": "no ids give no lines either way"})
    return spec
