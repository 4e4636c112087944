"""Static analysis, security: remove what `bandit` finds (shell injection, unsafe YAML, weak hashes,
eval, SQL built from strings, insecure temp files) without breaking the hidden tests, which also
feed the code the inputs the finding is about (a quote in a shell word, a YAML tag that runs code).
Graded by unit_tests and bandit together (rlhub_terminal.analysis)."""

from __future__ import annotations

from ..analysis import Module, Piece, fill, rubric
from ..family import NAMES, WORDS, calls_spec, family

# Medium and high severity count: importing subprocess (low) is no finding, calling a shell is.
BANDIT = rubric("bandit", {"severity": "medium", "confidence": "low", "budget": 2})


def security_prompt(what: str, finding: str, module: Module, spec: str = "") -> str:
    return (f"This module {what}. `bandit --severity-level medium` reports {finding}. "
            f"Remove the finding{'s' if 'findings' in finding else ''} by fixing the code, not by hiding it "
            f"(`# nosec` comments are ignored). {spec}Keep every function's name, signature and results for "
            f"ordinary input (hidden tests check them, hostile input included).\n\n```python\n{module.flawed.strip()}\n```")


def awkward_words(rng) -> list[str]:
    """Words a shell would mangle: spaces, quotes, globs, command separators, variables."""
    return [f"{rng.choice(WORDS)} {rng.choice(WORDS)}", f"{rng.choice(NAMES)}'s", "*", f"x; echo {rng.choice(WORDS)}",
            "$HOME", f'"{rng.choice(WORDS)}"']


def text_with(rng, words: list[str], n: int) -> str:
    pool = words + WORDS[:6]
    return "\n".join(" ".join(rng.choice(pool) for _ in range(rng.randint(1, 4))) for _ in range(n)) + "\n"


@family("static", "static-bandit-shell-grep", rubric=BANDIT)
def bandit_shell_grep(rng):
    """Stop building a grep command line with shell=True (B602)."""
    n = dict(fn=rng.choice(["count_matching", "lines_with", "grep_count"]), opt=rng.choice(["-F", "-F -i"]))
    ignore_case = "-i" in n["opt"]
    module = Module((
        Piece("import subprocess\n\n\n"),
        Piece(fill("def $fn(text, word):\n", **n)),
        Piece(fill('    proc = subprocess.run(f"grep -c $opt {word}", shell=True, input=text, capture_output=True, text=True)\n', **n),
              "    proc = subprocess.run([\"grep\", \"-c\", " + ", ".join(repr(o) for o in n["opt"].split())
              + ", \"--\", word], input=text, capture_output=True, text=True)\n",
              broken="    proc = subprocess.run([\"grep\", \"-c\", \"-F\", " + ("" if ignore_case else "\"-i\", ")
              + "\"--\", word], input=text, capture_output=True, text=True)\n"),
        Piece("    return int(proc.stdout.strip() or 0)\n"),
    ))
    oracle = (f"def {n['fn']}(text, word):\n    fold = {ignore_case!r}\n"
              "    lines = text.splitlines()\n"
              "    return sum(1 for line in lines if (word.lower() in line.lower() if fold else word in line))\n")
    words = awkward_words(rng)
    plain = rng.choice(WORDS[:6])
    calls = [(n["fn"], (f"{plain} {rng.choice(WORDS)}\n" + text_with(rng, words, rng.randint(3, 8)), w))
             for w in [plain, plain.upper(), *words]]
    prompt = security_prompt(f"counts the lines of a text that contain a word (`grep -c {n['opt']}`: fixed strings"
                             f"{', any case' if ignore_case else ''})", "a shell-injection finding (B602)", module)
    spec = calls_spec(prompt, module.reference, module.wrong("  # nosec", "finding"), calls, oracle=oracle)
    spec.equivalent["-> `return int(proc.stdout.strip() or "] = "grep -c always prints a count: the fallback is never taken"
    return spec


