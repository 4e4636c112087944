"""Command-line tool families: argparse, exit codes, stdin/stdout, files in the cwd.

Expected outputs come from small Python oracles here; the hidden tests run solution.py as a
program (`python3 solution.py ARGS` in a fresh temp dir) and compare stdout, exit code, files."""

from __future__ import annotations

import json
import re

from ..family import NAMES, WORDS, family, program_spec


# `sys.exit(main())` exits 0 when main returns None: a `return 0` removed changes nothing
EXIT_NONE = {"StatementRemoved: `return 0` -> `pass`": "sys.exit(None) exits with status 0, as sys.exit(0) does"}


def _num(x):
    return str(int(x)) if float(x).is_integer() else f"{x:.4f}".rstrip("0")


@family("cli", "cli-calculator")
def cli_calculator(rng):
    """argparse calculator with error exit codes."""
    ops = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "div": lambda a, b: a / b}
    cases = []
    for _ in range(5):
        op, a, b = rng.choice(list(ops)), rng.randint(-50, 50), rng.randint(-9, 9) or 1
        cases.append({"args": [op, str(a), str(b)], "stdout": _num(ops[op](a, b)) + "\n", "exit": 0})
    cases += [{"args": ["div", "1", "0"], "exit": 1, "stdout": "", "stderr_nonempty": True},
              {"args": ["pow", "2", "3"], "exit": 2, "stdout": ""},
              {"args": ["add", "x", "1"], "exit": 2, "stdout": ""},
              {"args": ["div", "7", "2"], "stdout": "3.5\n", "exit": 0},
              # a zero or a one that is no divisor, and each operation once
              {"args": ["add", "5", "0"], "stdout": "5\n", "exit": 0}, {"args": ["mul", "3", "0"], "stdout": "0\n", "exit": 0},
              {"args": ["div", "6", "1"], "stdout": "6\n", "exit": 0}, {"args": ["div", "6", "-1"], "stdout": "-6\n", "exit": 0},
              {"args": ["add", "4", "3"], "stdout": "7\n", "exit": 0}, {"args": ["sub", "4", "3"], "stdout": "1\n", "exit": 0},
              {"args": ["mul", "4", "3"], "stdout": "12\n", "exit": 0}]
    ref = '''
import argparse
import sys

def fmt(x):
    return str(int(x)) if float(x).is_integer() else f"{x:.4f}".rstrip("0")

def main():
    p = argparse.ArgumentParser(description="tiny calculator")
    p.add_argument("op", choices=["add", "sub", "mul", "div"])
    p.add_argument("a", type=float)
    p.add_argument("b", type=float)
    args = p.parse_args()
    if args.op == "div" and args.b == 0:
        print("error: division by zero", file=sys.stderr)
        return 1
    result = {"add": args.a + args.b, "sub": args.a - args.b, "mul": args.a * args.b}.get(args.op)
    if result is None:
        result = args.a / args.b
    print(fmt(result))
    return 0

if __name__ == "__main__":
    sys.exit(main())
'''
    wrong = ['''
import sys

op, a, b = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
r = {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b if b else 0}[op]
print(int(r) if r == int(r) else round(r, 4))
''']
    spec = program_spec("Write a command-line calculator `solution.py OP A B` using argparse: OP is one of add, sub, mul, div; "
                        "A and B are numbers. Print the result: as an integer if it is whole, else with up to 4 decimals and "
                        "no trailing zeros (3.5, 0.3333). Exit 0 on success; on division by zero print an error to stderr and "
                        "exit 1; invalid arguments (unknown OP, non-numbers) exit 2 via argparse.",
                        "python", ref, wrong, cases)
    spec.equivalent.update(EXIT_NONE)
    return spec


