"""Built-in example environments (arithmetic), so the whole path runs with no plugin installed:
families (hub.core.family) for the single-turn ones, a hand-written Environment for the game.

`arith/guess-v1` is multi-turn: the model guesses a number and is told "higher" or "lower".
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Callable

from ...core.env import Environment, Episode, Step
from ...core.family import Family, register_families
from ...core.task import Task
from ...core.variant import Variant
from ..hookspecs import hookimpl
from ...tools import ToolCall, tool
from ...tools.episode import ToolEpisode
from .exact import ExactHidden

@dataclass(frozen=True)
class Operands:
    a: int
    b: int


class BinaryOp(Family[Operands]):
    """Integer arithmetic on two operands: the whole family is these few lines."""

    prompts = {"plain": "Compute {a} {symbol} {b}. Reply with the number only."}

    def __init__(self, name: str, symbol: str, fn: Callable[[int, int], int], bounds: tuple[int, int]) -> None:
        self.name, self.symbol, self.fn, self.bounds = name, symbol, fn, bounds
        self.description = f"integer {name}"

    def configure(self, *, low: int | None = None, high: int | None = None) -> "BinaryOp":
        """registry.yaml's `env_config: {low: 2, high: 9}` sets the operands' range."""
        lo, hi = low if low is not None else self.bounds[0], high if high is not None else self.bounds[1]
        if not lo <= hi:
            raise ValueError(f"env_config: need low <= high, got low={lo}, high={hi}")
        return BinaryOp(self.name, self.symbol, self.fn, (lo, hi))

    def sample(self, rng: random.Random, kind: str) -> Operands:
        return Operands(rng.randint(*self.bounds), rng.randint(*self.bounds))

    def fields(self, p: Operands) -> dict:
        return {"symbol": self.symbol}

    def hidden(self, p: Operands, kind: str) -> ExactHidden:
        return ExactHidden(answer=str(self.fn(p.a, p.b)))

    def reference(self, p: Operands, kind: str) -> str:
        return str(self.fn(p.a, p.b))

    def wrong(self, p: Operands, kind: str) -> list[Variant]:
        answer = self.fn(p.a, p.b)
        return [Variant("off_by", str(answer + d), size=d, note=f"{d} too high") for d in (1, 10)] + [
            Variant("sign", str(-answer - 1), note="the sign flipped"),
            Variant("extra_digit", f"{answer}0", note="a digit appended")]

    def metadata(self, p: Operands, kind: str) -> dict:
        return {"a": p.a, "b": p.b}


class SumList(Family[tuple]):
    name = "sum-list"
    description = "sum of a short list of integers"
    prompts = {"plain": "Add up these numbers and reply with the total only: {numbers}"}

    def sample(self, rng: random.Random, kind: str) -> tuple:
        return tuple(rng.randint(-99, 99) for _ in range(rng.randint(3, 12)))

    def fields(self, xs: tuple) -> dict:
        return {"numbers": ", ".join(map(str, xs))}

    def hidden(self, xs: tuple, kind: str) -> ExactHidden:
        return ExactHidden(answer=str(sum(xs)))

    def reference(self, xs: tuple, kind: str) -> str:
        return str(sum(xs))

    def wrong(self, xs: tuple, kind: str) -> list[Variant]:
        return [Variant("off_by", str(sum(xs) + d), size=d) for d in (2, 20)] + [
            Variant("one_left_out", str(sum(xs) - xs[-1]), note="the last number left out")] * (xs[-1] != 0)


FAMILIES = [BinaryOp("add", "+", lambda a, b: a + b, (10, 9999)), BinaryOp("sub", "-", lambda a, b: a - b, (10, 9999)),
            BinaryOp("mul", "*", lambda a, b: a * b, (2, 999)), SumList()]


class GuessEpisode(Episode):
    def step(self, action: str) -> Step:
        self.turn += 1
        numbers = re.findall(r"-?\d+", action)
        target = int(self.task.hidden["answer"])
        if numbers and int(numbers[-1]) != target and self.turn < self.max_turns:
            hint = "higher" if int(numbers[-1]) < target else "lower"
            return Step(observation=f"No: the number is {hint} than {numbers[-1]}. Guess again.", done=False)
        if not numbers and self.turn < self.max_turns:
            return Step(observation="Reply with a whole number.", done=False)
        return Step(observation="", done=True, verdict=self.grade(action))


class Guess(Environment):
    max_turns = 8

    def generate(self, rng: random.Random, index: int) -> Task:
        hi = rng.choice([16, 64, 100])
        target = rng.randint(1, hi)
        prompt = (
            f"I am thinking of a whole number between 1 and {hi}. Guess it: reply with one number. "
            "After a wrong guess I will tell you whether it is higher or lower."
        )
        return Task(prompt=prompt, hidden={"answer": str(target)}, reference=str(target), metadata={"hi": hi})

    def episode(self, task, verifier, ctx):
        return GuessEpisode(task, verifier, ctx, max_turns=self.max_turns)

    def wrong_responses(self, task: Task) -> list[str]:
        return [str(int(task.hidden["answer"]) % int(task.metadata["hi"]) + 1)]


class GuessToolEpisode(ToolEpisode):
    """The guessing game through a tool: `guess` answers higher, lower or right (which ends it).
    As many guesses as the text game has turns, however they are spread over turns: with 16 calls
    a turn, counting up would beat the search (red team)."""

    @tool
    def guess(self, number: int) -> str:
        """Guess the number.

        Args:
            number: your guess, a whole number.
        """
        target = int(self.task.hidden["answer"])
        self.guesses = getattr(self, "guesses", 0) + 1
        if number == target:
            self.conclude(self.grade(str(number)), note="right")
            return f"{number} is right"
        left = self.max_turns - self.guesses
        if left <= 0:
            self.conclude(self.grade(str(number)), note="no guesses left")
            return f"no, and that was the last of your {self.max_turns} guesses"
        return f"no: the number is {'higher' if number < target else 'lower'} than {number}"


class GuessTools(Guess):
    """`arith/guess-tools-v1`: the tool version of the guessing game (the core's own example of a
    tool environment: no sandbox, so the tool machinery's tests run in milliseconds)."""

    text_twin = "arith/guess-v1"

    def generate(self, rng: random.Random, index: int) -> Task:
        task = super().generate(rng, index)
        task.prompt = (f"I am thinking of a whole number between 1 and {task.metadata['hi']}. Find it with the "
                       "`guess` tool: each wrong guess tells you whether the number is higher or lower.")
        return task

    tool_episode = GuessToolEpisode  # its @tool methods are the prompt's tools

    def episode(self, task, verifier, ctx):
        return GuessToolEpisode(task, verifier, ctx, max_turns=self.max_turns)

    def tool_turns(self, task: Task) -> list[list[ToolCall]]:
        return [[ToolCall("guess", {"number": int(task.hidden["answer"])})]]


@hookimpl
def rlhub_register_envs(register):
    register_families(register, FAMILIES, domain="arith", verifier="exact_match", id_format="{domain}/{family}-v1",
                      tags=("math", "example"))
    register("arith/guess-v1", Guess, verifier="exact_match", max_turns=8, tags=("math", "example", "multi-turn"),
             description="guess a number with higher/lower feedback (multi-turn)")
    register("arith/guess-tools-v1", GuessTools, verifier="exact_match", max_turns=8,
             tags=("math", "example", "multi-turn", "tools"), description="guess a number through a tool call (tools)")
