"""Generated answers whose verdict is known in advance: what the verifier checks try."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    """A generated answer whose verdict is known in advance, for the verifier checks.

    Wrong answers of a known `kind` (a feature moved, a value off by one, a hedge, a hack) must
    fail and score below the reference, and at most `max_reward` when it is set; within one
    kind, a larger `size` (the error's magnitude in the task's own units: mm moved, percent off)
    must never score higher than a smaller one. `note` says what is wrong, in the task's terms.
    """

    kind: str
    response: str
    size: float = 0.0
    note: str = ""
    max_reward: float | None = None
    # Played as an episode, one model reply per turn (the last one says SUBMIT), instead of
    # graded as one response: what a multi-turn session leaves behind (a FIFO where a file
    # should be, a file where the tests directory was) is a state, not a text.
    turns: tuple[str, ...] = ()
