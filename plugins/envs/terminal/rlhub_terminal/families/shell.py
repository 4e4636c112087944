"""Shell scripting families: a bash script run by the hidden tests (`bash solution.sh ARGS`
in a fresh directory holding the case's files), expected output from Python oracles."""

from __future__ import annotations

import re
from collections import Counter

from hub import Variant

from ..family import NAMES, WORDS, family, program_spec


def _text(rng, lines):
    return "".join(" ".join(rng.choices(WORDS, k=rng.randint(1, 5))) + "\n" for _ in range(lines))


@family("shell", "sh-count-lines", language="bash")
def sh_count_lines(rng):
    """Line counts of *.txt files plus a total."""
    cases = []
    for _ in range(4):
        files = {f"{w}.txt": _text(rng, rng.randint(0, 6)) for w in rng.sample(WORDS, rng.randint(1, 4))}
        files["skip.log"] = "x\n" * 3
        out = [f"{n} {files[n].count(chr(10))}" for n in sorted(files) if n.endswith(".txt")]
        out.append(f"total {sum(files[n].count(chr(10)) for n in files if n.endswith('.txt'))}")
        cases.append({"files": files, "stdout": "\n".join(out) + "\n", "exit": 0})
    cases.append({"files": {"a.log": "x\n"}, "stdout": "total 0\n", "exit": 0})
    last = {"a.txt": "one\ntwo", "b.txt": "x\n"}  # a last line without its newline is not counted
    cases.append({"files": last, "stdout": "a.txt 1\nb.txt 1\ntotal 2\n", "exit": 0})
    ref = '''
#!/usr/bin/env bash
set -euo pipefail
shopt -s nullglob
total=0
for f in *.txt; do
    n=$(wc -l < "$f")
    echo "$f $n"
    total=$((total + n))
done
echo "total $total"
'''
    wrong = ['''
#!/usr/bin/env bash
wc -l *.txt | while read -r n f; do echo "$f $n"; done
''', Variant("lines, not newlines", ref.replace('n=$(wc -l < "$f")', "n=$(grep -c '' \"$f\")"), 1,
               "counts a last line without a newline (grep -c ''), not the newline characters")]
    return program_spec("Write a bash script solution.sh that, in the current directory, prints for each *.txt file (in name "
                        "order) 'NAME LINES' (number of newline characters), then 'total N'. With no .txt files it prints "
                        "just 'total 0'.", "bash", ref, wrong, cases)


@family("shell", "sh-csv-column", language="bash")
def sh_csv_column(rng):
    """Print one named column of a simple CSV file."""
    cases = []
    for _ in range(4):
        cols = rng.sample(["id", "name", "city", "score", "team"], 3)
        rows = [[str(rng.randint(1, 99)) if c in ("id", "score") else rng.choice(NAMES + WORDS) for c in cols] for _ in range(rng.randint(1, 6))]
        col = rng.choice(cols)
        text = ",".join(cols) + "\n" + "".join(",".join(r) + "\n" for r in rows)
        cases.append({"args": ["data.csv", col], "files": {"data.csv": text},
                      "stdout": "".join(r[cols.index(col)] + "\n" for r in rows), "exit": 0})
    cases.append({"args": ["data.csv", "nope"], "files": {"data.csv": "a,b\n1,2\n"}, "stdout": "", "exit": 1, "stderr_nonempty": True})
    cases.append({"args": ["data.csv", "b"], "files": {"data.csv": "a,b\n1,2\n3,4"}, "stdout": "2\n4\n", "exit": 0})  # no final newline
    ref = '''
#!/usr/bin/env bash
file=$1 col=$2
IFS=, read -r -a header < "$file"
idx=0
for i in "${!header[@]}"; do
    [ "${header[$i]}" = "$col" ] && idx=$((i + 1))
done
if [ "$idx" -eq 0 ]; then
    echo "no column $col" >&2
    exit 1
fi
tail -n +2 "$file" | cut -d, -f"$idx"
'''
    wrong = ['''
#!/usr/bin/env bash
cut -d, -f2 "$1" | tail -n +2
''', Variant("last row dropped", '''
#!/usr/bin/env bash
file=$1 col=$2
IFS=, read -r -a header < "$file"
idx=-1
for i in "${!header[@]}"; do
    [ "${header[$i]}" = "$col" ] && idx=$i
done
if [ "$idx" -lt 0 ]; then
    echo "no column $col" >&2
    exit 1
fi
{
    read -r _
    while IFS=, read -r -a f; do
        echo "${f[$idx]}"
    done
} < "$file"
''', 1, "a while-read loop: a last row without its newline is never printed")]
    spec = program_spec("Write a bash script solution.sh FILE COLUMN that prints the values of the named COLUMN of the CSV "
                        "FILE (header row first; no quoting, fields never contain commas), one per line, without the "
                        "header. If there is no such column, print an error to stderr and exit 1.", "bash", ref, wrong, cases)
    cut_says = "cut itself then refuses the field (an error on stderr, exit 1, nothing on stdout): what the task asks"
    spec.equivalent.update({"StatementRemoved: `idx=0` -> `:`": "the unset idx fails the -eq test and " + cut_says,
                            "StatementRemoved: `exit 1` -> `:`": "with idx 0, " + cut_says})
    return spec


