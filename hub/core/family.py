"""Task families: the one way to write many environments from one generator.

A family draws its parameters once from the task's seed and shows them through one or more task
kinds (a dimensioned CAD prompt, an edit prompt, an image prompt...). Everything else is derived
from those parameters, never restated: the prompt (a template per kind, written once), the hidden
data the verifier reads, the reference answer, and the wrong answers by kind and size. So a
family author writes what is specific to the task, and the checks (`pytest registry.yaml`) prove
the reward: the reference earns 1.0, each wrong answer fails and scores lower the bigger its
error, the prompt leaks nothing.

    @dataclass(frozen=True)
    class Sum:
        xs: tuple[int, ...]

    class SumFamily(Family):
        name = "sum"
        prompts = {"plain": "Add up {numbers} and reply with the total only."}

        def sample(self, rng, kind):
            return Sum(tuple(rng.randint(-99, 99) for _ in range(rng.randint(3, 12))))

        def fields(self, p):                  # extra names the prompt templates may use
            return {"numbers": ", ".join(map(str, p.xs))}

        def hidden(self, p, kind):
            return ExactHidden(answer=sum(p.xs))

        def reference(self, p, kind):
            return str(sum(p.xs))

        def wrong(self, p, kind):
            return [Variant("off_by", str(sum(p.xs) + d), size=d) for d in (1, 10)]

    register_families(register, [SumFamily()], domain="arith", verifier="exact_match")
    # -> arith/sum-plain-v1 (a single-kind family may drop the kind from its id: id_format)
"""

from __future__ import annotations

import dataclasses
import inspect
import random
from collections import OrderedDict
from typing import Any, Callable, Generic, Iterable, TypeVar

from .env import Environment, rng_for
from .task import Prompt, Task
from .variant import Variant

P = TypeVar("P")
MAX_DRAWS = 100


class Family(Generic[P]):
    """Subclasses set `name` and `prompts` ({kind: template}) and implement `sample`, `hidden`,
    `reference` and `wrong`; optionally `fields`, `violations`, `prompt`, `right`, `secrets`
    and `cheap`."""

    name: str = ""
    prompts: dict[str, str] = {}  # task kind -> prompt template over the params' fields and `fields()`
    description: str = ""

    # -- what each family writes ----------------------------------------------------------------
    def sample(self, rng: random.Random, kind: str) -> P:
        """The task's parameters: every random choice is made here, from `rng` alone."""
        raise NotImplementedError

    def hidden(self, p: P, kind: str) -> Any:
        """What the verifier reads: its `Hidden` model (or a dict of that shape)."""
        raise NotImplementedError

    def reference(self, p: P, kind: str) -> str:
        """The right answer, written as a model's response would be."""
        raise NotImplementedError

    def wrong(self, p: P, kind: str) -> list[Variant]:
        """Wrong answers made from the parameters: each a kind (what is wrong) and a size (by how much)."""
        raise NotImplementedError

    # -- optional -----------------------------------------------------------------------------------
    def violations(self, p: P, kind: str) -> list[str]:
        """Broken constraints in words; a draw with any is redrawn (so every task is sane)."""
        return []

    def fields(self, p: P) -> dict[str, Any]:
        """Names the prompt templates may use besides the parameters' own fields."""
        return {}

    def prompt(self, p: P, kind: str) -> Prompt:
        """The prompt: the kind's template filled in (override for chat messages with images)."""
        return self.prompts[kind].format_map({**_as_dict(p), **self.fields(p)})

    def images(self, p: P, kind: str) -> list[bytes]:
        """PNG images the prompt shows (vision kinds)."""
        return []

    def right(self, p: P, kind: str) -> list[str]:
        """Other accepted forms of the right answer."""
        return []

    def secrets(self, p: P, kind: str, task: Task) -> list[str]:
        """What the prompt must never contain (default: the reference)."""
        return [task.reference]

    def cheap(self, p: P, kind: str) -> dict[str, list[str]]:
        """Answers that take no reading, by policy name (see `Environment.cheap_answers`)."""
        return {}

    def metadata(self, p: P, kind: str) -> dict[str, Any]:
        return {}

    def configure(self) -> "Family[P]":
        """The family with a registry entry's `env_config` applied. Families with options
        override this with keyword-only parameters (their names are the accepted keys)."""
        return self

    # -- derived --------------------------------------------------------------------------------------
    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.prompts)

    def draw(self, rng: random.Random, kind: str, index: int = 0) -> P:
        """The task's parameters (redrawn while they break a constraint). `index` is the task's
        index, for families that stratify their tasks by it (document QA asks one lookup in ten
        about an item the document never states); `sample` itself sees only `rng`."""
        for _ in range(MAX_DRAWS):
            p = self.sample(rng, kind)
            if not self.violations(p, kind):
                return p
        raise RuntimeError(f"family {self.name!r}: no valid parameters in {MAX_DRAWS} draws: {self.violations(p, kind)}")


