"""CSV, JSON and INI parsing families."""

from __future__ import annotations

import json

from ..family import CITIES, NAMES, WORDS, family, function_spec, pick


def _csv(rows):
    def cell(v):
        v = str(v)
        return '"' + v.replace('"', '""') + '"' if any(c in v for c in ',"') else v
    return "\n".join(",".join(cell(v) for v in r) for r in rows) + "\n"


@family("formats", "csv-column-stats")
def csv_column_stats(rng):
    """min/max/mean of a numeric CSV column with quoted fields and blanks."""
    col = rng.choice(["price", "weight", "score", "amount"])
    cases = []
    for _ in range(4):
        rows = [["name", "city", col]]
        for _ in range(rng.randint(3, 8)):
            rows.append([rng.choice(NAMES).title(), f"{rng.choice(CITIES)}, {rng.choice(['NO', 'PE', 'EG'])}",
                         "" if rng.random() < 0.2 else f"{rng.uniform(-50, 200):.2f}"])
        rows.append(["Zed", "Nowhere, XX", "7.5"])
        cases.append((_csv(rows), col))
    cases.append((_csv([["name", "city", col], ["Amy", "Oslo, NO", ""], ["Bo", "Lima, PE", " "]]), col))  # no values
    ref = '''
import csv
import io

def column_stats(text, column):
    values = [float(r[column]) for r in csv.DictReader(io.StringIO(text)) if r[column].strip()]
    if not values:
        return None
    return {"min": min(values), "max": max(values), "mean": round(sum(values) / len(values), 2)}
'''
    wrong = ['''
def column_stats(text, column):
    lines = text.strip().splitlines()
    idx = lines[0].split(",").index(column)
    values = [float(l.split(",")[idx]) for l in lines[1:] if l.split(",")[idx].strip()]
    return {"min": min(values), "max": max(values), "mean": round(sum(values) / len(values), 2)}
''']
    prompt = ("Write `column_stats(text, column)` for CSV text with a header row (fields may be quoted and contain "
              "commas). Return {'min': ..., 'max': ..., 'mean': ...} of the named numeric column as floats, mean "
              "rounded to 2 decimals, skipping empty cells; None if there are no values.")
    return function_spec(prompt, "column_stats", ref, wrong, cases)


@family("formats", "csv-group-sum")
def csv_group_sum(rng):
    """Sum a value column grouped by a key column."""
    key, val = rng.choice([("region", "sales"), ("team", "points"), ("store", "units")])
    cases = []
    for _ in range(4):
        rows = [["id", key, "note", val]]
        for i in range(rng.randint(4, 10)):
            rows.append([i, rng.choice(CITIES), rng.choice(["ok", 'said "hi"', "a, b"]), rng.randint(-5, 100)])
        rows.insert(rng.randint(1, len(rows)), [99, rng.choice(CITIES), "7, 8", rng.randint(1, 9)])
        cases.append((_csv(rows), key, val))
    ref = '''
import csv
import io

def group_totals(text, key, value):
    totals = {}
    for row in csv.DictReader(io.StringIO(text)):
        totals[row[key]] = totals.get(row[key], 0) + int(row[value])
    return dict(sorted(totals.items()))
'''
    wrong = ['''
def group_totals(text, key, value):
    lines = text.strip().splitlines()
    head = lines[0].split(",")
    totals = {}
    for line in lines[1:]:
        cells = line.split(",")
        k = cells[head.index(key)]
        totals[k] = totals.get(k, 0) + int(cells[head.index(value)])
    return dict(sorted(totals.items()))
''']
    prompt = ("Write `group_totals(text, key, value)` that reads CSV text (header row; fields may be quoted and contain "
              "commas or doubled quotes) and returns a dict mapping each distinct `key` column value to the sum of the "
              "integer `value` column, with keys in sorted order.")
    return function_spec(prompt, "group_totals", ref, wrong, cases)


def _nested(rng, depth):
    if depth == 0 or rng.random() < 0.3:
        return rng.choice([rng.randint(0, 99), rng.choice(WORDS), None, True])
    if rng.random() < 0.4:
        return [_nested(rng, depth - 1) for _ in range(rng.randint(1, 3))]
    return {rng.choice(WORDS): _nested(rng, depth - 1) for _ in range(rng.randint(1, 3))}


