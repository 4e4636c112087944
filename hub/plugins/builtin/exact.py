"""`exact_match`: the simplest verifier, for the built-in example and dataset environments."""

from __future__ import annotations

import re
from typing import Literal

from ..hookspecs import hookimpl
from ...core.response import read
from ...core.task import Task
from ...core.verifier import HiddenData, Verdict, Verifier, VerifierConfig, VerifyContext

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


class ExactMatchConfig(VerifierConfig):
    extract: Literal["whole", "last_line", "boxed", "last_number"] = "whole"
    case_sensitive: bool = False
    max_chars: int = 10_000  # responses longer than this are rejected, not scanned


class ExactHidden(HiddenData):
    answer: str | int | float  # compared as text, after trimming


class ExactMatch(Verifier):
    """Reward 1 if the extracted answer equals `task.hidden["answer"]` (after trimming)."""

    name = "exact_match"
    Config = ExactMatchConfig
    Hidden = ExactHidden

    def extract(self, response: str) -> str | None:
        """The answer in the response's visible part (reasoning in <think> never counts)."""
        response = read(response).visible
        mode = self.config.extract
        if mode == "whole":
            return response.strip()
        if mode == "last_line":
            lines = [line.strip() for line in response.splitlines() if line.strip()]
            return lines[-1] if lines else None
        found = (_BOXED if mode == "boxed" else _NUMBER).findall(response)
        return found[-1].strip() if found else None

    def verify(self, task: Task, response: str, ctx: VerifyContext) -> Verdict:
        hidden = self.hidden(task)
        if len(response) > self.config.max_chars:
            return Verdict(0.0, False, details={"reason": f"response longer than {self.config.max_chars} chars"})
        got = self.extract(response)
        want = str(hidden.answer).strip()
        if got is None:
            return Verdict(0.0, False, details={"reason": f"no answer found ({self.config.extract})"})
        same = got == want if self.config.case_sensitive else got.casefold() == want.casefold()
        return Verdict(1.0 if same else 0.0, same, components={"exact": float(same)}, details={"extracted": got[:200]})


@hookimpl
def rlhub_register_verifiers(register):
    register(ExactMatch)
