"""Regular-expression families: extraction, validation, normalisation, redaction."""

from __future__ import annotations

from ..family import NAMES, WORDS, family, function_spec


@family("regex", "regex-extract-emails")
def regex_extract_emails(rng):
    """Extract e-mail addresses, unique, in order, without trailing punctuation."""
    def addr():
        return f"{rng.choice(NAMES)}{rng.choice(['', '.', '_'])}{rng.choice(WORDS)}@{rng.choice(WORDS)}.{rng.choice(['com', 'org', 'co.uk'])}"
    cases = []
    for _ in range(4):
        parts = []
        for _ in range(rng.randint(2, 5)):
            parts.append(rng.choice([f"mail {addr()}.", f"<{addr()}>", f"({addr()}),", "user@localhost", "a@b", "x@@y.com"]))
        a = addr()
        parts.append(f"again {a} and {a.upper()}")
        cases.append((" ".join(parts),))
    cases.append(("contact: Ann.Lee@Example.org. or bob@x.io!",))
    ref = '''
import re

PATTERN = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}")

def emails(text):
    out = []
    for m in PATTERN.findall(text):
        if m.lower() not in out:
            out.append(m.lower())
    return out
'''
    wrong = ['''
import re

def emails(text):
    out = []
    for m in re.findall(r"\\S+@\\S+", text):
        if m.lower() not in out:
            out.append(m.lower())
    return out
''']
    return function_spec("Write `emails(text)` returning the e-mail addresses in `text`, lower-cased, without duplicates, in "
                         "order of first appearance. An address is local@domain where the local part uses letters, digits "
                         "and ._%+-, and the domain is dot-separated labels of letters, digits and '-' ending in a top-level "
                         "label of 2+ letters (so 'user@localhost' is not one, and a trailing '.' or ',' is not part of it).",
                         "emails", ref, wrong, cases)


@family("regex", "ipv4-valid")
def ipv4_valid(rng):
    """Strict dotted-quad IPv4 validation."""
    samples = [".".join(str(rng.randint(0, 255)) for _ in range(4)) for _ in range(3)]
    samples += ["256.1.1.1", "1.2.3", "01.2.3.4", "1.2.3.4.", " 1.2.3.4", "0.0.0.0", "255.255.255.255",
                f"{rng.randint(0, 9)}.{rng.randint(300, 999)}.1.1", "1.2.3.a", "1..3.4"]
    ref = '''
def is_ipv4(s):
    parts = s.split(".")
    return len(parts) == 4 and all(p.isdigit() and p.isascii() and (p == "0" or not p.startswith("0")) and int(p) <= 255 for p in parts)
'''
    wrong = ['''
import re

def is_ipv4(s):
    return bool(re.fullmatch(r"\\d{1,3}(\\.\\d{1,3}){3}", s))
''']
    return function_spec("Write `is_ipv4(s)`: True if s is exactly four decimal numbers 0-255 separated by dots, with no "
                         "leading zeros (except '0' itself), signs or spaces; else False.", "is_ipv4", ref, wrong,
                         [(s,) for s in samples])


@family("regex", "phone-normalize")
def phone_normalize(rng):
    """Normalise North-American phone numbers or reject them."""
    def num():
        a, b, c = rng.randint(200, 999), rng.randint(200, 999), rng.randint(0, 9999)
        return rng.choice([f"({a}) {b}-{c:04d}", f"{a}.{b}.{c:04d}", f"+1 {a} {b} {c:04d}", f"1-{a}-{b}-{c:04d}", f"{a}{b}{c:04d}"])
    cases = [(num(),) for _ in range(5)] + [("555-1234",), ("+44 20 7946 0958",), ("(123) 456-7890x",), ("2125551234",)]
    ref = '''
import re

def normalize_phone(s):
    m = re.fullmatch(r"\\s*(?:\\+?1[\\s.-]?)?\\(?(\\d{3})\\)?[\\s.-]?(\\d{3})[\\s.-]?(\\d{4})\\s*", s)
    return f"+1-{m.group(1)}-{m.group(2)}-{m.group(3)}" if m else None
'''
    wrong = ['''
import re

def normalize_phone(s):
    digits = re.sub(r"\\D", "", s)[-10:]
    return f"+1-{digits[:3]}-{digits[3:6]}-{digits[6:]}" if len(digits) == 10 else None
''']
    return function_spec("Write `normalize_phone(s)` accepting North-American numbers written like '(212) 555-0100', "
                         "'212.555.0100', '+1 212 555 0100', '1-212-555-0100' or '2125550100' (optional +1/1 country "
                         "prefix, separators space, '.' or '-', optional parentheses around the area code) and returning "
                         "'+1-AAA-BBB-CCCC'; anything else (other countries, extensions, too few digits) gives None.",
                         "normalize_phone", ref, wrong, cases)


@family("regex", "date-reformat")
def date_reformat(rng):
    """Rewrite valid DD/MM/YYYY dates in text as ISO, leave others."""
    def d():
        return f"{rng.randint(1, 31):02d}/{rng.randint(1, 13):02d}/{rng.randint(1990, 2030)}"
    cases = [(f"due {d()}, paid {d()}; ref 12/34/5678 {rng.choice(WORDS)}",) for _ in range(4)]
    cases.append(("31/04/2024 and 29/02/2024 and 29/02/2023 and 1/2/2024 and 111/02/2024",))
    ref = '''
import re
from datetime import date

def iso_dates(text):
    def fix(m):
        d, mo, y = map(int, m.groups())
        try:
            return date(y, mo, d).isoformat()
        except ValueError:
            return m.group(0)
    return re.sub(r"\\b(\\d{2})/(\\d{2})/(\\d{4})\\b", fix, text)
'''
    wrong = ['''
import re

def iso_dates(text):
    return re.sub(r"(\\d{2})/(\\d{2})/(\\d{4})", r"\\3-\\2-\\1", text)
''']
    return function_spec("Write `iso_dates(text)` replacing every date written DD/MM/YYYY (exactly 2/2/4 digits, not part of a "
                         "longer number) with YYYY-MM-DD, but only if it is a real calendar date; other text is unchanged.",
                         "iso_dates", ref, wrong, cases)