@family("shell", "sh-backup-conf", language="bash")
def sh_backup_conf(rng):
    """Copy *.conf files into backup/ with a .bak suffix."""
    cases = []
    for _ in range(3):
        files = {f"{w}.conf": f"{w}={rng.randint(0, 9)}\n" for w in rng.sample(WORDS, rng.randint(1, 4))}
        files["notes.txt"] = "x\n"
        if rng.random() < 0.5:
            files["backup/old.bak"] = "old\n"
        out = {f"backup/{n}.bak": t for n, t in files.items() if n.endswith(".conf")}
        cases.append({"files": files, "stdout": f"backed up {len(out)} files\n", "exit": 0,
                      "out_files": {**out, **{n: t for n, t in files.items()}}, "absent": ["backup/notes.txt.bak"]})
    cases.append({"files": {"a.txt": "1\n"}, "stdout": "backed up 0 files\n", "exit": 0})
    ref = '''
#!/usr/bin/env bash
set -euo pipefail
shopt -s nullglob
mkdir -p backup
n=0
for f in *.conf; do
    cp -- "$f" "backup/$f.bak"
    n=$((n + 1))
done
echo "backed up $n files"
'''
    wrong = ['''
#!/usr/bin/env bash
mkdir -p backup
n=0
for f in *.conf; do
    mv "$f" "backup/$f.bak"
    n=$((n + 1))
done
echo "backed up $n files"
''']
    return program_spec("Write a bash script solution.sh that copies every *.conf file of the current directory to "
                        "backup/NAME.bak (creating backup/ if needed; the originals stay), then prints 'backed up N files'.",
                        "bash", ref, wrong, cases)


@family("shell", "sh-top-words", language="bash")
def sh_top_words(rng):
    """Top-N words of a file, count then word."""
    cases = []
    for _ in range(4):
        text = "".join(" ".join(rng.choice([w, w.upper()]) for w in rng.choices(rng.sample(WORDS, 5), k=rng.randint(2, 6))) + rng.choice([".", ",", ""]) + "\n" for _ in range(rng.randint(2, 6)))
        n = rng.randint(1, 3)
        counts = Counter(re.findall(r"[a-z]+", text.lower()))
        top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
        cases.append({"args": [str(n), "in.txt"], "files": {"in.txt": text}, "stdout": "".join(f"{c} {w}\n" for w, c in top), "exit": 0})
    cases.append({"args": ["2", "in.txt"], "files": {"in.txt": "b a\nA B c\n"}, "stdout": "2 a\n2 b\n", "exit": 0})
    cases.append({"args": ["3", "in.txt"], "files": {"in.txt": "x1y 22 22 x\nb2 22 b\n"}, "stdout": "2 b\n2 x\n1 y\n",
                  "exit": 0})  # digits are not letters: they split words and are never words
    ref = '''
#!/usr/bin/env bash
set -euo pipefail
tr 'A-Z' 'a-z' < "$2" | tr -cs 'a-z' '\\n' | grep -v '^$' | sort | uniq -c | sort -k1,1nr -k2,2 | head -n "$1" |
    while read -r count word; do echo "$count $word"; done
'''
    wrong = ['''
#!/usr/bin/env bash
tr -s ' ' '\\n' < "$2" | sort | uniq -c | sort -rn | head -n "$1" | while read -r c w; do echo "$c $w"; done
''', Variant("digits counted", ref.replace("tr -cs 'a-z' ", "tr -cs 'a-z0-9' "), 1, "runs of letters and digits counted as words")]
    spec = program_spec("Write a bash script solution.sh N FILE printing the N most frequent words of FILE as 'COUNT WORD' "
                        "lines. Words are runs of letters a-z, compared case-insensitively and printed lower-case; order by "
                        "count descending, then word ascending.", "bash", ref, wrong, cases)
    spec.equivalent.update({
        "-> `tr 'A-Z' 'a-z' < \"$2\" | ... -k2,3 ": "the word is the last field: -k2,3 is -k2,2",
        "-> `tr 'A-Z' 'a-z' < \"$2\" | ... -k2,1 ": "an empty second key: sort's last-resort comparison of whole lines then "
                                                 "orders equal counts by the word, as -k2,2 does"})
    return spec


