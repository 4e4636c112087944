"""Hook implementations: every family as `terminal/<family>-v1`, a subset also as a multi-turn
`terminal/session-<family>-v1`. They run under the `pytest` profile of rlhub-unittest."""

from __future__ import annotations

from hub import hookimpl

from .family import FAMILIES

# Families that also get a multi-turn session variant: at least one per sub-domain, chosen
# where inspecting files and running things in the work dir genuinely helps.
SESSION_FAMILIES = (
    "word-frequency", "log-error-summary", "csv-column-stats", "interval-merge", "date-diff-days",
    "running-median", "regex-extract-emails", "fs-organize-by-extension", "cli-calculator",
    "bugfix-binary-search", "complete-inventory", "sh-count-lines", "sql-top-customers",
    "static-ruff-unused",  # graded by its rubric (unit_tests and ruff) on the file the session leaves
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
                 verifier="unit_tests", profile="pytest", domain="terminal", tags=tags,
                 description=fam.description, rubric=fam.rubric)
    for name in SESSION_FAMILIES:
        fam = fams[name]
        register(f"terminal/session-{name}-v1", lambda env_id, fam=fam: SessionEnv(env_id, fam),
                 verifier="unit_tests", profile="pytest", domain="terminal", max_turns=SessionEnv.max_turns,
                 tags=("terminal", "code", "multi-turn", fam.domain, fam.language),
                 description=f"{fam.description} (multi-turn shell session)", rubric=fam.rubric)

