"""Log processing families: levels, components, time windows, access logs, tracebacks."""

from __future__ import annotations

from ..family import NAMES, WORDS, family, function_spec, pick

LEVELS = ["DEBUG", "INFO", "WARN", "ERROR"]


def _ts(rng, day=None):
    return f"2024-{rng.randint(1, 12):02d}-{day or rng.randint(1, 28):02d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


def _app_log(rng, comps, n):
    return [f"{_ts(rng)} {rng.choice(LEVELS)} [{rng.choice(comps)}] {rng.choice(WORDS)} {rng.choice(WORDS)}" for _ in range(n)]


@family("logs", "log-error-summary")
def log_error_summary(rng):
    """ERROR lines counted per component."""
    comps = pick(rng, ["db", "api", "auth", "cache", "queue", "web", "mailer"], 3)
    cases = [(_app_log(rng, comps, rng.randint(6, 15)),) for _ in range(4)]
    cases.append(([f"2024-01-01 00:00:00 WARN [{comps[0]}] ERROR in message", f"2024-01-01 00:00:01 ERROR [{comps[1]}] x", "garbage line"],))
    ref = '''
import re

LINE = re.compile(r"^\\S+ \\S+ (\\w+) \\[([^\\]]+)\\]")

def error_counts(lines):
    counts = {}
    for line in lines:
        m = LINE.match(line)
        if m and m.group(1) == "ERROR":
            counts[m.group(2)] = counts.get(m.group(2), 0) + 1
    return counts
'''
    wrong = ['''
import re

def error_counts(lines):
    counts = {}
    for line in lines:
        if "ERROR" in line:
            comp = re.search(r"\\[([^\\]]+)\\]", line)
            if comp:
                counts[comp.group(1)] = counts.get(comp.group(1), 0) + 1
    return counts
''']
    prompt = ("Log lines look like `2024-03-05 14:02:11 ERROR [db] connection lost` (date, time, level, component in "
              "brackets, message). Write `error_counts(lines)` returning a dict mapping each component to the number "
              "of lines whose level is ERROR. Lines that do not match the format are skipped.")
    return function_spec(prompt, "error_counts", ref, wrong, cases)


@family("logs", "log-time-window")
def log_time_window(rng):
    """Count lines inside an inclusive time window."""
    cases = []
    for _ in range(4):
        lines = sorted(_app_log(rng, ["svc"], rng.randint(6, 14)))
        a, b = sorted(rng.sample(lines, 2))
        cases.append((lines, a[:19], b[:19]))
    cases.append((["2024-01-01 10:00:00 INFO [x] a", "2024-01-01 10:00:05 INFO [x] b", "2024-01-01 10:00:06 INFO [x] c"],
                   "2024-01-01 10:00:00", "2024-01-01 10:00:05"))
    ref = '''
from datetime import datetime

def count_in_window(lines, start, end):
    fmt = "%Y-%m-%d %H:%M:%S"
    lo, hi = datetime.strptime(start, fmt), datetime.strptime(end, fmt)
    return sum(1 for line in lines if lo <= datetime.strptime(line[:19], fmt) <= hi)
'''
    wrong = ['''
from datetime import datetime

def count_in_window(lines, start, end):
    fmt = "%Y-%m-%d %H:%M:%S"
    lo, hi = datetime.strptime(start, fmt), datetime.strptime(end, fmt)
    return sum(1 for line in lines if lo <= datetime.strptime(line[:19], fmt) < hi)
''']
    prompt = ("Each log line starts with a timestamp `YYYY-MM-DD HH:MM:SS`. Write `count_in_window(lines, start, end)` "
              "returning how many lines have a timestamp between `start` and `end` (same format), both inclusive.")
    return function_spec(prompt, "count_in_window", ref, wrong, cases)