@family("cli", "cli-word-count")
def cli_word_count(rng):
    """wc-like tool over files and stdin."""
    def counts(t):
        return len(t.splitlines()), len(t.split()), len(t)
    cases = []
    for _ in range(3):
        files = {f"{w}.txt": "\n".join(" ".join(rng.choices(WORDS, k=rng.randint(0, 6))) for _ in range(rng.randint(1, 4))) + "\n"
                 for w in rng.sample(WORDS, 2)}
        names = sorted(files)
        out = [f"{sum(x) if False else ''}" for x in []]
        tot = [0, 0, 0]
        for n in names:
            c = counts(files[n])
            tot = [a + b for a, b in zip(tot, c)]
            out.append(f"{c[0]} {c[1]} {c[2]} {n}")
        out.append(f"{tot[0]} {tot[1]} {tot[2]} total")
        cases.append({"args": names, "files": files, "stdout": "\n".join(out) + "\n", "exit": 0})
    text = " ".join(rng.choices(NAMES, k=7)) + "\nend\n"
    c = counts(text)
    cases.append({"args": [], "stdin": text, "stdout": f"{c[0]} {c[1]} {c[2]}\n", "exit": 0})
    cases.append({"args": ["missing.txt"], "stdout": "", "exit": 1, "stderr_nonempty": True})
    first = sorted(cases[0]["files"])[0]  # an unreadable file before a readable one: the rest still counted
    c = counts(cases[0]["files"][first])
    cases.append({"args": ["missing.txt", first], "files": cases[0]["files"], "exit": 1, "stderr_nonempty": True,
                  "stdout": f"{c[0]} {c[1]} {c[2]} {first}\n{c[0]} {c[1]} {c[2]} total\n"})
    ref = '''
import sys

def counts(text):
    return len(text.splitlines()), len(text.split()), len(text)

def main(paths):
    if not paths:
        print(*counts(sys.stdin.read()))
        return 0
    total, status = [0, 0, 0], 0
    for path in paths:
        try:
            with open(path) as fh:
                c = counts(fh.read())
        except OSError as exc:
            print(f"wc: {path}: {exc.strerror}", file=sys.stderr)
            status = 1
            continue
        total = [a + b for a, b in zip(total, c)]
        print(*c, path)
    if len(paths) > 1:
        print(*total, "total")
    return status

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''
    wrong = ['''
import sys

for path in sys.argv[1:]:
    text = open(path).read()
    print(len(text.splitlines()), len(text.split()), len(text), path)
''']
    spec = program_spec("Write `solution.py [FILE...]`, a small `wc`: for each file print 'LINES WORDS CHARS NAME' (characters "
                        "of the text as read), and with more than one file a final 'LINES WORDS CHARS total' line. With no "
                        "arguments, read stdin and print 'LINES WORDS CHARS'. A file that cannot be read: message on stderr, "
                        "continue with the others, exit status 1 at the end (else 0).", "python", ref, wrong, cases)
    spec.equivalent.update(EXIT_NONE)
    spec.clauses["continue with the others"] = ref.replace("            status = 1\n            continue\n",
                                                           "            return 1\n")
    return spec


@family("cli", "cli-csv-filter")
def cli_csv_filter(rng):
    """Filter CSV rows from stdin by column value."""
    col = rng.choice(["city", "team", "status"])
    vals = rng.sample(["red", "blue", "green", "gold"], 3)
    cases = []
    for _ in range(4):
        rows = [["name", col, "n"]] + [[rng.choice(NAMES), rng.choice(vals), str(rng.randint(0, 99))] for _ in range(rng.randint(2, 7))]
        rows.append([f"{rng.choice(NAMES)}, jr", vals[0], "1"])
        want = vals[rng.randint(0, 1)]
        def line(r):
            return ",".join(f'"{c}"' if "," in c else c for c in r)
        out = [line(rows[0])] + [line(r) for r in rows[1:] if r[1] == want]
        cases.append({"args": ["--column", col, "--equals", want], "stdin": "\n".join(map(line, rows)) + "\n",
                      "stdout": "\n".join(out) + "\n", "exit": 0})
    cases[0]["stdout_exact"] = cases[0].pop("stdout")  # the stated '\n' line ends (csv's default is '\r\n')
    cases.append({"args": ["--column", "nope", "--equals", "x"], "stdin": f"name,{col}\na,b\n", "exit": 2, "stderr_nonempty": True})
    cases.append({"args": ["--column", col], "stdin": f"name,{col}\na,b\n", "exit": 2, "stderr_nonempty": True})  # both required
    ref = '''