@family("static", "static-bandit-shell-popen", rubric=BANDIT)
def bandit_shell_popen(rng):
    """Replace os.popen shell pipelines with Python (B605)."""
    n = dict(words=rng.choice(["word_count", "count_words", "n_words"]), field=rng.choice(["first_fields", "heads", "keys_of"]),
             sep=rng.choice([",", ":", ";"]))
    module = Module((
        Piece("import os\n\n\n", "", needed=True),
        Piece(fill("def $words(text):\n    return int(os.popen(f\"printf '%s' '{text}' | wc -w\").read())\n\n\n", **n),
              fill("def $words(text):\n    return len(text.split())\n\n\n", **n),
              broken=fill("def $words(text):\n    return len(text.split(' '))\n\n\n", **n)),
        Piece(fill("def $field(text):\n    out = os.popen(f\"printf '%s\\\\n' '{text}' | cut -d'$sep' -f1\").read()\n"
                   "    return out.splitlines()\n", **n),
              fill("def $field(text):\n    return [line.split('$sep')[0] for line in text.splitlines()]\n", **n)),
    ))
    lines = [n["sep"].join(rng.sample(WORDS, 3)) for _ in range(3)]
    calls = [(n["words"], (" ".join(rng.sample(WORDS, rng.randint(2, 6))),)), (n["words"], ("it's  " + rng.choice(WORDS),)),
             (n["words"], ("a  b\tc",)), (n["field"], ("\n".join(lines),)),
             (n["field"], (f"{rng.choice(NAMES)}'s{n['sep']}x\n$HOME{n['sep']}y",))]
    prompt = security_prompt(f"counts words (as `wc -w` does) and takes the first '{n['sep']}'-separated field of each line",
                             "shell-injection findings (B605)", module)
    return calls_spec(prompt, module.reference, module.wrong("  # nosec", "finding"), calls)


@family("static", "static-bandit-yaml-load", rubric=BANDIT)
def bandit_yaml_load(rng):
    """Load untrusted YAML safely (B506)."""
    n = dict(fn=rng.choice(["load_config", "read_settings", "parse_config"]), port=rng.choice([80, 8080, 5000]),
             key=rng.choice(["name", "service", "app"]))
    module = Module((
        Piece("import yaml\n\n\n"),
        Piece(fill("def $fn(text):\n    try:\n", **n)),
        Piece("        data = yaml.load(text, Loader=yaml.Loader)\n", "        data = yaml.safe_load(text)\n",
              broken="        data = yaml.safe_load(text.splitlines()[0] if text else text)\n"),
        Piece(fill("    except yaml.YAMLError:\n        return None\n    if not isinstance(data, dict):\n        return None\n"
                   '    return {"$key": str(data.get("$key", "?")), "port": int(data.get("port", $port)), '
                   '"debug": data.get("debug") is True}\n', **n)),
    ))
    name = rng.choice(WORDS)
    docs = [f"{n['key']}: {name}\nport: {rng.randint(1000, 9999)}\ndebug: true\n", f"{n['key']}: {rng.choice(WORDS)}\n",
            f"port: {rng.randint(1, 999)}\ndebug: no\n", "- just\n- a list\n", f"{n['key']}: [unclosed\n",
            f"{n['key']}: !!python/object/apply:builtins.len [[1, 2, 3]]\nport: 1\n",
            f"port: !!python/object/apply:builtins.abs [-{rng.randint(2, 99)}]\n"]
    calls = [(n["fn"], (d,)) for d in docs]
    prompt = security_prompt("reads a service's settings from YAML that users upload (anything that is not a valid "
                             "plain YAML mapping gives None)", "an unsafe YAML load (B506)", module)
    return calls_spec(prompt, module.reference, module.wrong("  # nosec", "finding"), calls)


@family("static", "static-bandit-weak-hash-etag", rubric=BANDIT)
def bandit_weak_hash_etag(rng):
    """Mark an MD5 that is no security measure (a cache key) as such (B324), keeping its value."""
    n = dict(fn=rng.choice(["etag", "cache_key", "fingerprint"]), algo=rng.choice(["md5", "sha1"]), k=rng.choice([8, 12, 16]))
    module = Module((
        Piece("import hashlib\n\n\n"),
        Piece(fill("def $fn(content, version=1):\n    data = f\"{version}:{content}\".encode()\n", **n)),
        Piece(fill("    return hashlib.$algo(data).hexdigest()[:$k]\n", **n),
              fill("    return hashlib.$algo(data, usedforsecurity=False).hexdigest()[:$k]\n", **n),
              broken=fill("    return hashlib.sha256(data).hexdigest()[:$k]\n", **n)),
    ))
    calls = [(n["fn"], (" ".join(rng.sample(WORDS, rng.randint(1, 5))),)) for _ in range(3)] + [(n["fn"], ("", 2)),
                                                                                                  (n["fn"], ("x", rng.randint(3, 9)))]
    prompt = security_prompt(f"computes short cache keys for HTTP responses with {n['algo'].upper()}; the keys are stored "
                             "by clients, so their values must not change", "a weak-hash finding (B324) although the hash "
                             "is no security measure here", module)
    spec = calls_spec(prompt, module.reference, module.wrong("  # nosec", "finding"), calls)
    spec.equivalent["usedforsecurity=True)"] = "the flag only marks the hash's purpose: the digest is the same"
    return spec


