"""Near-misses a red-team engineer wrote from the prompts alone: each passes every hidden test it
was given before, and breaks one behaviour the prompt states (an argument appended to or changed
in place, inputs left alone, unsorted input, a forbidden module, letters beyond ASCII, '\\n' line
ends, an exit code, lines that differ in spaces, a last line without its newline, digits, links,
NULLs, ties). Each must now fail on the seeds it was written for and on another one, while the
reference still earns 1.0 (the clauses and wrong answers the families gained prove the same in
the checks: `pytest registry.yaml --rlhub-select ...`)."""

from __future__ import annotations

import pytest

from rlhub_terminal.family import fenced

NEAR_MISSES = {
    'bugfix-mutable-default': ('python', "def tagged(words, out=None):\n    return list(out or []) + ['@' + w for w in words]\n"),
    'bugfix-dict-mutation': ('python', 'def drop_small(counts, threshold):\n    return {k: v for k, v in counts.items() if v >= threshold}\n'),
    'json-deep-merge': ('python', 'def merge(base, override):\n    for k, v in override.items():\n        if isinstance(base.get(k), dict) and isinstance(v, dict):\n            base[k] = merge(base[k], v)\n        elif isinstance(base.get(k), list) and isinstance(v, list):\n            base[k] = base[k] + v\n        else:\n            base[k] = v\n    return base\n'),
    'log-session-time': ('python', 'def session_seconds(events):\n    open_at, total = {}, {}\n    for t, user, kind in events:\n        if kind == "login":\n            open_at[user] = t\n        elif kind == "logout" and user in open_at:\n            total[user] = total.get(user, 0) + t - open_at.pop(user)\n    return total\n'),
    'insert-position': ('python', 'import bisect\n\ndef insert_position(xs, x):\n    return bisect.bisect_left(xs, x)\n'),
    'caesar-shift': ('python', 'def shift_text(text, k):\n    out = []\n    for ch in text:\n        if ch.islower():\n            out.append(chr((ord(ch) - 97 + k) % 26 + 97))\n        elif ch.isupper():\n            out.append(chr((ord(ch) - 65 + k) % 26 + 65))\n        else:\n            out.append(ch)\n    return "".join(out)\n'),
    'cli-csv-filter': ('python', 'import argparse\nimport csv\nimport sys\n\ndef main():\n    p = argparse.ArgumentParser()\n    p.add_argument("--column", required=True)\n    p.add_argument("--equals", required=True)\n    args = p.parse_args()\n    reader = csv.reader(sys.stdin)\n    header = next(reader)\n    if args.column not in header:\n        print(f"no column {args.column!r}", file=sys.stderr)\n        return 2\n    i = header.index(args.column)\n    out = csv.writer(sys.stdout)\n    out.writerow(header)\n    for row in reader:\n        if row[i] == args.equals:\n            out.writerow(row)\n    return 0\n\nif __name__ == "__main__":\n    sys.exit(main())\n'),
    'cli-grep': ('python', 'import argparse\nimport re\nimport sys\n\ndef main():\n    p = argparse.ArgumentParser()\n    p.add_argument("-i", action="store_true")\n    p.add_argument("-n", action="store_true")\n    p.add_argument("pattern")\n    p.add_argument("files", nargs="+")\n    args = p.parse_args()\n    rx = re.compile(args.pattern, re.I if args.i else 0)\n    found, error = False, False\n    for name in args.files:\n        try:\n            lines = open(name).read().splitlines()\n        except OSError as exc:\n            print(f"grep: {name}: {exc.strerror}", file=sys.stderr)\n            error = True\n            continue\n        for k, line in enumerate(lines, 1):\n            if rx.search(line):\n                found = True\n                print((f"{name}:" if len(args.files) > 1 else "") + (f"{k}:" if args.n else "") + line)\n    return 0 if found else (2 if error else 1)\n\nif __name__ == "__main__":\n    sys.exit(main())\n'),
    'cli-uniq-count': ('python', 'import argparse\nimport sys\nfrom collections import Counter\n\ndef main():\n    p = argparse.ArgumentParser()\n    p.add_argument("--min", type=int, default=1)\n    args = p.parse_args()\n    counts = Counter(line.strip() for line in sys.stdin if line.strip())\n    for word, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):\n        if n >= args.min:\n            print(n, word)\n\nif __name__ == "__main__":\n    main()\n'),
    'sh-count-lines': ('bash', '#!/usr/bin/env bash\nshopt -s nullglob\ntotal=0\nfor f in *.txt; do\n    n=$(grep -c \'\' "$f")\n    echo "$f $n"\n    total=$((total + n))\ndone\necho "total $total"\n'),
    'sh-top-words': ('bash', '#!/usr/bin/env bash\nset -euo pipefail\ntr \'A-Z\' \'a-z\' < "$2" | tr -cs \'a-z0-9\' \'\\n\' | grep -v \'^$\' | sort | uniq -c | sort -k1,1nr -k2,2 | head -n "$1" |\n    while read -r count word; do echo "$count $word"; done\n'),
    'sh-find-large': ('bash', '#!/usr/bin/env bash\nfind . ! -type d -size +"$1"c -printf \'%s %p\\n\' | sort -k2\n'),
    'sh-csv-column': ('bash', '#!/usr/bin/env bash\nfile=$1 col=$2\nIFS=, read -r -a header < "$file"\nidx=-1\nfor i in "${!header[@]}"; do\n    [ "${header[$i]}" = "$col" ] && idx=$i\ndone\nif [ "$idx" -lt 0 ]; then\n    echo "no column $col" >&2\n    exit 1\nfi\n{\n    read -r _\n    while IFS=, read -r -a f; do\n        echo "${f[$idx]}"\n    done\n} < "$file"\n'),
    'sql-no-orders': ('sql', 'SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders) ORDER BY name;\n'),
    'sql-top-customers': ('sql', 'SELECT c.name, SUM(o.amount) AS total FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id ORDER BY total DESC LIMIT 3;\n'),
    'sql-rated-products': ('sql', 'SELECT product, ROUND(AVG(stars), 2) AS avg_stars, COUNT(*) AS n FROM reviews GROUP BY product HAVING COUNT(*) >= 2 ORDER BY AVG(stars) DESC, product;\n'),
}
SESSION = "session-sql-top-customers"  # the session variant of a family gets its hidden tests


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("name", sorted(NEAR_MISSES))
def test_a_near_miss_of_a_stated_behaviour_fails(catalog, name, seed):
    label = {"env": f"terminal/{name}-v1", "seed": seed}
    task = catalog.task(label)
    language, code = NEAR_MISSES[name]
    got = catalog.verify(label, fenced(code, language), task=task)
    assert got.error is None and got.reward == 0.0 and not got.passed, (name, seed, got.details)
    ref = catalog.verify(label, task.reference, task=task)
    assert ref.error is None and ref.reward == 1.0, (name, seed, ref.details)


