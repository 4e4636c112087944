"""Static analysis, shell: make a bash script `shellcheck`-clean. Most findings are real bugs (a
file name with a space, a backslash in input), so the hidden tests feed exactly those. Graded by
unit_tests and shellcheck together (rlhub_terminal.analysis)."""

from __future__ import annotations

from ..analysis import Module, Piece, rubric
from ..family import NAMES, WORDS, family, program_spec

SHELLCHECK = rubric("shellcheck", {"severity": "style", "budget": 5})
DISABLE = "# shellcheck disable=SC2002,SC2003,SC2005,SC2006,SC2007,SC2018,SC2019,SC2045,SC2086,SC2126,SC2162,SC2164"


def shell_prompt(what: str, module: Module) -> str:
    return (f"This bash script {what}. `shellcheck --severity=style` reports findings in it, and some are bugs. Fix the "
            f"script so that shellcheck reports nothing and it behaves as described (hidden tests run it, with file "
            f"names and input that contain spaces, quotes and backslashes). `# shellcheck disable` directives and "
            f".shellcheckrc files are ignored.\n\n```bash\n{module.flawed.strip()}\n```")


def spaced_names(rng, k: int) -> list[str]:
    return [f"{rng.choice(WORDS)} {rng.choice(NAMES)}.txt" if i % 2 == 0 else f"{rng.choice(WORDS)}-{i}.txt" for i in range(k)]


def lines_text(rng, words: list[str], n: int) -> str:
    return "".join(" ".join(rng.choice(words) for _ in range(rng.randint(1, 4))) + "\n" for _ in range(n))


def grep_case(name: str, word: str, text: str, stdout) -> dict:
    """`solution.sh NAME WORD` on a file NAME holding `text`: prints stdout(hits, total lines)."""
    hits = sum(word in line for line in text.splitlines())
    return {"args": [name, word], "files": {name: text}, "stdout": stdout(hits, text.count("\n")), "exit": 0}


@family("static", "static-shellcheck-quoting", "bash", rubric=SHELLCHECK)
def shellcheck_quoting(rng):
    """Quote variables so file names and words with spaces work (SC2086)."""
    module = Module((
        Piece("#!/bin/bash\nfile=$1\nword=$2\n"),
        Piece("if [ ! -f $file ]; then\n", 'if [ ! -f "$file" ]; then\n', broken='if [ -f "$file" ]; then\n'),
        Piece('  echo "missing: $file" >&2\n  exit 1\nfi\n'),
        Piece("count=$(grep -cF -- $word $file)\n", 'count=$(grep -cF -- "$word" "$file")\n'),
        Piece("echo $word: $count\n", 'echo "$word: $count"\n'),
    ))
    names = spaced_names(rng, 2)
    words = [rng.choice(WORDS), f"{rng.choice(WORDS)} {rng.choice(WORDS)}"]
    cases = []
    for name, word in zip(names, words):
        text = lines_text(rng, [*words[1].split(), *WORDS[:5], words[1]], rng.randint(3, 7))
        cases.append(grep_case(name, word, text, lambda hits, _, word=word: f"{word}: {hits}\n"))
    cases.append({"args": [f"no {rng.choice(WORDS)}.txt", "x"], "exit": 1, "stderr_nonempty": True})
    prompt = shell_prompt("prints how many lines of FILE contain WORD (`solution.sh FILE WORD`, output `WORD: N`), "
                          "or complains on stderr and exits 1 when FILE does not exist", module)
    return program_spec(prompt, "bash", module.reference, module.wrong(DISABLE, "finding"), cases)


@family("static", "static-shellcheck-ls-loop", "bash", rubric=SHELLCHECK)
def shellcheck_ls_loop(rng):
    """Loop over a glob instead of parsing ls, check cd, drop the useless cat (SC2045, SC2164, SC2002)."""
    unit = rng.choice(["lines", "rows", "entries"])
    module = Module((
        Piece("#!/bin/bash\n"),
        Piece("cd $1\n", 'cd "$1" || exit 1\n'),
        Piece("for f in $(ls *.txt); do\n", "for f in *.txt; do\n  [ -e \"$f\" ] || continue\n"),
        Piece("  n=$(cat $f | wc -l)\n", '  n=$(wc -l < "$f")\n', broken='  n=$(wc -w < "$f")\n'),
        Piece(f'  echo "$f: $n {unit}"\ndone\n'),
    ))
    cases = []
    for k in (3, 2):
        names = spaced_names(rng, k) + [f"{rng.choice(WORDS)}.log"]
        files = {f"d/{name}": lines_text(rng, WORDS[:6], rng.randint(1, 5)) for name in names}
        out = "".join(f"{name}: {files['d/' + name].count(chr(10))} {unit}\n" for name in sorted(names) if name.endswith(".txt"))
        cases.append({"args": ["d"], "files": files, "stdout": out, "exit": 0})
    cases.append({"args": ["nowhere"], "exit": 1})
    cases.append({"args": ["d"], "files": {f"d/{rng.choice(WORDS)}.log": "x\n"}, "stdout": "", "exit": 0})  # no .txt at all
    prompt = shell_prompt(f"prints, for every .txt file in directory DIR (`solution.sh DIR`, in glob order), "
                          f"`NAME: N {unit}` (N: its line count), and exits 1 if DIR cannot be entered", module)
    return program_spec(prompt, "bash", module.reference, module.wrong(DISABLE, "finding"), cases)