@family("formats", "json-flatten")
def json_flatten(rng):
    """Flatten nested JSON into dotted keys with list indices."""
    sep = rng.choice([".", "/"])
    cases = [({rng.choice(NAMES): _nested(rng, 3) for _ in range(3)},) for _ in range(4)]
    cases.append(({"a": [1, {"b": 2}], "c": {}, "d": []},))
    ref = f'''
def flatten(obj, prefix=""):
    out = {{}}
    items = obj.items() if isinstance(obj, dict) else enumerate(obj)
    for k, v in items:
        key = f"{{prefix}}{sep}{{k}}" if prefix else str(k)
        if isinstance(v, (dict, list)) and v:
            out.update(flatten(v, key))
        else:
            out[key] = v
    return out
'''
    wrong = [f'''
def flatten(obj, prefix=""):
    out = {{}}
    for k, v in obj.items():
        key = f"{{prefix}}{sep}{{k}}" if prefix else str(k)
        if isinstance(v, dict) and v:
            out.update(flatten(v, key))
        else:
            out[key] = v
    return out
''']
    prompt = (f"Write `flatten(obj)` turning a nested JSON value (dicts and lists) into a flat dict whose keys are "
              f"paths joined by {sep!r}; list items use their index as the path part. Empty dicts and lists are kept "
              f"as leaf values.")
    return function_spec(prompt, "flatten", ref, wrong, cases)


@family("formats", "json-deep-merge")
def json_deep_merge(rng):
    """Recursive merge of two config objects; lists concatenated."""
    cases = [({w: _nested(rng, 2) for w in pick(rng, WORDS, 3)}, {w: _nested(rng, 2) for w in pick(rng, WORDS, 3)}) for _ in range(3)]
    cases.append(({"db": {"host": "a", "port": 1}, "tags": [1]}, {"db": {"port": 2}, "tags": [2], "x": None}))
    cases.append(({"a": {"b": {"c": 1, "d": 2}}}, {"a": {"b": {"c": 3}}, "e": {"f": 1}}))
    ref = '''
import copy

def merge(base, override):
    out = copy.deepcopy(base)
    for k, v in override.items():
        if isinstance(out.get(k), dict) and isinstance(v, dict):
            out[k] = merge(out[k], v)
        elif isinstance(out.get(k), list) and isinstance(v, list):
            out[k] = out[k] + copy.deepcopy(v)
        else:
            out[k] = copy.deepcopy(v)
    return out
'''
    wrong = ['''
def merge(base, override):
    out = dict(base)
    out.update(override)
    return out
''']
    prompt = ("Write `merge(base, override)` returning a new dict: keys of `override` win, except that when both "
              "values are dicts they are merged recursively, and when both are lists the result is base's list "
              "followed by override's. Neither input is modified.")
    spec = function_spec(prompt, "merge", ref, wrong, cases, effects=True)
    spec.clauses["Neither input is modified."] = '''
def merge(base, override):
    for k, v in override.items():
        if isinstance(base.get(k), dict) and isinstance(v, dict):
            base[k] = merge(base[k], v)
        elif isinstance(base.get(k), list) and isinstance(v, list):
            base[k] = base[k] + v
        else:
            base[k] = v
    return base
'''
    return spec


@family("formats", "ini-parse")
def ini_parse(rng):
    """Parse INI text with comments, whitespace and repeated keys."""
    cases = []
    for _ in range(4):
        lines = []
        for sec in pick(rng, ["server", "database", "cache", "logging", "auth"], 2):
            lines.append(rng.choice([f"[{sec}]", f"  [{sec}]  "]))
            for _ in range(rng.randint(1, 4)):
                k = rng.choice(["Host", "port", "level", "Name", "path"])
                lines.append(f"{k} {rng.choice(['=', ' = ', '= '])}{rng.choice(WORDS)}{rng.choice(['', '  '])}")
                if rng.random() < 0.4:
                    lines.append(rng.choice(["; a comment", "# note = x", ""]))
        cases.append(("\n".join(lines) + "\n",))
    cases.append(("[a]\nKey = 1\nkey=2\n# x = 3\n\n[b]\nurl = http://h/?q=1\nopts = [x, y]\n",))  # a value in brackets
    ref = '''
def parse_ini(text):
    data, section = {}, None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in ";#":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            data.setdefault(section, {})
        elif "=" in line and section is not None:
            key, value = line.split("=", 1)
            data[section][key.strip().lower()] = value.strip()
    return data
'''
    wrong = ['''
def parse_ini(text):
    data, section = {}, None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            data.setdefault(section, {})
        elif "=" in line and section is not None:
            key, value = line.split("=", 1)
            data[section][key.strip().lower()] = value.strip()
    return data
''']
    prompt = ("Write `parse_ini(text)` returning {section: {key: value}}. Section headers are `[name]` (surrounding "
              "whitespace ignored); entries are `key = value` split at the first '='; keys are lower-cased and both "
              "sides stripped; a repeated key keeps its last value; blank lines and lines starting with ';' or '#' are "
              "comments.")
    spec = function_spec(prompt, "parse_ini", ref, wrong, cases)
    spec.equivalent['-> `elif "=" in line or section is not None:`'] = (
        "the task's INI text holds headers, entries under a header and comments only: no line is neither")
    return spec


