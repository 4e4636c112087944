"""Synthetic environments of controlled duration, for load tests and scheduling tests (opt-in).

Not registered by default: load with `rlhub serve --plugin hub.serve.synthetic` (or
`plugins: [hub.serve.synthetic]` in the serve config). Each task asks to echo a number; the
verifier spends a configured time, then checks the answer exactly. How it spends the time:

- `sleep`: the thread sleeps;   `spin`: the CPU is kept busy
- `process`: a real child process (`sleep S`) runs; if it is killed, the verifier reports that
  its worker died (`VerifierError`, i.e. no verdict), the contract of a sandbox infra failure.
  With `pid_dir` set, each child's pid is written there while it runs (for fault injection).
- `sandbox`: `sleep S` runs in the real bubblewrap sandbox of the environment's profile; a
  sandbox infra error is reported as `VerifierError`.

`synthetic/flaky-guess-tools-v1` is arith/guess-tools-v1 whose tool fails as a dead sandbox
worker would (an OSError, not a ToolError) while `FLAKY_FAULTS["left"]` > 0: the service's
journal replay is tested with it.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path
from typing import Literal

from pydantic import Field

from ..core.env import Environment
from ..core.errors import VerifierError
from ..plugins.builtin.arith import GuessToolEpisode, GuessTools
from ..plugins.hookspecs import hookimpl
from ..tools import tool
from ..core.task import Task
from ..core.verifier import Verdict, Verifier, VerifierConfig, VerifyContext

DURATIONS = {"fast": 0.0, "medium": 0.2, "slow": 2.0}


class Echo(Environment):
    def generate(self, rng: random.Random, index: int) -> Task:
        n = rng.randint(0, 10**6)
        return Task(prompt=f"Reply with the number {n} and nothing else.", hidden={"answer": str(n)}, reference=str(n))

    def wrong_responses(self, task: Task) -> list[str]:
        return [str(int(task.hidden["answer"]) + 1)]

    def secrets(self, task: Task) -> list[str]:
        return []  # the answer is in the prompt by design: this environment measures time, not skill


class TimedConfig(VerifierConfig):
    seconds: float = Field(0.0, ge=0, le=600)
    mode: Literal["sleep", "spin", "process", "sandbox"] = "sleep"
    pid_dir: str | None = None


class TimedVerifier(Verifier):
    """Spends `seconds` (see the module doc), then exact match against hidden['answer']."""

    name = "synthetic_timed"
    Config = TimedConfig

    def _process(self, seconds: float) -> None:
        child = subprocess.Popen(["sleep", f"{seconds:.3f}"], stdin=subprocess.DEVNULL)
        marker = Path(self.config.pid_dir) / str(child.pid) if self.config.pid_dir else None
        if marker:
            marker.write_text(str(child.pid))
        try:
            code = child.wait()
        finally:
            if marker:
                marker.unlink(missing_ok=True)
        if code < 0:
            raise VerifierError(f"sandbox worker killed by {signal.Signals(-code).name}")

    def _spend(self, ctx: VerifyContext) -> None:
        s, mode = self.config.seconds, self.config.mode
        if s <= 0:
            return
        if mode == "sleep":
            time.sleep(s)
        elif mode == "spin":
            end = time.perf_counter() + s
            while time.perf_counter() < end:
                pass
        elif mode == "process":
            self._process(s)
        else:
            result = ctx.sandbox.run(ctx.profile, ["sleep", f"{s:.3f}"])
            if result.infra_error:
                raise VerifierError(f"sandbox failed: {result.infra_error}")
            if result.signal:
                raise VerifierError(f"sandbox worker killed by signal {result.signal}")

    def verify(self, task: Task, response: str, ctx: VerifyContext) -> Verdict:
        self._spend(ctx)
        same = response.strip() == task.hidden["answer"]
        return Verdict(float(same), same, components={"exact": float(same)}, details={"pid": os.getpid()})


FLAKY_FAULTS = {"left": 0}  # tool calls still to fail (tests set it; the service runs in their process)


class FlakyGuessEpisode(GuessToolEpisode):
    @tool
    def guess(self, number: int) -> str:
        """Guess the number.

        Args:
            number: your guess, a whole number.
        """
        if FLAKY_FAULTS["left"] > 0:
            FLAKY_FAULTS["left"] -= 1
            raise OSError("the sandbox worker died")
        return GuessToolEpisode.guess(self, number)


class FlakyGuessTools(GuessTools):
    def episode(self, task, verifier, ctx):
        return FlakyGuessEpisode(task, verifier, ctx, max_turns=self.max_turns)


@hookimpl
def rlhub_register_envs(register):
    register("synthetic/flaky-guess-tools-v1", FlakyGuessTools, verifier="exact_match", max_turns=8,
             tags=("synthetic", "tools"), description="guess-tools whose tool fails like a dead worker while told to")
    for name, seconds in DURATIONS.items():
        register(f"synthetic/{name}-v1", Echo, verifier="synthetic_timed", verifier_config={"seconds": seconds},
                 tags=("synthetic",), description=f"echo a number; verification takes {seconds}s")


@hookimpl
def rlhub_register_verifiers(register):
    register(TimedVerifier)
