"""Tool-call parsers: throughput per format, and what becomes of malformed calls.

    python benchmarks/bench_tool_formats.py [--turns 2000] [--runs 5] [--malformed 3000]

Throughput: a corpus of turns (1-3 calls each, arguments of every JSON kind, unicode, quotes,
newlines, markup-like strings), rendered in each format, parsed `--runs` times: calls/s is the
median run's. Malformed: each rendered turn damaged in its structure one way (cut short, a quote or
brace changed, a closing or opening marker removed or misspelt, single quotes for double, prose
around it), then parsed. Each outcome is one of:
  recovered  the same calls read back anyway (e.g. a missing closing tag, prose around the calls)
  explained  a problem entry said what was wrong and what to write (the call was not run), or the
             named tool got its arguments as text and its error says they are not a JSON object
  partial    some calls read, and a problem said what of the rest was wrong
  lost       nothing read and nothing said (the damage made it plain text)
  changed    different calls read with no problem (a damaged value that is still a valid value)
"Useful" is recovered + explained + partial.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from hub.tools import ToolCall, formats  # after the path: run from a checkout

WORDS = ["ls -la", "print('hi')", 'say "yes"', "line one\nline two", "naïve café 😀", "</tool_call>", "a < b && c > d",
         "{\"nested\": [1, 2]}", "C:\\path\\to", "[TOOL_CALLS]", "<|call|>", "", "42", "true"]


def random_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(8 if depth < 2 else 5)
    if kind == 0:
        return rng.randint(-10**6, 10**6)
    if kind == 1:
        return round(rng.uniform(-100, 100), 3)
    if kind == 2:
        return rng.choice([True, False, None])
    if kind in (3, 4):
        return rng.choice(WORDS) + rng.choice(["", " x", "\n", "\t"]) * rng.randint(0, 2)
    if kind == 5:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {f"k{i}": random_value(rng, depth + 1) for i in range(rng.randint(0, 3))}


def corpus(n: int, seed: int = 0) -> list[list[ToolCall]]:
    rng = random.Random(seed)
    names = ["run", "read_file", "write_file", "search", "submit", "view_range", "replace"]
    return [[ToolCall(rng.choice(names), {f"arg_{j}": random_value(rng) for j in range(rng.randint(0, 4))})
             for _ in range(rng.randint(1, 3))] for _ in range(n)]


def damage(text: str, rng: random.Random) -> str:
    i = rng.randrange(max(1, len(text)))
    how = rng.choice([0, 3, 4, 5, 6, 7])
    if how == 0:
        return text[:i]  # cut short (a generation that hit its token limit)
    if how == 3:  # a quote or brace changed
        spots = [k for k, c in enumerate(text) if c in "\"{}[]"]
        k = rng.choice(spots) if spots else i
        return text[:k] + rng.choice(["'", "", "(", ")"]) + text[k + 1:]
    if how == 4:  # a closing marker removed
        for marker in ("</tool_call>", "</parameter>", "</function>", "<|call|>", "]", "}"):
            at = text.rfind(marker)
            if at != -1:
                return text[:at] + text[at + len(marker):]
        return text
    if how == 5:
        return "Sure, here is the call: " + text + " Hope that helps."
    if how == 6:  # the opening marker misspelt
        for marker, typo in (("<tool_call>", "<toolcall>"), ("<function=", "<function "), ("[TOOL_CALLS]", "[TOOL_CALL]"),
                             ("to=functions.", "to=function."), ("{\"name\"", "{name")):
            if marker in text:
                return text.replace(marker, typo, 1)
        return text
    return text.replace('"', "'", 1)  # JSON written with a single quote


def throughput(fmt: str, turns: list[list[ToolCall]], runs: int) -> tuple[float, int]:
    texts = [formats.render(t, fmt) for t in turns]
    n_calls = sum(len(t) for t in turns)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for text in texts:
            formats.parse(text, fmt)
        times.append(time.perf_counter() - t0)
    return n_calls / statistics.median(times), sum(len(t) for t in texts)


def outcome(fmt: str, original: list[ToolCall], text: str) -> str:
    turn = formats.parse(text, fmt)
    got = [(c.name, c.arguments) for c in turn.calls]
    want = [(c.name, c.arguments) for c in original]
    told = bool(turn.problems) and all("write" in p for p in turn.problems)
    if got == want and not turn.problems:
        return "recovered"
    unread = [c for c in turn.calls if isinstance(c.arguments, str)]  # the tool's error says: not a JSON object
    if unread and [g for g in got if not isinstance(g[1], str)] == [w for w in want if w in got]:
        return "explained"
    if turn.problems and not turn.calls:
        return "explained" if told else "vague"
    if turn.problems:
        return "partial" if told else "vague"
    if not turn.calls:
        return "lost"
    return "changed"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--turns", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--malformed", type=int, default=3000)
    args = ap.parse_args()
    turns = corpus(args.turns)
    print(f"{'format':<12} {'calls/s':>10} {'MB/s':>7}   malformed ({args.malformed} each): "
          "useful  recovered explained partial  lost changed vague")
    for fmt in formats.known_formats():
        rate, chars = throughput(fmt, turns, args.runs)
        mb_s = rate / sum(len(t) for t in turns) * chars / 1e6
        rng = random.Random(1)
        counts: Counter[str] = Counter()
        for k in range(args.malformed):
            original = turns[k % len(turns)]
            counts[outcome(fmt, original, damage(formats.render(original, fmt), rng))] += 1
        share = {k: 100 * v / args.malformed for k, v in counts.items()}
        useful = share.get("recovered", 0) + share.get("explained", 0) + share.get("partial", 0)
        print(f"{fmt:<12} {rate:>10,.0f} {mb_s:>7.1f}   {'':>28}{useful:5.1f}%  " + "  ".join(
            f"{share.get(k, 0):8.1f}%" if k == "recovered" else f"{share.get(k, 0):6.1f}%"
            for k in ("recovered", "explained", "partial", "lost", "changed", "vague")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
