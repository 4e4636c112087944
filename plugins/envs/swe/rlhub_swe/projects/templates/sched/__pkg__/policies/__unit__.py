"""The `__unit__` policy: at most __limit__/__period__ (__algorithm__ limiter), up to __attempts__ attempts a job.

Jobs of this policy run at priority __priority__ (lower numbers run first) and carry a payload of two
fields: `__key_field__` (text) and `__size_field__` (a whole number from 0 to __max_size__). A failed attempt
is retried after an exponential backoff from BASE_DELAY seconds, at most MAX_DELAY; a job with a
DEADLINE (seconds after it falls due; 0: none) is given up once that has passed.

`settings(rate="10/min", attempts=2)` checks changes to these settings and returns them all;
`limiter`, `retry_policy`, `job`, `send`, `backlog_time` and `explain` take the same changes.
"""

from __future__ import annotations

from ..jobs import __Job__
from ..limits import BURSTABLE, parse_limits
from ..policy import check_settings, health as judge, limit_spec, payload_problems, read_payload, require_payload, tell
from ..rates import Rate, format_duration, __parse_rate__
from ..retry import RetryPolicy
from ..simulate import drain_time, replay, steady

NAME = "__unit__"
RATE = "__limit__/__period__"
ALGORITHM = "__algorithm__"
BURST = __burst__
PRIORITY = __priority__
MAX_ATTEMPTS = __attempts__
BASE_DELAY = __base_delay__
MAX_DELAY = __max_delay__
DEADLINE = __deadline__  # seconds after a job is due; 0: none
FIELDS = {"__key_field__": "text", "__size_field__": (0, __max_size__)}  # a job's payload
HEALTHY = __healthy__  # the least share of finished jobs done for the policy to count as healthy
DEFAULTS = {"rate": RATE, "algorithm": ALGORITHM, "burst": BURST, "priority": PRIORITY, "attempts": MAX_ATTEMPTS,
            "base_delay": BASE_DELAY, "max_delay": MAX_DELAY, "deadline": DEADLINE}


def settings(**overrides) -> dict:
    """Every setting as plain data (what `policies.export_settings` writes), `overrides` checked and applied."""
    return check_settings(NAME, DEFAULTS, overrides)


def rate(**overrides) -> Rate:
    return __parse_rate__(settings(**overrides)["rate"])


def spec(**overrides) -> str:
    """The limit as a limit spec: '__algorithm__:__limit__/__period__', with '@BURST' for the bucket algorithms."""
    return limit_spec(settings(**overrides))


def limiter(clock=None, **overrides):
    """A fresh limiter for this policy (room for its burst with the bucket algorithms)."""
    return parse_limits(spec(**overrides), clock)


def retry_policy(**overrides) -> RetryPolicy:
    chosen = settings(**overrides)
    return RetryPolicy(max_attempts=chosen["attempts"], base_delay=chosen["base_delay"], max_delay=chosen["max_delay"])


def check_payload(payload) -> list[str]:
    """What is wrong with a job's payload, one message each (none: it is right)."""
    return payload_problems(NAME, payload, FIELDS)


def parse_payload(text: str) -> dict:
    """'__key_field__=ann __size_field__=12' -> a checked payload."""
    return read_payload(NAME, text, FIELDS)


def _prepare(payload, overrides: dict) -> dict:
    chosen = settings(**overrides)
    if payload is not None:
        require_payload(NAME, payload, FIELDS)
    return chosen


def job(name: str, action=None, now: float = 0.0, payload=None, **overrides) -> __Job__:
    """A job of this policy due at `now`, given up DEADLINE seconds later (never if DEADLINE is 0)."""
    chosen = _prepare(payload, overrides)
    deadline = chosen["deadline"]
    return __Job__(name, action, policy=NAME, priority=chosen["priority"], run_at=now,
                deadline=now + deadline if deadline else None, payload=payload)


def send(scheduler, name: str, action=None, payload=None, **overrides) -> str:
    """Submit a job of this policy to `scheduler`, due now; its id."""
    chosen = _prepare(payload, overrides)
    return scheduler.__submit__(name, action, policy=NAME, priority=chosen["priority"], deadline=chosen["deadline"] or None,
                             payload=payload)


def delays() -> list[float]:
    """The waits before each retry of a job that keeps failing."""
    return retry_policy().delays()


def worst_case() -> float:
    """Seconds from a job's first attempt to its last when every attempt fails."""
    return sum(delays())


def admitted(seconds: float, per_second: float) -> int:
    """How many of `per_second` evenly paced requests a second this policy lets through in `seconds`."""
    return len(replay(limiter, steady(per_second, seconds)).admitted)


def backlog_time(count: int, **overrides) -> float:
    """Seconds until the last of `count` jobs due at once may start, at this policy's pace."""
    return drain_time(lambda clock: limiter(clock, **overrides), count)


def explain(job, **overrides) -> list[str]:
    """What happened to `job`, a line an event, in this policy's terms."""
    return tell(NAME, job, settings(**overrides))


def health(stats) -> str:
    """'idle', 'healthy' (at least HEALTHY of its finished jobs done), 'degraded' or 'failing'."""
    return judge(stats.success_rate(NAME), HEALTHY)


def problems() -> list[str]:
    """What is questionable in these settings, one message each."""
    found = []
    if MAX_DELAY < BASE_DELAY:
        found.append(f"{NAME}: the longest retry wait ({MAX_DELAY:g} s) is shorter than the first ({BASE_DELAY:g} s)")
    if DEADLINE and MAX_ATTEMPTS > 1 and BASE_DELAY >= DEADLINE:
        found.append(f"{NAME}: the first retry ({format_duration(BASE_DELAY)} after a failure) comes after the "
                     f"{format_duration(DEADLINE)} deadline")
    if DEADLINE and rate().interval > DEADLINE:
        found.append(f"{NAME}: a throttled job waits up to {format_duration(rate().interval)} for its turn, "
                     f"past the {format_duration(DEADLINE)} deadline")
    return found


def describe() -> str:
    room = f", burst {BURST}" if ALGORITHM in BURSTABLE else ""
    deadline = f", deadline {format_duration(DEADLINE)}" if DEADLINE else ""
    return f"{NAME}: {RATE} ({ALGORITHM}{room}), priority {PRIORITY}, {MAX_ATTEMPTS} attempt(s){deadline}"
