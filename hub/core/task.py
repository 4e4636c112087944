"""Tasks and labels: what an environment produces and what travels through a training run."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Union

from .errors import UserError

# A prompt is either plain text or chat messages ([{"role": ..., "content": ...}, ...]).
Prompt = Union[str, list[dict[str, Any]]]


@dataclass(frozen=True)
class Label:
    """The short JSON string that travels with a prompt: `{"env": "cad/flange-v1", "seed": 1234}`.

    Generated environments are addressed by seed, dataset environments by row index.
    """

    env: str
    seed: int | None = None
    row: int | None = None

    def __post_init__(self) -> None:
        if (self.seed is None) == (self.row is None):
            raise UserError("a label needs exactly one of 'seed' or 'row'")

    @property
    def index(self) -> int:
        return self.seed if self.seed is not None else self.row  # type: ignore[return-value]

    def to_json(self) -> str:
        return f"{self.json_prefix(self.env, 'seed' if self.seed is not None else 'row')}{self.index}}}"

    @staticmethod
    def json_prefix(env: str, key: str) -> str:
        """The label's JSON text up to its index: `{"env": "cad/flange-v1", "seed": `. The one
        serialiser (the sampler appends millions of indices to a prefix it builds once)."""
        return f'{{"env": {json.dumps(env)}, "{key}": '

    @classmethod
    def parse(cls, text: str | dict) -> "Label":
        """Parse a label from its JSON text (or an already-decoded dict), with a clear error."""
        if isinstance(text, dict):
            obj = text
        else:
            try:
                obj = json.loads(text)
            except (TypeError, json.JSONDecodeError) as exc:
                raise UserError(
                    f"bad label {text!r}: not JSON ({exc}); expected e.g. "
                    '\'{"env": "arith/add-v1", "seed": 3}\''
                ) from None
        if not isinstance(obj, dict) or not isinstance(obj.get("env"), str):
            raise UserError(f"bad label {text!r}: expected an object with a string 'env'")
        extra = set(obj) - {"env", "seed", "row"}
        if extra:
            raise UserError(f"bad label {text!r}: unexpected key(s) {sorted(extra)}")
        for key in ("seed", "row"):
            value = obj.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise UserError(f"bad label {text!r}: '{key}' must be a non-negative integer")
        try:
            return cls(env=obj["env"], seed=obj.get("seed"), row=obj.get("row"))
        except UserError as exc:
            raise UserError(f"bad label {text!r}: {exc}") from None


@dataclass
class Task:
    """One concrete problem.

    `prompt` is what the model sees. `hidden` is for the verifier only (answer, tests,
    expected geometry...) and never appears in the prompt. `reference` is a response, written
    the way a model would write it, that earns full reward.
    """

    prompt: Prompt
    hidden: Any = field(default_factory=dict)  # a dict, or the verifier's `Hidden` model (stored as its dict)
    reference: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    images: list[bytes] = field(default_factory=list)  # PNG bytes for vision-language prompts
    label: Label | None = None  # filled in by Environment.make_task


    def __post_init__(self) -> None:
        if hasattr(self.hidden, "model_dump"):  # a verifier's Hidden model: kept as plain data
            self.hidden = self.hidden.model_dump(mode="json", exclude_unset=True)

    @property
    def env_id(self) -> str:
        assert self.label is not None, "task has no label yet (make it with Environment.make_task)"
        return self.label.env

    def prompt_text(self) -> str:
        """The prompt flattened to text (chat messages joined), for leak checks and logs."""
        if isinstance(self.prompt, str):
            return self.prompt
        parts = []
        for message in self.prompt:
            content = message.get("content", "")
            if isinstance(content, list):  # multimodal content parts
                content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
            parts.append(str(content))
        return "\n".join(parts)