@family("static", "static-bandit-password-hash", rubric=BANDIT)
def bandit_password_hash(rng):
    """Move password hashing from a fast weak hash to PBKDF2 as specified (B324)."""
    n = dict(fn=rng.choice(["hash_password", "password_digest", "store_hash"]), chk=rng.choice(["check_password", "verify", "matches"]),
             algo=rng.choice(["md5", "sha1"]), iters=rng.choice([1000, 2000, 5000]))
    module = Module((
        Piece("import hashlib\nimport hmac\n\n\n"),
        Piece(fill("def $fn(password, salt):\n", **n)),
        Piece(fill("    return hashlib.$algo((salt + password).encode()).hexdigest()\n\n\n", **n),
              fill('    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), $iters).hex()\n\n\n', **n),
              broken=fill("    return hashlib.$algo((salt + password).encode(), usedforsecurity=False).hexdigest()\n\n\n", **n)),
        Piece(fill("def $chk(password, salt, digest):\n    return hmac.compare_digest($fn(password, salt), digest)\n", **n)),
    ))
    oracle = (f"import hashlib, hmac\ndef {n['fn']}(password, salt):\n"
              f"    return hashlib.pbkdf2_hmac('sha256', password.encode(), salt.encode(), {n['iters']}).hex()\n"
              f"def {n['chk']}(password, salt, digest):\n    return hmac.compare_digest({n['fn']}(password, salt), digest)\n")
    import hashlib

    pw, salt = rng.choice(WORDS) + str(rng.randint(10, 99)), rng.choice(NAMES)
    good = hashlib.pbkdf2_hmac("sha256", pw.encode(), salt.encode(), n["iters"]).hex()
    calls = [(n["fn"], (pw, salt)), (n["fn"], (rng.choice(WORDS), rng.choice(NAMES))), (n["chk"], (pw, salt, good)),
             (n["chk"], (pw + "x", salt, good))]
    prompt = security_prompt(f"hashes passwords with salted {n['algo'].upper()}", "a weak-hash finding (B324)", module,
                             f"Passwords must now be hashed with PBKDF2-HMAC-SHA256 (`hashlib.pbkdf2_hmac`, UTF-8 password "
                             f"and salt, {n['iters']} iterations, hex digest); `{n['chk']}` keeps comparing in constant time. ")
    return calls_spec(prompt, module.reference, module.wrong("  # nosec", "finding"), calls, oracle=oracle)


@family("static", "static-bandit-eval", rubric=BANDIT)
def bandit_eval(rng):
    """Parse literals without eval (B307)."""
    n = dict(fn=rng.choice(["parse_value", "read_literal", "decode"]), total=rng.choice(["total_of", "sum_values", "add_up"]))
    module = Module((
        Piece("", "import ast\n\n\n", needed=True),
        Piece(fill("def $fn(text):\n    try:\n", **n)),
        Piece("        return eval(text)\n", "        return ast.literal_eval(text)\n", broken="        return str(text)\n"),
        Piece(fill("    except (ValueError, SyntaxError, TypeError):\n        return None\n\n\n"
                   "def $total(texts):\n    values = [$fn(t) for t in texts]\n"
                   "    return sum(v for v in values if type(v) in (int, float))\n", **n)),
    ))
    texts = [str(rng.randint(-99, 99)), repr(rng.sample(WORDS, 2)), f"{{'{rng.choice(WORDS)}': ({rng.randint(1, 9)}, None)}}",
             str(round(rng.uniform(-9, 9), 2)), "__import__('os').getcwd()", f"{rng.randint(1, 9)} + {rng.randint(1, 9)}",
             "len('abc')", "[1, 2"]
    calls = [(n["fn"], (t,)) for t in texts] + [(n["total"], (texts,))]
    prompt = security_prompt("turns text from a config form into Python literals (numbers, strings, lists, dicts, tuples, "
                             "None; anything else gives None)", "a use of eval (B307)", module)
    spec = calls_spec(prompt, module.reference, module.wrong("  # nosec", "finding"), calls)
    spec.equivalent["StatementRemoved: `return None` -> `pass`"] = "the handler ends the function: it returns None anyway"
    return spec