@family("shell", "sh-lowercase-names", language="bash")
def sh_lowercase_names(rng):
    """Rename files to lower case, refusing to overwrite."""
    cases = []
    for _ in range(3):
        names = [rng.choice(WORDS).capitalize() + str(i) + rng.choice([".TXT", ".Md", ".txt"]) for i in range(rng.randint(1, 4))]
        files = {n: n + "\n" for n in names}
        clash = names[0].lower()
        if clash != names[0] and rng.random() < 0.7:
            files[clash] = "existing\n"
        out, skipped = {}, 0
        for n in sorted(files):
            low = n.lower()
            if low == n:
                out[n] = files[n]
            elif low in files:
                out[n] = files[n]
                skipped += 1
            else:
                out[low] = files[n]
        absent = [n for n in files if n not in out]
        cases.append({"files": files, "stdout": f"renamed {len(files) - len(out) + 0 if False else len([n for n in files if n not in out])}, skipped {skipped}\n",
                      "exit": 0, "out_files": out, "absent": absent, **({"stderr_nonempty": True} if skipped else {})})
    # a directory is no regular file: left as it is
    cases.append({"files": {"Notes/Keep.txt": "k\n", "Read.ME": "r\n"}, "stdout": "renamed 1, skipped 0\n", "exit": 0,
                  "out_files": {"Notes/Keep.txt": "k\n", "read.me": "r\n"}, "absent": ["Read.ME", "notes"]})
    cases.append({"files": {"A.txt": "big\n", "a.txt": "small\n"}, "stdout": "renamed 0, skipped 1\n", "exit": 0,
                  "stderr_nonempty": True, "out_files": {"A.txt": "big\n", "a.txt": "small\n"}})
    ref = '''
#!/usr/bin/env bash
set -uo pipefail
renamed=0 skipped=0
for f in *; do
    [ -f "$f" ] || continue
    low=$(printf '%s' "$f" | tr 'A-Z' 'a-z')
    [ "$low" = "$f" ] && continue
    if [ -e "$low" ]; then
        echo "skip $f: $low exists" >&2
        skipped=$((skipped + 1))
    else
        mv -- "$f" "$low"
        renamed=$((renamed + 1))
    fi
done
echo "renamed $renamed, skipped $skipped"
'''
    wrong = ['''
#!/usr/bin/env bash
n=0
for f in *; do
    low=$(echo "$f" | tr 'A-Z' 'a-z')
    if [ "$low" != "$f" ]; then mv -f "$f" "$low"; n=$((n + 1)); fi
done
echo "renamed $n, skipped 0"
''']
    spec = program_spec("Write a bash script solution.sh that renames every regular file in the current directory whose name "
                        "has upper-case letters to its all-lower-case name, except when a file with that name already exists "
                        "(then leave both, print a note to stderr). Finally print 'renamed R, skipped S'.",
                        "bash", ref, wrong, cases)
    spec.clauses["print a note to stderr"] = ref.replace('        echo "skip $f: $low exists" >&2\n', "")
    return spec