@family("formats", "json-validate")
def json_validate(rng):
    """Minimal schema validation with precise error messages."""
    fields = pick(rng, ["id", "name", "age", "email", "active", "score"], 4)
    types = {f: rng.choice(["int", "str", "bool", "float"]) for f in fields}
    samples = {"int": [3, True, "3"], "str": ["x", 1], "bool": [True, 0], "float": [1.5, 2, "1.5"]}
    cases = []
    for _ in range(4):
        rec = {f: rng.choice(samples[types[f]]) for f in fields if rng.random() < 0.8}
        cases.append((rec, types))
    cases.append(({fields[0]: True}, {fields[0]: "int"}))
    ref = '''
TYPES = {"int": int, "str": str, "bool": bool, "float": (int, float)}

def validate(record, schema):
    errors = []
    for field in sorted(schema):
        want = schema[field]
        if field not in record:
            errors.append(f"{field}: missing")
        elif isinstance(record[field], bool) and want != "bool" or not isinstance(record[field], TYPES[want]):
            errors.append(f"{field}: expected {want}")
    return errors
'''
    wrong = ['''
TYPES = {"int": int, "str": str, "bool": bool, "float": (int, float)}

def validate(record, schema):
    errors = []
    for field in sorted(schema):
        if field not in record:
            errors.append(f"{field}: missing")
        elif not isinstance(record[field], TYPES[schema[field]]):
            errors.append(f"{field}: expected {schema[field]}")
    return errors
''']
    prompt = ("Write `validate(record, schema)`: `schema` maps field names to 'int', 'str', 'bool' or 'float'. Return "
              "a list of errors in sorted field order: 'FIELD: missing' or 'FIELD: expected TYPE'. Booleans are not "
              "ints or floats; ints are acceptable floats.")
    return function_spec(prompt, "validate", ref, wrong, cases)


@family("formats", "csv-typed-records")
def csv_typed_records(rng):
    """CSV rows to dicts with int/float/empty conversion."""
    cases = []
    for _ in range(4):
        rows = [["name", "qty", "price", "note"]]
        for _ in range(rng.randint(2, 5)):
            rows.append([rng.choice(NAMES), rng.randint(-3, 50), round(rng.uniform(0, 99), 2), rng.choice(["", "x y", "007", "1e3x"])])
        cases.append((_csv(rows),))
    cases.append(("a,b\n-4,2.50\n,abc\n",))
    ref = '''
import csv
import io

def convert(v):
    if v == "":
        return None
    for kind in (int, float):
        try:
            return kind(v)
        except ValueError:
            pass
    return v

def records(text):
    return [{k: convert(v) for k, v in row.items()} for row in csv.DictReader(io.StringIO(text))]
'''
    wrong = ['''
import csv
import io

def records(text):
    out = []
    for row in csv.DictReader(io.StringIO(text)):
        out.append({k: int(v) if v.isdigit() else v for k, v in row.items()})
    return out
''']
    prompt = ("Write `records(text)` turning CSV text (header row) into a list of dicts. Convert each cell: empty -> "
              "None, else int if `int(cell)` works, else float if `float(cell)` works, else the string unchanged.")
    return function_spec(prompt, "records", ref, wrong, cases)