@family("static", "static-bandit-sql", rubric=BANDIT)
def bandit_sql(rng):
    """Stop building SQL from strings (B608): use query parameters."""
    n = dict(fn=rng.choice(["find_users", "users_named", "lookup_users"]), table=rng.choice(["users", "members", "people"]),
             order=rng.choice(["age", "age DESC"]))
    module = Module((
        Piece("import sqlite3\n\n\n"),
        Piece(fill("def $fn(rows, name):\n    con = sqlite3.connect(\":memory:\")\n"
                   "    con.execute(\"CREATE TABLE $table (name TEXT, age INTEGER)\")\n"
                   "    con.executemany(\"INSERT INTO $table VALUES (?, ?)\", rows)\n", **n)),
        Piece(fill("    query = f\"SELECT name, age FROM $table WHERE name = '{name}' ORDER BY $order\"\n"
                   "    return [list(r) for r in con.execute(query)]\n", **n),
              fill("    query = \"SELECT name, age FROM $table WHERE name = ? ORDER BY $order\"\n"
                   "    return [list(r) for r in con.execute(query, (name,))]\n", **n),
              broken=fill("    query = \"SELECT name, age FROM $table WHERE name LIKE ? ORDER BY $order\"\n"
                          "    return [list(r) for r in con.execute(query, (name,))]\n", **n)),
    ))
    names = rng.sample(NAMES, 4)
    rows = [[rng.choice(names), rng.randint(18, 90)] for _ in range(8)] + [["o'brien", 41], [names[0].upper(), 33]]
    calls = [(n["fn"], (rows, names[0])), (n["fn"], (rows, "o'brien")), (n["fn"], (rows, "x' OR '1'='1")),
             (n["fn"], (rows, names[0].upper())), (n["fn"], (rows, "nobody"))]
    prompt = security_prompt("looks people up by exact name in an SQLite table", "SQL built from strings (B608)", module)
    return calls_spec(prompt, module.reference, module.wrong("  # nosec", "finding"), calls)


@family("static", "static-bandit-tempfile", rubric=BANDIT)
def bandit_tempfile(rng):
    """Use safe temporary files instead of mktemp and a fixed /tmp path (B306, B108)."""
    n = dict(sorted_fn=rng.choice(["sort_lines", "sorted_text", "ordered"]), upper=rng.choice(["shout", "upper_file", "caps"]),
             name=rng.choice(["report.txt", "scratch.txt", "buffer.txt"]))
    module = Module((
        Piece("import os\nimport tempfile\n\n\n"),
        Piece(fill("def $sorted_fn(text):\n", **n)),
        Piece("    path = tempfile.mktemp()\n    with open(path, \"w\") as fh:\n        fh.write(text)\n",
              "    fd, path = tempfile.mkstemp()\n    with os.fdopen(fd, \"w\") as fh:\n        fh.write(text)\n"),
        Piece("    with open(path) as fh:\n        lines = sorted(fh.read().splitlines())\n    os.remove(path)\n"
              "    return \"\\n\".join(lines)\n\n\n"),
        Piece(fill("def $upper(text):\n", **n)),
        Piece(fill("    path = \"/tmp/$name\"\n", **n), fill("    fd, path = tempfile.mkstemp(suffix=\"-$name\")\n    os.close(fd)\n", **n)),
        Piece("    with open(path, \"w\") as fh:\n        fh.write(text.upper())\n    with open(path) as fh:\n"
              "        out = fh.read()\n    os.remove(path)\n    return out\n"),
    ))
    calls = [(n["sorted_fn"], ("\n".join(rng.sample(WORDS, rng.randint(2, 7))),)), (n["sorted_fn"], ("",)),
             (n["upper"], (" ".join(rng.sample(NAMES, 3)),)), (n["upper"], ("mixed Case 42",))]
    prompt = security_prompt("round-trips text through temporary files", "insecure temporary-file findings (B306, B108)", module)
    spec = calls_spec(prompt, module.reference, module.wrong("  # nosec", "finding"), calls)
    leak = "a temporary file or descriptor left behind: the results are the same (the calls' tests see results only)"
    spec.equivalent.update({"StatementRemoved: `os.remove(path)` -> `pass`": leak, "StatementRemoved: `os.close(fd)` -> `pass`": leak})
    return spec