@family("shell", "sh-errors-per-day", language="bash")
def sh_errors_per_day(rng):
    """Count ERROR lines per day in app.log."""
    cases = []
    for _ in range(4):
        lines = [f"2024-05-{rng.randint(1, 4):02d} {rng.randint(10, 23)}:00:00 {rng.choice(['INFO', 'ERROR', 'WARN'])} {rng.choice(WORDS)}" for _ in range(rng.randint(4, 12))]
        lines.append("2024-05-09 10:00:00 INFO saw ERROR text")
        counts = Counter(l.split()[0] for l in lines if l.split()[2] == "ERROR")
        cases.append({"files": {"app.log": "\n".join(lines) + "\n"}, "stdout": "".join(f"{d} {c}\n" for d, c in sorted(counts.items())), "exit": 0})
    ref = '''
#!/usr/bin/env bash
while read -r day _ level _; do
    [ "$level" = ERROR ] && echo "$day"
done < app.log | sort | uniq -c | while read -r count day; do echo "$day $count"; done
'''
    wrong = ['''
#!/usr/bin/env bash
grep ERROR app.log | cut -d' ' -f1 | sort | uniq -c | while read -r c d; do echo "$d $c"; done
''']
    return program_spec("app.log has lines 'YYYY-MM-DD HH:MM:SS LEVEL message'. Write a bash script solution.sh printing, for "
                        "each date with at least one line of level ERROR (the third field; the word in a message does not "
                        "count), 'DATE COUNT', sorted by date.", "bash", ref, wrong, cases)


@family("shell", "sh-sum-args", language="bash")
def sh_sum_args(rng):
    """Argument validation with usage errors and exit codes."""
    cases = []
    for _ in range(3):
        a, b = rng.randint(-99, 99), rng.randint(-99, 99)
        cases.append({"args": [str(a), str(b)], "stdout": f"{a + b}\n", "exit": 0})
    cases += [{"args": ["1"], "stdout": "", "exit": 2, "stderr_nonempty": True},
              {"args": ["1", "2", "3"], "stdout": "", "exit": 2, "stderr_nonempty": True},
              {"args": ["1", "x"], "stdout": "", "exit": 1, "stderr_nonempty": True},
              {"args": ["1.5", "2"], "stdout": "", "exit": 1, "stderr_nonempty": True}]
    ref = '''
#!/usr/bin/env bash
if [ $# -ne 2 ]; then
    echo "usage: solution.sh INT INT" >&2
    exit 2
fi
for v in "$1" "$2"; do
    if ! [[ $v =~ ^-?[0-9]+$ ]]; then
        echo "not an integer: $v" >&2
        exit 1
    fi
done
echo $(( $1 + $2 ))
'''
    wrong = ['''
#!/usr/bin/env bash
echo $(( $1 + $2 ))
''']
    return program_spec("Write a bash script solution.sh A B that prints A + B for two integers (optionally negative). With a "
                        "number of arguments other than 2, print a usage line to stderr and exit 2; if an argument is not "
                        "an integer, print an error to stderr and exit 1.", "bash", ref, wrong, cases)


@family("shell", "sh-find-large", language="bash")
def sh_find_large(rng):
    """Files above a size threshold, recursively, sorted."""
    cases = []
    for _ in range(4):
        files = {}
        for _ in range(rng.randint(3, 7)):
            files[f"{rng.choice(['', 'a/', 'a/b/', 'c/'])}{rng.choice(WORDS)}{rng.randint(0, 9)}.dat"] = "x" * rng.randint(0, 300)
        limit = rng.choice([50, 100, 150])
        big = sorted(n for n, t in files.items() if len(t) > limit)
        cases.append({"args": [str(limit)], "files": files, "stdout": "".join(f"{len(files[n])} ./{n}\n" for n in big), "exit": 0})
    # a symbolic link is no regular file, whatever its size (a link's own size is its target's name)
    cases[0]["links"] = {"zz-link": "t" * 400, "a/link": "a/" + "u" * 300}
    ref = '''
#!/usr/bin/env bash
find . -type f -size +"$1"c -printf '%s %p\\n' | sort -k2
'''
    wrong = [Variant("not a directory is not a regular file", ref.replace("-type f", "! -type d"), 1,
                     "lists symbolic links (and any file that is not a directory) too"), '''
#!/usr/bin/env bash
for f in *; do [ -f "$f" ] && [ $(wc -c < "$f") -gt "$1" ] && echo "$(wc -c < "$f") ./$f"; done
''']
    return program_spec("Write a bash script solution.sh BYTES printing 'SIZE ./PATH' for every regular file under the current "
                        "directory (recursively) larger than BYTES bytes, sorted by path.", "bash", ref, wrong, cases)
