"""Built-in example environments (arithmetic), so the whole path runs with no plugin installed.

`arith/guess-v1` is multi-turn: the model guesses a number and is told "higher" or "lower".
"""

from __future__ import annotations

import random
import re

from ...core.env import Environment, Episode, Step
from ..hookspecs import hookimpl
from ...core.task import Task

_OPS = {
    "add": ("+", lambda a, b: a + b, (10, 9999)),
    "sub": ("-", lambda a, b: a - b, (10, 9999)),
    "mul": ("*", lambda a, b: a * b, (2, 999)),
}


class BinaryOp(Environment):
    def __init__(self, env_id: str, op: str) -> None:
        super().__init__(env_id)
        self.symbol, self.fn, self.bounds = _OPS[op]

    def generate(self, rng: random.Random, index: int) -> Task:
        a, b = rng.randint(*self.bounds), rng.randint(*self.bounds)
        answer = self.fn(a, b)
        prompt = f"Compute {a} {self.symbol} {b}. Reply with the number only."
        return Task(prompt=prompt, hidden={"answer": str(answer)}, reference=str(answer), metadata={"a": a, "b": b})

    def wrong_responses(self, task: Task) -> list[str]:
        answer = int(task.hidden["answer"])
        return [str(answer + 1), str(-answer - 1), f"{answer}0"]


class SumList(Environment):
    def generate(self, rng: random.Random, index: int) -> Task:
        xs = [rng.randint(-99, 99) for _ in range(rng.randint(3, 12))]
        prompt = "Add up these numbers and reply with the total only: " + ", ".join(map(str, xs))
        return Task(prompt=prompt, hidden={"answer": str(sum(xs))}, reference=str(sum(xs)))

    def wrong_responses(self, task: Task) -> list[str]:
        return [str(int(task.hidden["answer"]) + 2)]


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


@hookimpl
def rlhub_register_envs(register):
    for op in _OPS:
        register(f"arith/{op}-v1", lambda env_id, op=op: BinaryOp(env_id, op),
                 verifier="exact_match", tags=("math", "example"), description=f"integer {op}")
    register("arith/sum-list-v1", SumList, verifier="exact_match", tags=("math", "example"),
             description="sum of a short list of integers")
    register("arith/guess-v1", Guess, verifier="exact_match", max_turns=8, tags=("math", "example", "multi-turn"),
             description="guess a number with higher/lower feedback (multi-turn)")