@family("logs", "access-log-top-ips")
def access_log_top_ips(rng):
    """Top client IPs of failed requests in a common-log-format access log."""
    ips = [f"10.0.{rng.randint(0, 9)}.{rng.randint(1, 254)}" for _ in range(4)]
    def line(ip, status):
        return f'{ip} - - [10/Oct/2024:13:{rng.randint(10, 59)}:00 +0000] "GET /{rng.choice(WORDS)} HTTP/1.1" {status} {rng.randint(100, 5000)}'
    cases = []
    for _ in range(4):
        cases.append(([line(rng.choice(ips), rng.choice([200, 200, 301, 404, 500, 403])) for _ in range(rng.randint(8, 16))], rng.randint(1, 3)))
    cases.append(([line(ips[1], 404), line(ips[0], 500), line(ips[0], 200), line(ips[0], 200), line(ips[1], 200)], 1))
    # the boundary statuses, and a response with no body (size "-", as the format allows)
    cases.append(([line(ips[2], 400), line(ips[3], 399), line(ips[3], 399), line(ips[1], 401).rsplit(" ", 1)[0] + " -"], 3))
    ref = '''
from collections import Counter

def top_error_ips(lines, n):
    counts = Counter()
    for line in lines:
        parts = line.split()
        if len(parts) >= 2 and parts[-2].isdigit() and int(parts[-2]) >= 400:
            counts[parts[0]] += 1
    return [ip for ip, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]
'''
    wrong = ['''
from collections import Counter

def top_error_ips(lines, n):
    counts = Counter(line.split()[0] for line in lines)
    return [ip for ip, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]
''']
    prompt = ("Access log lines are in common log format, e.g.\n"
              "`10.0.0.7 - - [10/Oct/2024:13:55:36 +0000] \"GET /a HTTP/1.1\" 404 512`.\n"
              "Write `top_error_ips(lines, n)` returning the n client IPs with the most requests whose status is 400 or "
              "above, most first, ties broken by the IP string in ascending order.")
    spec = function_spec(prompt, "top_error_ips", ref, wrong, cases)
    spec.equivalent.update({
        "-> `if len(parts) > 2 and": "a common-log-format line has 10 fields: "
            "the length guard only protects malformed lines, which the task does not promise to handle",
        "-> `if len(parts) >= 1 and": "a common-log-format line has 10 fields: "
            "the length guard only protects malformed lines, which the task does not promise to handle",
        "-> `if len(parts) >= 3 and": "a common-log-format line has 10 fields: "
            "the length guard only protects malformed lines, which the task does not promise to handle",
        "-> `counts[parts[0]] += 2`": "every count doubled: the same order"})
    return spec


@family("logs", "log-session-time")
def log_session_time(rng):
    """Total logged-in seconds per user from login/logout events."""
    users = pick(rng, NAMES, 3)
    cases = []
    for _ in range(4):
        events, t = [], 0
        for _ in range(rng.randint(2, 5)):
            u = rng.choice(users)
            t += rng.randint(1, 50)
            events.append((t, u, "login"))
            t += rng.randint(1, 500)
            events.append((t, u, "logout"))
        cases.append((events,))
    cases.append(([(1, users[0], "login"), (5, users[0], "logout"), (10, users[0], "login"), (30, users[0], "logout"), (40, users[1], "login")],))
    cases.append(([(3, users[2], "logout"), (4, users[1], "login"), (9, users[1], "logout")],))  # a logout with no session
    for events, in cases[:2]:  # "not necessarily sorted": read in time order, not as given
        rng.shuffle(events)
    cases.append(([(30, users[0], "logout"), (10, users[0], "login"), (50, users[0], "logout"), (40, users[0], "login")],))
    ref = '''
def session_seconds(events):
    open_at, total = {}, {}
    for t, user, kind in sorted(events):
        if kind == "login":
            open_at[user] = t
        elif kind == "logout" and user in open_at:
            total[user] = total.get(user, 0) + t - open_at.pop(user)
    return total
'''
    wrong = ['''
def session_seconds(events):
    open_at, total = {}, {}
    for t, user, kind in sorted(events):
        if kind == "login":
            open_at[user] = t
        elif kind == "logout" and user in open_at:
            total[user] = t - open_at.pop(user)
    return total
''']
    prompt = ("Write `session_seconds(events)` where events are (time_seconds, user, kind) tuples with kind 'login' or "
              "'logout' (not necessarily sorted). Return a dict user -> total seconds logged in over all completed "
              "sessions; a login without a later logout is ignored and users with no completed session are absent.")
    spec = function_spec(prompt, "session_seconds", ref, wrong, cases)
    spec.clauses["(not necessarily sorted)"] = ref.replace("in sorted(events):", "in events:")
    # undone: an open login is counted up to the last event (a session never closed counts)
    spec.clauses["a login without a later logout is ignored"] = ref.replace("    return total\n", (
        "    end = max((t for t, _, _ in events), default=0)\n    for user, t in open_at.items():\n"
        "        total[user] = total.get(user, 0) + end - t\n    return total\n"))
    return spec


