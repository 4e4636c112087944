"""What every job policy shares. A module of `__pkg__.policies` declares its settings (DEFAULTS) and
the fields of its jobs' payloads (FIELDS), and calls these: its settings and their overrides
checked, with errors that name the policy and the setting; its limit written as a limit spec;
payloads checked and read from text; a job's history told in the policy's terms; its health.

A payload's FIELDS map each field to what it holds: "text" (not blank), or (LOW, HIGH) for a
whole number from LOW to HIGH.
"""

from __future__ import annotations

from .errors import PolicyError, RateFormatError
from .limits import ALGORITHMS, BURSTABLE
from .rates import format_duration, format_rate, __parse_rate__

SETTINGS = ("rate", "algorithm", "burst", "priority", "attempts", "base_delay", "max_delay", "deadline")
WHOLE = (("burst", 1), ("priority", 0), ("attempts", 1))  # whole-number settings and their least value
SECONDS = ("base_delay", "max_delay", "deadline")
HEALTH = ("idle", "healthy", "degraded", "failing")


def whole(value) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def seconds(value) -> bool:
    """A finite number of seconds, 0 or more."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < float("inf")


def check_settings(policy: str, defaults: dict, overrides: dict) -> dict:
    """`defaults` with `overrides` applied, every value checked; PolicyError names `policy`, the
    setting and what it takes."""
    unknown = sorted(set(overrides) - set(SETTINGS))
    if unknown:
        raise PolicyError(f"{policy}: unknown setting {unknown[0]!r} (settings: {', '.join(SETTINGS)})")
    values = {**defaults, **overrides}
    if not isinstance(values["rate"], str):
        raise PolicyError(f"{policy}: rate must be text such as '10/s' or '5 per 2h', got {values['rate']!r}")
    try:
        count = __parse_rate__(values["rate"]).count
    except RateFormatError as exc:
        raise PolicyError(f"{policy}: rate: {exc}") from None
    if count < 1:
        raise PolicyError(f"{policy}: rate must let at least 1 job through a period, got {values['rate']!r}")
    if values["algorithm"] not in ALGORITHMS:
        raise PolicyError(f"{policy}: algorithm must be one of {', '.join(sorted(ALGORITHMS))}, got {values['algorithm']!r}")
    for key, least in WHOLE:
        if not whole(values[key]) or values[key] < least:
            raise PolicyError(f"{policy}: {key} must be a whole number, {least} or more, got {values[key]!r}")
    for key in SECONDS:
        if not seconds(values[key]):
            raise PolicyError(f"{policy}: {key} must be a number of seconds, 0 or more, got {values[key]!r}")
    return values


def limit_spec(settings: dict) -> str:
    """Checked settings' limit as `limits.parse_limits` reads it: 'token:5/s@10', 'window:100/min'."""
    room = f"@{settings['burst']}" if settings["algorithm"] in BURSTABLE else ""
    return f"{settings['algorithm']}:{format_rate(__parse_rate__(settings['rate']))}{room}"


def payload_problems(policy: str, payload, fields: dict) -> list[str]:
    """What is wrong with a job's payload for a policy with these `fields`, one message each
    (none: it is right): a missing or unknown field, a value of the wrong kind or out of range."""
    if not isinstance(payload, dict):
        return [f"{policy}: a payload is an object with {', '.join(fields)}, got {type(payload).__name__}"]
    found = [f"{policy}: the payload has no {field!r}" for field in fields if field not in payload]
    found += [f"{policy}: unknown payload field {field!r} (fields: {', '.join(fields)})"
              for field in sorted(map(str, payload)) if field not in fields]
    for field, kind in fields.items():
        if field not in payload:
            continue
        value = payload[field]
        if kind == "text":
            if not isinstance(value, str) or not value.strip():
                found.append(f"{policy}: {field} must be text that is not blank, got {value!r}")
        elif not (whole(value) and kind[0] <= value <= kind[1]):
            found.append(f"{policy}: {field} must be a whole number from {kind[0]} to {kind[1]}, got {value!r}")
    return found


def read_payload(policy: str, text: str, fields: dict) -> dict:
    """A payload as a job file writes it, 'FIELD=VALUE ...', with the number fields read as
    numbers; PolicyError for a word that is not FIELD=VALUE, a field given twice, or a payload
    that `payload_problems` finds fault with."""
    payload: dict = {}
    for word in text.split():
        field, sep, value = word.partition("=")
        if not sep or not field:
            raise PolicyError(f"{policy}: expected FIELD=VALUE in the payload, got {word!r}")
        if field in payload:
            raise PolicyError(f"{policy}: the payload gives {field} twice")
        number = fields.get(field) != "text" and value.lstrip("-").isdigit()
        payload[field] = int(value) if number else value
    return require_payload(policy, payload, fields)


def require_payload(policy: str, payload, fields: dict) -> dict:
    """`payload` when it is right, else PolicyError naming every problem `payload_problems` finds."""
    found = payload_problems(policy, payload, fields)
    if found:
        raise PolicyError("; ".join(found))
    return payload


def tell(policy: str, job, settings: dict) -> list[str]:
    """What happened to `job`, a line an event ('1.5s: attempt 2 of 3'), in the terms of a policy
    with these (checked) settings."""
    lines = []
    for when, event in job.history:
        if event == "queued":
            text = f"queued ({policy}, priority {job.priority})"
        elif event == "throttled":
            text = f"held back: the {settings['algorithm']} limit of {settings['rate']} was reached"
        elif event == "shaped":
            text = f"admitted, waiting for its turn ({settings['rate']} at an even pace)"
        elif event.startswith("attempt "):
            text = f"{event} of {settings['attempts']}"
        elif event.startswith("retry at "):
            text = f"failed; next attempt in {format_duration(float(event.rsplit(' ', 1)[1]) - when)}"
        elif event.startswith("expired") and job.deadline is not None:
            text = f"{event} (deadline {format_duration(job.deadline)})"
        else:
            text = event
        lines.append(f"{format_duration(when)}: {text}")
    return lines


def health(share: float | None, healthy: float) -> str:
    """One of HEALTH from the share of finished jobs that were done (None: none finished yet):
    'healthy' from `healthy` up, 'failing' at 0, 'degraded' in between."""
    if share is None:
        return "idle"
    if share >= healthy:
        return "healthy"
    return "failing" if share == 0 else "degraded"