@family("formats", "jsonl-dedupe")
def jsonl_dedupe(rng):
    """Deduplicate JSON lines by key, last wins, first position kept."""
    key = rng.choice(["id", "sku", "user"])
    cases = []
    for _ in range(4):
        lines = [json.dumps({key: rng.randint(1, 4), "v": rng.choice(WORDS)}) for _ in range(rng.randint(3, 8))]
        lines.insert(rng.randint(0, len(lines)), "")
        cases.append((lines, key))
    cases.append(([json.dumps({key: 1, "v": "a"}), json.dumps({key: 2, "v": "b"}), json.dumps({key: 1, "v": "c"})], key))
    ref = '''
import json

def dedupe(lines, key):
    order, latest = [], {}
    for line in lines:
        if not line.strip():
            continue
        rec = json.loads(line)
        if rec[key] not in latest:
            order.append(rec[key])
        latest[rec[key]] = rec
    return [latest[k] for k in order]
'''
    wrong = ['''
import json

def dedupe(lines, key):
    seen, out = set(), []
    for line in lines:
        if line.strip():
            rec = json.loads(line)
            if rec[key] not in seen:
                seen.add(rec[key])
                out.append(rec)
    return out
''']
    prompt = ("Write `dedupe(lines, key)`: each non-blank line is a JSON object. Keep one record per value of `key`: "
              "the last one seen, placed where that key first appeared. Return the list of dicts.")
    return function_spec(prompt, "dedupe", ref, wrong, cases)


@family("formats", "json-path-get")
def json_path_get(rng):
    """Look up `a.b[2].c` paths in nested JSON, None when absent."""
    doc = {"users": [{"name": n, "tags": pick(rng, WORDS, 2), "address": {"city": rng.choice(CITIES)}} for n in pick(rng, NAMES, 3)],
           "meta": {"count": 3, "next": None}}
    paths = ["users[1].name", f"users[{rng.randint(0, 2)}].tags[1]", "users[2].address.city", "meta.count",
             "users[5].name", "meta.missing", "users.name", "meta.next", "users[0].tags[-1]",
             "users[3].name", "users[-3].name", "users[-4].name"]  # just past each end of the list
    ref = '''
import re

def get_path(obj, path):
    for name, index in re.findall(r"([^.\\[\\]]+)|\\[(-?\\d+)\\]", path):
        if name:
            if not isinstance(obj, dict) or name not in obj:
                return None
            obj = obj[name]
        else:
            i = int(index)
            if not isinstance(obj, list) or not -len(obj) <= i < len(obj):
                return None
            obj = obj[i]
    return obj
'''
    wrong = ['''
def get_path(obj, path):
    for part in path.replace("[", ".").replace("]", "").split("."):
        try:
            obj = obj[int(part)] if part.lstrip("-").isdigit() else obj[part]
        except (KeyError, IndexError, TypeError):
            return None
    return obj
''', '''
def get_path(obj, path):
    for part in path.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return None
        obj = obj[part]
    return obj
''']
    prompt = ("Write `get_path(obj, path)` for nested JSON data: `path` is like `users[1].address.city` (dict keys "
              "separated by dots, list indices in brackets, negative indices allowed). Return the value, or None if any "
              "step is missing or of the wrong kind (e.g. indexing a dict, a key on a list).")
    cases = [(doc, p) for p in paths]
    cases += [({"a": {"0": 1}}, "a[0]"), ({"a": {"0": 1}}, "a.0")]
    return function_spec(prompt, "get_path", ref, wrong, cases)


@family("formats", "ini-to-env")
def ini_to_env(rng):
    """INI sections to sorted SECTION_KEY=value environment lines."""
    cases = []
    for _ in range(4):
        parts = []
        for sec in pick(rng, ["app", "db", "cache", "mail-server"], 2):
            parts.append(f"[{sec}]")
            parts += [f"{k} = {rng.choice(WORDS)} {rng.randint(1, 9)}" for k in pick(rng, ["host", "port", "user-name", "url"], 2)]
        cases.append(("\n".join(parts) + "\n",))
    cases.append(("[a-b]\nc.d = has spaces\n",))
    ref = '''
import configparser
import re
import shlex

def to_env(text):
    cp = configparser.ConfigParser(interpolation=None)
    cp.read_string(text)
    out = []
    for section in cp.sections():
        for key, value in cp.items(section):
            name = re.sub(r"[^A-Z0-9]", "_", f"{section}_{key}".upper())
            out.append(f"{name}={shlex.quote(value)}")
    return sorted(out)
'''
    wrong = ['''
import configparser

def to_env(text):
    cp = configparser.ConfigParser(interpolation=None)
    cp.read_string(text)
    return sorted(f"{s.upper()}_{k.upper()}={v}" for s in cp.sections() for k, v in cp.items(s))
''']
    prompt = ("Write `to_env(text)` turning INI text into shell environment assignments: for each key of each section, "
              "`NAME=value` where NAME is `SECTION_KEY` upper-cased with every character other than A-Z and 0-9 "
              "replaced by '_', and value is quoted with `shlex.quote`. Return the lines sorted.")
    return function_spec(prompt, "to_env", ref, wrong, cases)