@family("logs", "log-level-filter")
def log_level_filter(rng):
    """Messages at or above a severity level."""
    cases = []
    for _ in range(4):
        lines = [f"{rng.choice(LEVELS)}: {rng.choice(WORDS)} {rng.randint(1, 99)}" for _ in range(rng.randint(5, 10))]
        cases.append((lines, rng.choice(LEVELS[1:])))
    cases.append((["WARN: w", "INFO: i", "ERROR: e", "DEBUG: d"], "WARN"))
    ref = '''
ORDER = ["DEBUG", "INFO", "WARN", "ERROR"]

def at_least(lines, level):
    out = []
    for line in lines:
        lvl, _, msg = line.partition(": ")
        if lvl in ORDER and ORDER.index(lvl) >= ORDER.index(level):
            out.append(msg)
    return out
'''
    wrong = ['''
def at_least(lines, level):
    return [line.partition(": ")[2] for line in lines if line.partition(": ")[0] >= level]
''']
    prompt = ("Lines look like `LEVEL: message` with LEVEL one of DEBUG < INFO < WARN < ERROR. Write "
              "`at_least(lines, level)` returning the messages (text after ': ') of lines whose level is `level` or "
              "more severe, in input order.")
    return function_spec(prompt, "at_least", ref, wrong, cases)


@family("logs", "traceback-sites")
def traceback_sites(rng):
    """Innermost frame of each Python traceback in a log."""
    def tb(depth):
        frames = "".join(f'  File "{rng.choice(WORDS)}.py", line {rng.randint(1, 400)}, in {rng.choice(WORDS)}\n    x()\n' for _ in range(depth))
        return f"Traceback (most recent call last):\n{frames}{rng.choice(['ValueError', 'KeyError', 'TypeError'])}: boom\n"
    cases = []
    for _ in range(4):
        text = "".join(f"INFO {rng.choice(WORDS)}\n" + tb(rng.randint(1, 4)) for _ in range(rng.randint(1, 3)))
        cases.append((text,))
    cases.append(("no errors here\n",))
    ref = '''
import re

def crash_sites(text):
    sites = []
    for block in text.split("Traceback (most recent call last):")[1:]:
        frames = re.findall(r'File "([^"]+)", line (\\d+)', block)
        if frames:
            sites.append(f"{frames[-1][0]}:{frames[-1][1]}")
    return sites
'''
    wrong = ['''
import re

def crash_sites(text):
    sites = []
    for block in text.split("Traceback (most recent call last):")[1:]:
        frames = re.findall(r'File "([^"]+)", line (\\d+)', block)
        if frames:
            sites.append(f"{frames[0][0]}:{frames[0][1]}")
    return sites
''']
    prompt = ("Write `crash_sites(text)` that finds every Python traceback in a log text and returns, for each in "
              "order, the innermost frame (where the exception was raised) as 'file:line', e.g. 'db.py:42'.")
    return function_spec(prompt, "crash_sites", ref, wrong, cases)


@family("logs", "latency-percentile")
def latency_percentile(rng):
    """Nearest-rank percentile of request latencies parsed from log lines."""
    p = rng.choice([50, 90, 95, 99])
    cases = []
    for _ in range(4):
        lines = [f"req {rng.choice(WORDS)} took {rng.randint(1, 900)}ms" if rng.random() < 0.85 else "cache miss" for _ in range(rng.randint(5, 25))]
        cases.append((lines + ["req x took 5ms"],))
    cases.append((["took 10ms", "took 20ms", "took 30ms", "took 40ms"],))
    cases.append((["nothing"],))
    cases.append(([f"took {v}ms" for v in rng.sample(range(1, 5000), 100)],))  # rank p exactly: no rounding
    cases.append(([f"took {v}ms" for v in rng.sample(range(1, 5000), 300)],))  # the rank 3p: p/100, not a near fraction
    cases.append((["took 7ms"],))  # one value: rank 1
    ref = f'''
import math
import re

def latency_p(lines):
    values = sorted(int(m.group(1)) for line in lines for m in [re.search(r"took (\\d+)ms", line)] if m)
    if not values:
        return None
    return values[max(1, math.ceil({p} / 100 * len(values))) - 1]
'''
    equivalent = {"-> `return values[max( 0, math.ceil(": "the rank is at least 1 for any non-empty list: max(0, ..) = max(1, ..)"}
    wrong = [f'''
import re

def latency_p(lines):
    values = sorted(int(m.group(1)) for line in lines for m in [re.search(r"took (\\d+)ms", line)] if m)
    if not values:
        return None
    return values[min(len(values) - 1, int({p} / 100 * len(values)))]
''']
    prompt = (f"Lines may contain `took <N>ms`. Write `latency_p(lines)` returning the {p}th percentile of those "
              f"latencies by the nearest-rank method (the value at rank ceil({p}/100 * count), ranks from 1, at least 1), "
              "or None if no line has a latency.")
    spec = function_spec(prompt, "latency_p", ref, wrong, cases)
    spec.equivalent.update(equivalent)
    return spec