@family("static", "static-shellcheck-read-lines", "bash", rubric=SHELLCHECK)
def shellcheck_read_lines(rng):
    """Read lines verbatim (read -r, IFS=) and keep them intact (SC2162, SC2086, SC2018)."""
    sep = rng.choice([": ", " | ", " -> "])
    module = Module((
        Piece("#!/bin/bash\nn=0\n"),
        Piece("while read line; do\n", "while IFS= read -r line; do\n"),
        Piece("  n=$((n + 1))\n"),
        Piece("  upper=$(echo $line | tr a-z A-Z)\n", "  upper=$(printf '%s' \"$line\" | tr '[:lower:]' '[:upper:]')\n",
              broken="  upper=$(printf '%s' \"$line\" | tr '[:upper:]' '[:lower:]')\n"),
        Piece(f'  printf \'%s{sep}%s\\n\' "$n" "$upper"\ndone\n'),
    ))
    cases = []
    for _ in range(3):
        raw = [f"  {rng.choice(WORDS)}  {rng.choice(NAMES)}", f"path\\to\\{rng.choice(WORDS)}", f"{rng.choice(WORDS)}\t* end  ",
               rng.choice(WORDS)]
        rng.shuffle(raw)
        stdin = "\n".join(raw) + "\n"
        out = "".join(f"{i}{sep}{line.upper()}\n" for i, line in enumerate(raw, 1))
        cases.append({"stdin": stdin, "stdout": out, "exit": 0})
    prompt = shell_prompt(f"numbers the lines of its input and upper-cases them, printing `N{sep}LINE` with every "
                          "line kept exactly as it was (spaces, tabs, backslashes)", module)
    spec = program_spec(prompt, "bash", module.reference, module.wrong(DISABLE, "finding"), cases)
    spec.equivalent["StatementRemoved: `n=0` -> `:`"] = "bash arithmetic reads an unset n as 0"
    return spec


@family("static", "static-shellcheck-legacy", "bash", rubric=SHELLCHECK)
def shellcheck_legacy(rng):
    """Replace backticks, expr and $[ ] with $(( )) and quoted tests (SC2006, SC2003, SC2007, SC2086)."""
    labels = rng.choice([("sum", "prod", "max"), ("plus", "times", "larger"), ("s", "p", "m")])
    module = Module((
        Piece("#!/bin/bash\na=$1\nb=$2\n"),
        Piece("sum=`expr $a + $b`\n", "sum=$((a + b))\n"),
        Piece("prod=$[a * b]\n", "prod=$((a * b))\n", broken="prod=$((a + b))\n"),
        Piece("if [ $a -gt $b ]; then big=$a; else big=$b; fi\n", 'if [ "$a" -gt "$b" ]; then big=$a; else big=$b; fi\n'),
        Piece(f'echo "{labels[0]}=$sum {labels[1]}=$prod {labels[2]}=$big"\n'),
    ))
    cases = []
    for a, b in [(rng.randint(-50, 50), rng.randint(-50, 50)) for _ in range(3)] + [(rng.randint(1, 9), rng.randint(10, 20))]:
        cases.append({"args": [str(a), str(b)], "stdout": f"{labels[0]}={a + b} {labels[1]}={a * b} {labels[2]}={max(a, b)}\n",
                      "exit": 0})
    prompt = shell_prompt("prints the sum, product and larger of two integers A and B (`solution.sh A B`)", module)
    spec = program_spec(prompt, "bash", module.reference, module.wrong(DISABLE, "finding"), cases)
    spec.equivalent['-> `if [ "$a" -ge "$b" ]; then big=$a; else big=$b; fi`'] = "when a equals b either is the larger"
    return spec


@family("static", "static-shellcheck-pipes", "bash", rubric=SHELLCHECK)
def shellcheck_pipes(rng):
    """Drop useless cat, grep | wc -l and echo $(...) (SC2002, SC2126, SC2005, SC2086)."""
    of = rng.choice(["of", "out of", "/"])
    module = Module((
        Piece("#!/bin/bash\nfile=$1\nword=$2\n"),
        Piece("total=$(cat $file | wc -l)\n", 'total=$(wc -l < "$file")\n'),
        Piece("hits=$(grep -F -- $word $file | wc -l)\n", 'hits=$(grep -cF -- "$word" "$file")\n',
              broken='hits=$(grep -cvF -- "$word" "$file")\n'),
        Piece(f'echo $(echo "$hits {of} $total lines")\n', f'echo "$hits {of} $total lines"\n'),
    ))
    cases = []
    for name in spaced_names(rng, 3):
        word = rng.choice(WORDS[:5])
        text = lines_text(rng, WORDS[:7], rng.randint(2, 8))
        cases.append(grep_case(name, word, text, lambda hits, total: f"{hits} {of} {total} lines\n"))
    prompt = shell_prompt(f"prints how many lines of FILE contain WORD and how many lines it has "
                          f"(`solution.sh FILE WORD`, output `HITS {of} TOTAL lines`)", module)
    return program_spec(prompt, "bash", module.reference, module.wrong(DISABLE, "finding"), cases)
