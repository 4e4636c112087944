"""Environments: deterministic task generators, single- or multi-turn.

An environment turns `(env id, seed)` into a `Task` with no hidden state: the same label gives
the same task on any machine, in any process. Multi-turn environments also open an `Episode`
(reset/step, as in Gymnasium) in which the model acts, observes and revises before its final
answer is verified.
"""

from __future__ import annotations

import copy
import hashlib
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable


from .task import Label, Task
from .variant import Variant
from .verifier import Verdict, VerifierIdentity, grade

if TYPE_CHECKING:
    import numpy as np
    from .verifier import Verifier, VerifyContext


def rng_for(env_id: str, index: int) -> random.Random:
    """A random.Random seeded from (env id, seed) alone: no hash randomisation, no global state."""
    digest = hashlib.sha256(f"{env_id}\x00{index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def np_rng_for(env_id: str, index: int) -> np.random.Generator:
    digest = hashlib.sha256(f"{env_id}\x00{index}".encode()).digest()
    import numpy as np  # on first use: registering and listing environments need no numpy

    return np.random.Generator(np.random.PCG64(int.from_bytes(digest[:16], "big")))


@dataclass
class Step:
    """What one action in an episode gives back."""

    observation: str
    done: bool
    verdict: Verdict | None = None  # set on the final step
    info: dict[str, Any] = field(default_factory=dict)
    tool_results: list[Any] = field(default_factory=list)  # a tool episode's results (hub.tools.ToolResult), in call order
    notes: list[str] = field(default_factory=list)  # what could not be read of the turn (a malformed call), said to the model


class Episode:
    """A multi-turn interaction over one task. Subclasses implement `step`.

    The default episode is single-turn: the first action is the final answer.
    """

    def __init__(self, task: Task, verifier: "Verifier", ctx: "VerifyContext", max_turns: int = 1):
        self.task = task
        self.verifier = verifier
        self.ctx = ctx
        self.max_turns = max_turns
        self.turn = 0
        self.identity: VerifierIdentity | None = None  # set by the catalog

    def grade(self, response: str) -> Verdict:
        """The final verdict on a response, with the verifier's identity attached."""
        return grade(self.verifier, self.identity, self.task, response, self.ctx)

    def reset(self) -> str:
        self.turn = 0
        return self.task.prompt_text()

    def step(self, action: str) -> Step:
        self.turn += 1
        return Step(observation="", done=True, verdict=self.grade(action))

    def close(self) -> None:
        pass

    def __enter__(self) -> "Episode":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Environment:
    """Base class for registered environments.

    Subclasses implement `generate(rng, index) -> Task` (or override `make_task`). A task's
    label is filled in here, so generators cannot get it wrong.
    """

    max_turns: int = 1
    # A tool environment's text twin: the environment whose verifier grades the same tasks (same
    # hidden data, same reference), checked in full; the tool one's own checks are its tool play.
    text_twin: str | None = None
    # A tool environment's episode class (a hub.tools.episode.ToolEpisode): its @tool methods are
    # the prompt's tools.
    tool_episode: type | None = None
    # Number of distinct tasks; None means "any non-negative seed" (generated environments).
    num_tasks: int | None = None

    def __init__(self, env_id: str) -> None:
        self.id = env_id

    @property
    def seed_id(self) -> str:
        """The id whose seeds draw the tasks: the text twin's for a tool environment (the same
        tasks under a new id), else its own."""
        return self.text_twin or self.id

    def make_task(self, index: int) -> Task:
        task = self.generate(rng_for(self.seed_id, index), index)
        task.label = self.label(index)
        return task

    def label(self, index: int) -> Label:
        return Label(env=self.id, seed=index)

    def prepare(self, indices: list[int]) -> None:
        """Called with the indices of many tasks about to be made (a training dataset, a prompt
        file), before `make_task` is called for each: start costly work they share in one batch
        (render their images in parallel, say) without waiting for it. `make_task` must make
        the same task with or without it. By default: nothing."""

    def generate(self, rng: random.Random, index: int) -> Task:  # pragma: no cover
        raise NotImplementedError

    def drawings(self, task: Task, response: str, ctx: "VerifyContext") -> dict[str, bytes]:
        """Pictures a report shows beside a response, as PNG bytes by caption (e.g. "reference"
        and "candidate" drawings of a part). Anything built from the response is built in the
        sandbox (`ctx.sandbox`), never here. A report prefers the verifier's own drawings
        (`Verifier.drawings`: drawn from what it measured, at one scale). Default: none."""
        return {}

    def episode(self, task: Task, verifier: "Verifier", ctx: "VerifyContext") -> Episode:
        return Episode(task, verifier, ctx, max_turns=self.max_turns)

    def tools(self, task: Task) -> list[dict[str, Any]]:
        """The OpenAI function schemas of the tools the task's episode offers (a prompt's `tools`
        column, which a chat template renders): those of `tool_episode`; none for a text environment."""
        if self.tool_episode is None:
            return []
        from ..tools.schema import schemas_of

        return copy.deepcopy(list(schemas_of(self.tool_episode)))  # a caller may edit its copy

    @property
    def is_tool_env(self) -> bool:
        """Whether its episodes act through tools (their reward is the episode's, never one response's)."""
        return self.tool_episode is not None

    def tool_turns(self, task: Task) -> list[list[Any]]:
        """A tool environment's reference played as tool calls (hub.tools.ToolCall), turn by turn:
        the checks render it in every tool-call format and play it to a verdict of 1.0."""
        return []

    def reference_turns(self, task: Task) -> list[str]:
        """The reference as the replies a model plays, one per turn (`rlhub reference --turns`, then
        `rlhub play`): a tool environment's tool_turns written in the default tool-call format; a
        text session's own (its environment says how a file is written and the session ended);
        else the reference itself."""
        turns = self.tool_turns(task)
        if turns:
            from ..tools import formats

            return [formats.render(turn, formats.DEFAULT_FORMAT) for turn in turns]
        return [task.reference]

    def wrong_responses(self, task: Task) -> list[str]:
        """Plausible but wrong answers, for the verifier checks. Override with domain knowledge."""
        return []

    def wrong_answers(self, task: Task) -> list[Variant]:
        """Wrong answers by kind and size, generated from the task's own parameters (see
        `Variant`). By default the `wrong_responses`, each its own kind."""
        return [Variant(kind=f"wrong[{i}]", response=r) for i, r in enumerate(self.wrong_responses(task))]

    def episode_probes(self, task: Task) -> tuple[list[Variant], list[Variant]]:
        """(wrong, right) answers played as episodes (`Variant.turns`), for multi-turn
        environments: states the model leaves behind (a FIFO where its file should be) whose
        verdict is known. The checks play the wrong ones with the wrong answers and the right
        ones with the right forms; every one must end with a verdict. By default: none."""
        return [], []

    def right_answers(self, task: Task) -> list[str]:
        """Other accepted forms of a right answer (a number written another way, a list in
        another order where order is free); each must earn exactly what the reference earns."""
        return []

    def cheap_answers(self, task: Task) -> dict[str, list[str]]:
        """Answers that take no reading of the task, by policy name: each policy's responses for
        `task`, of which it would pick one at random (a random number of the table the question
        is about; every label of it). Checked like the verifier's `cheap_policies`. Default: none."""
        return {}

    def secrets(self, task: Task) -> list[str]:
        """Strings the prompt must never contain (checked by `rlhub check`).

        By default: the hidden answer, and the reference and any long hidden text. Override
        where the answer legitimately appears in the prompt (a document QA lookup question).
        """
        found = [str(task.hidden["answer"])] if "answer" in task.hidden else []
        found += [v for v in task.hidden.values() if isinstance(v, str) and len(v) >= 16]
        if len(task.reference.strip()) >= 16:
            found.append(task.reference.strip())
        return found


class FunctionEnvironment(Environment):
    """An environment made from a plain function `fn(rng, index) -> Task` (the light path)."""

    def __init__(self, env_id: str, fn: Callable[[random.Random, int], Task], **attrs: Any) -> None:
        super().__init__(env_id)
        self._fn = fn
        for key, value in attrs.items():
            setattr(self, key, value)

    def generate(self, rng: random.Random, index: int) -> Task:
        return self._fn(rng, index)