@family("regex", "hashtags")
def hashtags(rng):
    """Unique hashtags, case-insensitive, first-seen order."""
    cases = []
    for _ in range(4):
        tags = [rng.choice(WORDS) for _ in range(4)]
        text = " ".join(rng.choice([f"#{t}", f"#{t.upper()}", f"#{t}!", f"x#{t}", f"##{t}", t]) for t in tags + tags[:2])
        cases.append((text,))
    cases.append(("#Go2024 #go2024, #_x #1 email a#b (#ok)",))
    ref = '''
import re

def hashtags(text):
    out = []
    for tag in re.findall(r"(?<![\\w#])#(\\w+)", text):
        if tag.lower() not in out:
            out.append(tag.lower())
    return out
'''
    wrong = ['''
import re

def hashtags(text):
    out = []
    for tag in re.findall(r"#(\\w+)", text):
        if tag not in out:
            out.append(tag)
    return out
''']
    return function_spec("Write `hashtags(text)`: the hashtags (# followed by word characters [A-Za-z0-9_]) that are not "
                         "preceded by a word character or another '#', lower-cased, without the '#', without duplicates, "
                         "in order of first appearance.", "hashtags", ref, wrong, cases)


@family("regex", "redact-cards")
def redact_cards(rng):
    """Mask 16-digit card numbers keeping the last four digits."""
    def card():
        g = [f"{rng.randint(0, 9999):04d}" for _ in range(4)]
        return rng.choice([" ".join(g), "-".join(g), "".join(g)])
    cases = [(f"card {card()} exp 12/27, order {rng.randint(10**9, 10**10)}, alt {card()}",) for _ in range(4)]
    cases.append(("id 12345678901234567 not a card; 1234-5678-9012-3456.",))
    ref = '''
import re

def redact(text):
    return re.sub(r"(?<!\\d)(?:\\d{4}[ -]?){3}(\\d{4})(?!\\d)", lambda m: "**** **** **** " + m.group(1), text)
'''
    wrong = ['''
import re

def redact(text):
    return re.sub(r"(?:\\d{4}[ -]?){3}(\\d{4})", lambda m: "**** **** **** " + m.group(1), text)
''']
    return function_spec("Write `redact(text)` replacing each 16-digit card number (four groups of 4 digits, optionally separated "
                         "by single spaces or dashes, not part of a longer digit run) with '**** **** **** ' followed by its "
                         "last four digits.", "redact", ref, wrong, cases)


@family("regex", "semver-max")
def semver_max(rng):
    """Highest semantic version, pre-releases below releases."""
    def v():
        s = f"{rng.randint(0, 3)}.{rng.randint(0, 12)}.{rng.randint(0, 12)}"
        return s + rng.choice(["", "", f"-rc.{rng.randint(1, 3)}", "-alpha"])
    cases = [([v() for _ in range(rng.randint(2, 6))] + ["not-a-version"],) for _ in range(4)]
    cases += [(["1.9.0", "1.10.0", "1.10.0-rc.1"],), (["2.0.0-rc.1", "2.0.0-alpha", "1.99.99"],), (["x"],)]
    # pre-release identifiers: numeric below alphanumeric, numbers by value, words by text
    cases += [(["1.0.0-alpha.1", "1.0.0-alpha.beta"],), (["1.0.0-rc.10", "1.0.0-rc.2"],), (["1.0.0-beta", "1.0.0-alpha"],)]
    ref = '''
import re

SEMVER = re.compile(r"(\\d+)\\.(\\d+)\\.(\\d+)(?:-([0-9A-Za-z.]+))?")

def key(v):
    m = SEMVER.fullmatch(v)
    major, minor, patch, pre = m.groups()
    ids = [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split(".")] if pre else []
    return (int(major), int(minor), int(patch), pre is None, ids)

def max_version(versions):
    valid = [v for v in versions if SEMVER.fullmatch(v)]
    return max(valid, key=key) if valid else None
'''
    wrong = ['''
def max_version(versions):
    valid = [v for v in versions if v[:1].isdigit()]
    return max(valid) if valid else None
''']
    spec = function_spec("Write `max_version(versions)` returning the highest semantic version string (MAJOR.MINOR.PATCH with "
                         "an optional -prerelease of dot-separated identifiers) by semver precedence: numbers compare "
                         "numerically, a pre-release is lower than the same version without one, numeric identifiers rank "
                         "below alphanumeric ones. Strings that are not versions are ignored; None if none is valid.",
                         "max_version", ref, wrong, cases)
    same = "only the order of the rank tags matters: numeric identifiers still rank below alphanumeric ones"
    spec.equivalent.update({"-> `ids = [( -1, int(p)": same, "-> `ids = ... else ( 2, 0, p)": same,
                            "-> `ids = ... else (1, 1, p)": "alphanumeric identifiers all get the same middle value",
                            "-> `ids = ... else (1, -1, p)": "alphanumeric identifiers all get the same middle value"})
    return spec
