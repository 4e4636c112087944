"""Hook implementations: every family as `terminal/<family>-v1`, a subset also as a multi-turn
`terminal/session-<family>-v1` and its tool version `terminal/session-<family>-tools-v1`. They run under the `pytest` profile of rlhub-unittest."""

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
    from hub.core.family import register_families

    from .envs import SESSION_TURNS, TerminalEnvironment, TerminalFamily

    fams = _load()
    common = dict(verifier="unit_tests", profile="pytest", domain="terminal", environment=TerminalEnvironment)
    register_families(register, [TerminalFamily(f) for f in fams.values()], kinds=["single"],
                      id_format="{domain}/{family}-v1", **common,
                      per_family=lambda tf, kind: {"tags": ("terminal", "code", tf.family.domain, tf.family.language),
                                                   "rubric": tf.family.rubric})
    register_families(register, [TerminalFamily(fams[name]) for name in SESSION_FAMILIES], kinds=["session"],
                      id_format="{domain}/session-{family}-v1", max_turns=SESSION_TURNS, **common,
                      per_family=lambda tf, kind: {
                          "tags": ("terminal", "code", "multi-turn", tf.family.domain, tf.family.language),
                          "description": f"{tf.family.description} (multi-turn shell session)",
                          "rubric": tf.family.rubric})
    from .tool_session import TerminalToolEnvironment

    # The same sessions through tools (run, write_file, read_file, submit): each the tool twin of
    # its text session, whose seeds draw its tasks and whose checks prove its grading.
    register_families(register, [TerminalFamily(fams[name]) for name in SESSION_FAMILIES], kinds=["session"],
                      id_format="{domain}/session-{family}-tools-v1", max_turns=SESSION_TURNS,
                      **{**common, "environment": TerminalToolEnvironment},
                      per_family=lambda tf, kind: {
                          "tags": ("terminal", "code", "multi-turn", "tools", tf.family.domain, tf.family.language),
                          "description": f"{tf.family.description} (multi-turn shell session, tools)",
                          "rubric": tf.family.rubric})