import argparse
import csv
import sys

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--column", required=True)
    p.add_argument("--equals", required=True)
    args = p.parse_args()
    reader = csv.reader(sys.stdin)
    header = next(reader)
    if args.column not in header:
        print(f"no column {args.column!r}", file=sys.stderr)
        return 2
    i = header.index(args.column)
    out = csv.writer(sys.stdout, lineterminator="\\n")
    out.writerow(header)
    for row in reader:
        if row[i] == args.equals:
            out.writerow(row)
    return 0

if __name__ == "__main__":
    sys.exit(main())
'''
    wrong = ['''
import sys

col, want = sys.argv[2], sys.argv[4]
lines = sys.stdin.read().splitlines()
i = lines[0].split(",").index(col)
print(lines[0])
for line in lines[1:]:
    if line.split(",")[i] == want:
        print(line)
''']
    spec = program_spec("Write `solution.py --column NAME --equals VALUE` reading CSV (with a header row; fields may be quoted) "
                        "from stdin and writing to stdout the header plus every row whose NAME column equals VALUE, as CSV "
                        "(csv module quoting, '\\n' line ends). If NAME is not a column, print an error to stderr and exit 2.",
                        "python", ref, wrong, cases)
    spec.clauses["'\\n' line ends"] = ref.replace('csv.writer(sys.stdout, lineterminator="\\n")', "csv.writer(sys.stdout)")
    spec.equivalent.update(EXIT_NONE)
    spec.equivalent['-> `p.add_argument("--column", required=False)`'] = (
        "without --column, the column None is in no header: the same exit 2 with a message on stderr")
    return spec


@family("cli", "cli-todo")
def cli_todo(rng):
    """Persistent JSON todo list with subcommands."""
    items = [{"id": i, "text": f"{rng.choice(WORDS)} {rng.choice(NAMES)}", "done": rng.random() < 0.3} for i in range(1, rng.randint(2, 5))]
    store = json.dumps({"items": items}, indent=2)
    def listing(its):
        return "".join(f"{it['id']}. [{'x' if it['done'] else ' '}] {it['text']}\n" for it in its)
    new = f"buy {rng.choice(WORDS)}"
    nid = max(it["id"] for it in items) + 1
    added = items + [{"id": nid, "text": new, "done": False}]
    target = rng.choice(items)["id"]
    done = [dict(it, done=True) if it["id"] == target else it for it in items]
    cases = [
        {"args": ["list"], "files": {"todo.json": store}, "stdout": listing(items), "exit": 0},
        {"args": ["add", new], "files": {"todo.json": store}, "stdout": f"added {nid}\n", "exit": 0,
         "out_files": {"todo.json": json.dumps({"items": added}, indent=2)}},
        {"args": ["done", str(target)], "files": {"todo.json": store}, "stdout": f"done {target}\n", "exit": 0,
         "out_files": {"todo.json": json.dumps({"items": done}, indent=2)}},
        {"args": ["done", "99"], "files": {"todo.json": store}, "exit": 1, "stderr_nonempty": True},
        {"args": ["add", "first"], "stdout": "added 1\n", "exit": 0,
         "out_files": {"todo.json": json.dumps({"items": [{"id": 1, "text": "first", "done": False}]}, indent=2)}},
    ]
    ref = '''
import argparse
import json
import os
import sys

PATH = "todo.json"

def load():
    if not os.path.exists(PATH):
        return {"items": []}
    with open(PATH) as fh:
        return json.load(fh)

def save(data):
    with open(PATH, "w") as fh:
        json.dump(data, fh, indent=2)

