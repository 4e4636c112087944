"""Environments made from families: `terminal/<family>-v1` (single turn) and
`terminal/session-<family>-v1` (multi-turn shell session over the same task)."""

from __future__ import annotations

import random

from hub import Environment, Task, Variant

from .family import Family, fenced
from .session import SESSION_INSTRUCTIONS, TerminalEpisode


class FamilyEnv(Environment):
    """One task family as an environment: the answer is code, graded by `unit_tests`."""

    def __init__(self, env_id: str, fam: Family) -> None:
        super().__init__(env_id)
        self.family = fam

    def generate(self, rng: random.Random, index: int) -> Task:
        spec = self.family.build(rng)
        lang = self.family.language
        hidden = {
            "tests": spec.tests,
            "test_style": "pytest",
            "solution_path": self.family.solution_path,
            "language": lang,
        }
        if spec.files:
            hidden["files"] = dict(spec.files)
        wrong = [w if isinstance(w, Variant) else Variant(f"wrong[{i}]", w) for i, w in enumerate(spec.wrong)]
        return Task(
            prompt=self.render_prompt(spec),
            hidden=hidden,
            reference=fenced(spec.reference, lang),
            metadata={"family": self.family.name, "domain": self.family.domain, "language": lang,
                      "wrong": [fenced(w.response, lang) for w in wrong], "secrets": spec.secrets,
                      "wrong_kinds": [(w.kind, w.size, w.note) for w in wrong]},
        )

    def render_prompt(self, spec) -> str:
        return spec.prompt

    def wrong_responses(self, task: Task) -> list[str]:
        return list(task.metadata["wrong"])

    def wrong_answers(self, task: Task) -> list[Variant]:
        """The family's wrong code by kind ("finding left in", "behaviour changed"...) and size."""
        return [Variant(kind, response, size, note)
                for response, (kind, size, note) in zip(task.metadata["wrong"], task.metadata["wrong_kinds"])]

    def secrets(self, task: Task) -> list[str]:
        return [task.hidden["tests"], task.reference.strip(), *task.metadata["secrets"]]


class SessionEnv(FamilyEnv):
    """The same task, solved interactively in a persistent sandbox work directory."""

    max_turns = 6

    def render_prompt(self, spec) -> str:
        path = self.family.solution_path
        listing = ""
        if spec.files:
            listing = "\n\nThe work directory already holds: " + ", ".join(sorted(spec.files)) + "."
        return (spec.prompt.rsplit("\n\nReply with", 1)[0] + listing + "\n\n"
                + SESSION_INSTRUCTIONS.format(path=path, turns=self.max_turns))

    def episode(self, task, verifier, ctx):
        return TerminalEpisode(task, verifier, ctx, max_turns=self.max_turns)
