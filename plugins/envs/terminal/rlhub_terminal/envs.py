"""The terminal families as rlhub task families (hub.core.family): each family's generator is
drawn once per task and shown as two task kinds, `single` (`terminal/<family>-v1`: one reply with
the code) and `session` (`terminal/session-<family>-v1`: a multi-turn shell session in a
persistent sandbox work directory over the same task)."""

from __future__ import annotations

import random

from hub import Variant
from hub.core.family import Family as TaskFamily, FamilyEnvironment
from rlhub_unittest.verifier import UnitTestsHidden

from . import probes
from .family import FENCE, Family, Spec, fenced
from .session import SESSION_INSTRUCTIONS, TerminalEpisode

SESSION_TURNS = 6


class TerminalFamily(TaskFamily[Spec]):
    """One family of rlhub_terminal.family (a seeded `build(rng) -> Spec`) as a task family."""

    prompts = {"single": "{prompt}", "session": "{session_prompt}"}

    def __init__(self, fam: Family) -> None:
        self.family, self.name, self.description = fam, fam.name, fam.description

    def sample(self, rng: random.Random, kind: str) -> Spec:
        return self.family.build(rng)

    def fields(self, spec: Spec) -> dict:
        path, listing = self.family.solution_path, ""
        if spec.files:
            listing = "\n\nThe work directory already holds: " + ", ".join(sorted(spec.files)) + "."
        session = (spec.prompt.rsplit("\n\nReply with", 1)[0] + listing + "\n\n"
                   + SESSION_INSTRUCTIONS.format(path=path, turns=SESSION_TURNS))
        return {"session_prompt": session}

    def hidden(self, spec: Spec, kind: str) -> UnitTestsHidden:
        return UnitTestsHidden(tests=spec.tests, test_style="pytest", solution_path=self.family.solution_path,
                               language=self.family.language, files=dict(spec.files), test_ids=spec.test_ids)

    def reference(self, spec: Spec, kind: str) -> str:
        return fenced(spec.reference, self.family.language)

    def wrong(self, spec: Spec, kind: str) -> list[Variant]:
        """The family's wrong code by kind ("finding left in", "behaviour changed"...) and size; for a
        static-analysis family also the module as handed out with its findings hidden from the
        analyser in each way it can be blinded (rlhub_terminal.hiding)."""
        lang = self.family.language
        wrong = list(spec.wrong)
        rubric = self.family.rubric
        unchanged = next((w for w in wrong if isinstance(w, Variant) and w.kind == "unchanged"), None)
        if rubric and unchanged is not None:
            from .hiding import hidden_variants

            analyser = next(c["verifier"] for c in rubric["components"] if c["verifier"] != "unit_tests")
            wrong += hidden_variants(unchanged.response, spec.reference, analyser, unchanged.size)
        wrong += [Variant("clause undone", code, 1, f"the reference, except that it does not do what the prompt "
                          f"states: {clause!r}") for clause, code in spec.clauses.items()]
        return [Variant(w.kind, fenced(w.response, lang), w.size, w.note, w.max_reward) if isinstance(w, Variant)
                else Variant(f"wrong[{i}]", fenced(w, lang)) for i, w in enumerate(wrong)]

    def secrets(self, spec: Spec, kind: str, task) -> list[str]:
        return [spec.tests, task.reference.strip(), *spec.secrets]

    def metadata(self, spec: Spec, kind: str) -> dict:
        return {"domain": self.family.domain, "language": self.family.language}


class TerminalEnvironment(FamilyEnvironment):
    """A session-kind task is played as a terminal episode; the single kind answers once."""

    @property
    def max_turns(self) -> int:  # type: ignore[override]
        return SESSION_TURNS if self.kind == "session" else 1

    def mutation_report(self, task, ctx) -> dict:
        """How many mutants of the reference the task's hidden tests kill (rlhub_terminal.adequacy)."""
        from .adequacy import report

        fam = self.family.family
        return report(self._params_of(task), fam.language, fam.solution_path, ctx)

    def episode(self, task, verifier, ctx):
        if self.kind != "session":
            return super().episode(task, verifier, ctx)
        return TerminalEpisode(task, verifier, ctx, max_turns=SESSION_TURNS)

    def reference_turns(self, task):
        """A session's reference as one turn: the solution written to its file, then SUBMIT."""
        if self.kind != "session" or self.text_twin:  # a tool session plays its tool_turns
            return super().reference_turns(task)
        fam = self.family.family
        return [probes.write(fam.solution_path, self._params_of(task).reference, FENCE[fam.language]) + "SUBMIT\n"]

    def episode_probes(self, task):
        """On a family's first task only (what they prove does not depend on the task): in a session,
        FIFOs, sockets, directories and links where the solution goes (0), or beside it (1), and
        bytes that are not UTF-8 in the file; for a static-analysis family, single-turn and in a
        session, the reference with a line its analyser crashes on (at most the tests' weight)."""
        if task.label.seed != 0:
            return [], []
        fam = self.family.family
        reference = self._params_of(task).reference
        analyser = next((c["verifier"] for c in fam.rubric["components"] if c["verifier"] != "unit_tests"), None) \
            if fam.rubric else None
        if self.kind != "session":
            return (probes.crash_variant(reference, analyser) if analyser else []), []
        wrong, right = probes.terminal(fam.solution_path, reference, FENCE[fam.language])
        if analyser:
            wrong += probes.crash_variant(reference, analyser, session=(fam.solution_path, FENCE[fam.language]))
        return wrong, right