def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    sub.add_parser("add").add_argument("text")
    sub.add_parser("done").add_argument("id", type=int)
    args = p.parse_args()
    data = load()
    if args.cmd == "list":
        for it in data["items"]:
            print(f"{it['id']}. [{'x' if it['done'] else ' '}] {it['text']}")
    elif args.cmd == "add":
        nid = max((it["id"] for it in data["items"]), default=0) + 1
        data["items"].append({"id": nid, "text": args.text, "done": False})
        save(data)
        print(f"added {nid}")
    else:
        for it in data["items"]:
            if it["id"] == args.id:
                it["done"] = True
                save(data)
                print(f"done {args.id}")
                return 0
        print(f"no item {args.id}", file=sys.stderr)
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
'''
    wrong = ['''
import json
import sys

data = json.load(open("todo.json"))
cmd = sys.argv[1]
if cmd == "list":
    for it in data["items"]:
        print(f"{it['id']}. [{'x' if it['done'] else ' '}] {it['text']}")
elif cmd == "add":
    nid = len(data["items"]) + 1
    data["items"].append({"id": nid, "text": sys.argv[2], "done": False})
    json.dump(data, open("todo.json", "w"), indent=2)
    print(f"added {nid}")
else:
    for it in data["items"]:
        if it["id"] == int(sys.argv[2]):
            it["done"] = True
    json.dump(data, open("todo.json", "w"), indent=2)
    print(f"done {sys.argv[2]}")
''']
    spec = program_spec("Write `solution.py` managing a todo list stored in ./todo.json as {\"items\": [{\"id\", \"text\", "
                        "\"done\"}]} (written with json.dump(..., indent=2); a missing file means an empty list). "
                        "Subcommands (argparse): `list` prints '<id>. [x] <text>' (or '[ ]' when not done) per item; "
                        "`add TEXT` appends an item with id = highest id + 1 (1 for the first) and prints 'added <id>'; "
                        "`done ID` marks it done and prints 'done <id>', or prints an error to stderr and exits 1 if there is "
                        "no such id.", "python", ref, wrong, cases, files={"todo.json": store})
    spec.equivalent.update(EXIT_NONE)
    spec.equivalent['-> `sub = p.add_subparsers(dest="cmd", required=False)`'] = (
        "the task gives every call a subcommand: what happens without one is not part of it")
    return spec


@family("cli", "cli-uniq-count")
def cli_uniq_count(rng):
    """sort | uniq -c | sort -rn with a --min threshold."""
    cases = []
    for _ in range(4):
        lines = rng.choices(pick := rng.sample(WORDS, 4), k=rng.randint(5, 15))
        m = rng.randint(1, 3)
        counts = {}
        for x in lines:
            counts[x] = counts.get(x, 0) + 1
        out = [f"{c} {w}" for w, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if c >= m]
        cases.append({"args": ["--min", str(m)], "stdin": "\n".join(lines) + "\n", "stdout": "\n".join(out) + ("\n" if out else ""), "exit": 0})
        del pick
    cases.append({"args": [], "stdin": "b\na\nb\n\n", "stdout": "2 b\n1 a\n", "exit": 0})
    # lines that differ only in spaces are distinct lines ("  " alone is blank)
    cases.append({"args": [], "stdin": "a\n a\na \n   \na\n", "stdout": "2 a\n1  a\n1 a \n", "exit": 0})
    ref = '''
import argparse
import sys
from collections import Counter

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--min", type=int, default=1)
    args = p.parse_args()
    counts = Counter(line.rstrip("\\n") for line in sys.stdin if line.strip())
    for word, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if n >= args.min:
            print(n, word)

if __name__ == "__main__":
    main()
'''
    wrong = ['''
import sys
from collections import Counter

counts = Counter(line.strip() for line in sys.stdin if line.strip())
for word, n in counts.most_common():
    print(n, word)
