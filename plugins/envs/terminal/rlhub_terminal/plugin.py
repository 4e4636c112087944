"""Hook implementations: every family as `terminal/<family>-v1`, a subset also as a multi-turn
`terminal/session-<family>-v1`, and the `terminal` sandbox profile."""

from __future__ import annotations

from hub import hookimpl
from hub.sandbox.profile import Profile

from .family import FAMILIES

# Families that also get a multi-turn session variant: at least one per sub-domain, chosen
# where inspecting files and running things in the work dir genuinely helps.
SESSION_FAMILIES = (
    "word-frequency", "log-error-summary", "csv-column-stats", "interval-merge", "date-diff-days",
    "running-median", "regex-extract-emails", "fs-organize-by-extension", "cli-calculator",
    "bugfix-binary-search", "complete-inventory", "sh-count-lines", "sql-top-customers",
)


def _load():
    from . import families  # noqa: F401  (registers FAMILIES on import)

    return FAMILIES


@hookimpl
def rlhub_register_envs(register):
    from .envs import FamilyEnv, SessionEnv

    fams = _load()
    for name, fam in fams.items():
        tags = ("terminal", "code", fam.domain, fam.language)
        register(f"terminal/{name}-v1", lambda env_id, fam=fam: FamilyEnv(env_id, fam),
                 verifier="unit_tests", profile="terminal", domain="terminal", tags=tags,
                 description=fam.description)
    for name in SESSION_FAMILIES:
        fam = fams[name]
        register(f"terminal/session-{name}-v1", lambda env_id, fam=fam: SessionEnv(env_id, fam),
                 verifier="unit_tests", profile="terminal", domain="terminal", max_turns=SessionEnv.max_turns,
                 tags=("terminal", "code", "multi-turn", fam.domain, fam.language),
                 description=f"{fam.description} (multi-turn shell session)")


@hookimpl
def rlhub_register_profiles(register):
    # pytest plus a few subprocess runs of the candidate per task: more headroom than `python`.
    register(Profile(name="terminal", wall_timeout_s=30, cpu_s=20, memory_mb=1024, max_procs=64,
                     file_size_mb=16, tmpfs_mb=64, preload=("pytest",)))