def _as_dict(p: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(p):
        return {f.name: getattr(p, f.name) for f in dataclasses.fields(p)}
    return dict(p) if isinstance(p, dict) else {}


class FamilyEnvironment(Environment):
    """One (family, kind) as an environment. The parameters are drawn again from the label's
    seed wherever they are needed (wrong answers, secrets), so nothing travels in the task."""

    def __init__(self, env_id: str, family: Family, kind: str) -> None:
        super().__init__(env_id)
        if kind not in family.prompts:
            raise ValueError(f"family {family.name!r} has no task kind {kind!r}; it has {sorted(family.prompts)}")
        self.family, self.kind = family, kind
        self._recent: OrderedDict[int, Any] = OrderedDict()  # the checks ask again right after generating

    def params(self, index: int) -> Any:
        if index in self._recent:
            return self._recent[index]
        return self._remember(index, self.family.draw(rng_for(self.seed_id, index), self.kind, index))

    def _remember(self, index: int, p: Any) -> Any:
        self._recent[index] = p
        while len(self._recent) > 8:
            self._recent.popitem(last=False)
        return p

    def generate(self, rng: random.Random, index: int) -> Task:
        fam, kind = self.family, self.kind
        p = self._remember(index, fam.draw(rng, kind, index))
        return Task(prompt=fam.prompt(p, kind), hidden=fam.hidden(p, kind), reference=fam.reference(p, kind),
                    metadata={"family": fam.name, "kind": kind, **fam.metadata(p, kind)}, images=fam.images(p, kind))

    def _params_of(self, task: Task) -> Any:
        """The parameters the task was drawn with (from its own label, so that another kind of the
        same family can answer for it, e.g. a session task's wrong answers)."""
        assert task.label is not None, "the task has no label (make it with make_task)"
        if task.label.env != self.id:
            return self.family.draw(rng_for(task.label.env, task.label.index), self.kind, task.label.index)
        return self.params(task.label.index)

    def wrong_answers(self, task: Task) -> list[Variant]:
        return self.family.wrong(self._params_of(task), self.kind)

    def wrong_responses(self, task: Task) -> list[str]:
        return [v.response for v in self.wrong_answers(task)]

    def right_answers(self, task: Task) -> list[str]:
        return self.family.right(self._params_of(task), self.kind)

    def secrets(self, task: Task) -> list[str]:
        return self.family.secrets(self._params_of(task), self.kind, task)

    def cheap_answers(self, task: Task) -> dict[str, list[str]]:
        return self.family.cheap(self._params_of(task), self.kind)


def _factory(environment: type[FamilyEnvironment], fam: Family, kind: str) -> Callable[..., FamilyEnvironment]:
    """`factory(env_id, **env_config)`, whose signature shows the family's options."""

    def make(env_id: str, **options: Any) -> FamilyEnvironment:
        return environment(env_id, fam.configure(**options), kind)

    options = list(inspect.signature(fam.configure).parameters.values())
    make.__signature__ = inspect.Signature([inspect.Parameter("env_id", inspect.Parameter.POSITIONAL_OR_KEYWORD), *options])
    return make


def register_families(register: Callable[..., None], families: Iterable[Family], *, domain: str, verifier: str,
                      id_format: str = "{domain}/{family}-{kind}-v1", kinds: Iterable[str] | None = None,
                      environment: type[FamilyEnvironment] = FamilyEnvironment,
                      per_family: Callable[[Family, str], dict[str, Any]] | None = None, **spec: Any) -> list[str]:
    """Register every (family, kind) as an environment; returns the ids. `spec` goes to
    `register` (profile, tags, max_turns, ...), updated by `per_family(family, kind)` where a
    family's own settings differ (its tags, a rubric). Environments are built on first use."""
    ids = []
    for fam in families:
        for kind in (kinds if kinds is not None else fam.kinds):
            env_id = id_format.format(domain=domain, family=fam.name, kind=kind)
            settings = {"description": fam.description or f"{fam.name}: {kind}", **spec,
                        **(per_family(fam, kind) if per_family else {})}
            register(env_id, _factory(environment, fam, kind), verifier=verifier, domain=domain, **settings)
            ids.append(env_id)
    return ids
