"""Job policies by name: each module of this package sets one kind of job's rate limit, retries,
deadline, priority and payload.

    configure(scheduler)                        every policy's limiter and retries, as written
    configure(scheduler, overrides=load_overrides(text, "policies.json"))
                                                the same, with a config file's changes
    submit_lines(scheduler, text, "jobs.txt")   jobs from a file, one a line
    explain(scheduler, job_id)                  what happened to a job, in its policy's terms
    health(scheduler)                           how each policy's jobs fare
"""

from __future__ import annotations

import json

from ..errors import PolicyError, UnknownPolicy
from ..rates import format_duration
__unit_imports__

POLICIES = {
__unit_table__
}


def policy(name: str):
    try:
        return POLICIES[name]
    except KeyError:
        raise UnknownPolicy(name) from None


def names() -> list[str]:
    return sorted(POLICIES)


def load_overrides(text: str, where: str = "<overrides>") -> dict[str, dict]:
    """Changes to the policies' settings from JSON text (`{"login": {"rate": "10/min", "attempts": 2}}`),
    each checked by its policy; PolicyError names `where`, the policy and the setting."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PolicyError(f"{where}: not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict):
        raise PolicyError(f"{where}: expected an object of policies, got {type(data).__name__}")
    for name, changes in data.items():
        if name not in POLICIES:
            raise PolicyError(f"{where}: no policy {name!r} (policies: {', '.join(names())})")
        if not isinstance(changes, dict):
            raise PolicyError(f"{where}: {name}: expected an object of settings, got {type(changes).__name__}")
        try:
            POLICIES[name].settings(**changes)
        except PolicyError as exc:
            raise PolicyError(f"{where}: {exc}") from None
    return data


def export_settings(only: list[str] | None = None) -> str:
    """Every policy's settings (or those of `only`) as JSON, in the form `load_overrides` reads."""
    chosen = names() if only is None else [policy(name).NAME for name in only]
    return json.dumps({name: POLICIES[name].settings() for name in chosen}, indent=2) + "\n"


def configure(scheduler, only: list[str] | None = None, overrides: dict[str, dict] | None = None) -> list[str]:
    """Give `scheduler` each policy's limiter (on the scheduler's clock) and retry policy, or only
    those of `only`; `overrides`: {policy: {setting: value}} (see load_overrides). The names configured."""
    overrides = overrides or {}
    unknown = sorted(set(overrides) - set(POLICIES))
    if unknown:
        raise UnknownPolicy(unknown[0])
    chosen = sorted(POLICIES) if only is None else [policy(name).NAME for name in only]
    for name in chosen:
        module, changes = POLICIES[name], overrides.get(name, {})
        scheduler.set_limit(name, module.limiter(scheduler.clock, **changes))
        scheduler.set_retry(name, module.retry_policy(**changes))
    return chosen


def submit_lines(scheduler, text: str, where: str = "<jobs>") -> list[str]:
    """Jobs from text, one a line: `POLICY NAME [FIELD=VALUE ...]` (the payload; '#' starts a
    comment). Every line is checked before any job is submitted; the jobs' ids, in order."""
    planned = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split(None, 2)
        if len(words) < 2:
            raise PolicyError(f"{where}:{number}: expected POLICY NAME [FIELD=VALUE ...], got {line!r}")
        if words[0] not in POLICIES:
            raise PolicyError(f"{where}:{number}: no policy {words[0]!r} (policies: {', '.join(names())})")
        module = POLICIES[words[0]]
        try:
            payload = module.parse_payload(words[2]) if len(words) > 2 else None
        except PolicyError as exc:
            raise PolicyError(f"{where}:{number}: {exc}") from None
        planned.append((module, words[1], payload))
    return [module.send(scheduler, name, payload=payload) for module, name, payload in planned]


def explain(scheduler, job_id: str, overrides: dict[str, dict] | None = None) -> str:
    """What happened to a job, a line an event, in its policy's terms: `overrides` as `configure`
    was given them, so that the story names the settings the scheduler ran with. UnknownJob for an
    id the scheduler never saw; a job of no known policy gets its bare history."""
    job = scheduler.job(job_id)
    module = POLICIES.get(job.policy)
    if module is not None:
        events = module.explain(job, **(overrides or {}).get(job.policy, {}))
    else:
        events = [f"{format_duration(when)}: {event}" for when, event in job.history]
    return "\n".join([f"{job.id}: {job.state} after {job.attempts} attempt(s)", *events])


def health(scheduler) -> dict[str, str]:
    """Each policy's health in `scheduler`'s stats: 'idle', 'healthy', 'degraded' or 'failing'."""
    return {name: POLICIES[name].health(scheduler.stats) for name in sorted(POLICIES)}


def problems() -> dict[str, list[str]]:
    """What is questionable in each policy's settings (policies without any left out)."""
    found = {}
    for name in sorted(POLICIES):
        issues = POLICIES[name].problems()
        if issues:
            found[name] = issues
    return found


def by_priority() -> list[str]:
    """Policy names, most urgent first (then by name)."""
    return sorted(POLICIES, key=lambda name: (POLICIES[name].PRIORITY, name))


def table() -> str:
    return "\n".join(POLICIES[name].describe() for name in sorted(POLICIES))