def test_the_session_variant_fails_it_too(catalog):
    from terminal_helpers import fenced_file

    ep = catalog.episode({"env": f"terminal/{SESSION}-v1", "seed": 0})
    ep.reset()
    step = ep.step(fenced_file("query.sql", NEAR_MISSES["sql-top-customers"][1], "sql") + "SUBMIT")
    assert step.done and step.verdict.error is None and step.verdict.reward == 0.0, step.verdict.details


def test_a_forbidden_module_is_found_however_it_is_imported(catalog):
    label = {"env": "terminal/insert-position-v1", "seed": 1}
    task = catalog.task(label)
    body = "def insert_position(xs, x):\n    return {call}\n"
    for how in ["__import__('bisect').bisect_left(xs, x)", "__import__('bis' + 'ect').bisect_left(xs, x)"]:
        got = catalog.verify(label, fenced(body.format(call=how), "python"), task=task)
        assert got.reward == 0.0, (how, got.details)
    for code in ["from _bisect import bisect_left as f\n\ndef insert_position(xs, x):\n    return f(xs, x)\n",
                 "import importlib\n\ndef insert_position(xs, x):\n    return importlib.import_module('bisect').bisect_left(xs, x)\n"]:
        assert catalog.verify(label, fenced(code, "python"), task=task).reward == 0.0, code