''']
    spec = program_spec("Write `solution.py [--min N]` reading lines from stdin and printing 'COUNT LINE' for each distinct "
                        "non-blank line that occurs at least N times (default 1), most frequent first, ties in alphabetical "
                        "order.", "python", ref, wrong, cases)
    spec.clauses["each distinct non-blank line"] = ref.replace('Counter(line.rstrip("\\n")', "Counter(line.strip()")
    spec.equivalent['-> `p.add_argument("--min", type=int, default= 0)`'] = "every line counted occurs at least once"
    return spec


@family("cli", "cli-grep")
def cli_grep(rng):
    """Minimal grep with -i/-n and grep's exit codes."""
    word = rng.choice(WORDS)
    files = {"a.txt": "\n".join([word] + [rng.choice([word, word.upper(), "other", f"the {word}s"]) for _ in range(4)]) + "\n",
             "b.txt": "nothing here\n"}
    def grep(pattern, names, i=False, n=False):
        out = []
        for name in names:
            for k, line in enumerate(files[name].splitlines(), 1):
                if re.search(pattern, line, re.I if i else 0):
                    out.append((f"{name}:" if len(names) > 1 else "") + (f"{k}:" if n else "") + line)
        return out
    cases = []
    for flags in ([], ["-i"], ["-n"], ["-i", "-n"]):
        names = ["a.txt", "b.txt"] if rng.random() < 0.5 else ["a.txt"]
        out = grep(word, names, "-i" in flags, "-n" in flags)
        cases.append({"args": flags + [word] + names, "files": files, "stdout": "\n".join(out) + ("\n" if out else ""), "exit": 0 if out else 1})
    cases.append({"args": ["zzz", "b.txt"], "files": files, "stdout": "", "exit": 1})
    cases.append({"args": [word, "nope.txt"], "files": files, "exit": 2, "stderr_nonempty": True})
    # a file that cannot be read is exit 2 even when another file matched (grep's own rule)
    matched = [f"a.txt:{line}" for line in files["a.txt"].splitlines() if re.search(word, line)]
    cases.append({"args": [word, "a.txt", "nope.txt"], "files": files, "exit": 2, "stderr_nonempty": True,
                  "stdout": "\n".join(matched) + "\n"})
    ref = '''
import argparse
import re
import sys

def main():
    p = argparse.ArgumentParser()
    p.add_argument("-i", action="store_true")
    p.add_argument("-n", action="store_true")
    p.add_argument("pattern")
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    rx = re.compile(args.pattern, re.I if args.i else 0)
    found, error = False, False
    for name in args.files:
        try:
            lines = open(name).read().splitlines()
        except OSError as exc:
            print(f"grep: {name}: {exc.strerror}", file=sys.stderr)
            error = True
            continue
        for k, line in enumerate(lines, 1):
            if rx.search(line):
                found = True
                print((f"{name}:" if len(args.files) > 1 else "") + (f"{k}:" if args.n else "") + line)
    return 2 if error else (0 if found else 1)

if __name__ == "__main__":
    sys.exit(main())
'''
    wrong = ['''
import re
import sys

args = sys.argv[1:]
flags = [a for a in args if a.startswith("-")]
pattern, *files = [a for a in args if not a.startswith("-")]
for name in files:
    for k, line in enumerate(open(name).read().splitlines(), 1):
        if re.search(pattern, line, re.I if "-i" in flags else 0):
            print((f"{k}:" if "-n" in flags else "") + line)
''']
    spec = program_spec("Write `solution.py [-i] [-n] PATTERN FILE...`, a small grep using Python regular expressions: print "
                        "matching lines, prefixed with 'FILE:' when more than one file is given and with 'LINE_NUMBER:' under "
                        "-n (file first); -i ignores case. Exit 0 if any line matched, 1 if none, 2 if a file could not be "
                        "read (message on stderr).", "python", ref, wrong, cases)
    spec.clauses["2 if a file could not be read"] = ref.replace("return 2 if error else (0 if found else 1)",
                                                                "return 0 if found else (2 if error else 1)")
    return spec
