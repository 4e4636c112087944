"""A registry entry's `env_config`, checked when the registry loads rather than when the first
task is made: the keys an environment accepts are its factory's keyword-only parameters.

    def factory(env_id, *, target_tokens: int = 3000): ...    # accepts {target_tokens: 32000}
    def factory(env_id, fam=fam): ...                        # accepts nothing (fam binds a loop variable)
    def factory(env_id, **options): ...                      # cannot tell: the environment is built to find out

Types come from the parameters' annotations (pydantic, as everywhere in a registry).
"""

from __future__ import annotations

import builtins
import inspect
from typing import Any, Callable

from pydantic import ConfigDict, ValidationError, create_model

from .yamlfile import close_matches, problems


class EnvConfigProblem(Exception):
    """`env_config` does not fit the factory: (key or None, message) pairs."""

    def __init__(self, found: list[tuple[tuple, str]]) -> None:
        super().__init__("; ".join(text for _, text in found))
        self.found = found


def _annotation(param: inspect.Parameter, factory: Callable) -> Any:
    ann = param.annotation
    if ann is inspect.Parameter.empty:
        return Any
    if isinstance(ann, str):  # `from __future__ import annotations`
        scope = {**vars(builtins), **getattr(inspect.unwrap(factory), "__globals__", {})}
        try:
            return eval(ann, scope)  # noqa: S307 - the plugin's own annotation text, not user input
        except Exception:
            return Any
    return ann


def options(factory: Callable) -> dict[str, inspect.Parameter] | None:
    """The factory's keyword-only parameters by name; None when it takes `**kwargs` (unknowable)."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return {p.name: p for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}


def check(factory: Callable, config: dict[str, Any]) -> dict[str, Any] | None:
    """`config` validated against the factory's options (None: the factory cannot say, build it).
    Raises EnvConfigProblem naming each unknown key (with close matches) and each bad value."""
    accepted = options(factory)
    if accepted is None:
        return None
    found: list[tuple[tuple, str]] = []
    listing = ", ".join(accepted) if accepted else "none (this environment takes no env_config)"
    for key in config:
        if key not in accepted:
            found.append(((key,), f"{key}: unknown key{close_matches(key, list(accepted))}; accepted keys: {listing}"))
    if found:
        raise EnvConfigProblem(found)
    fields = {name: (_annotation(p, factory), ... if p.default is inspect.Parameter.empty else p.default)
              for name, p in accepted.items() if name in config or p.default is inspect.Parameter.empty}
    model = create_model("EnvConfig", __config__=ConfigDict(arbitrary_types_allowed=True), **fields)
    try:
        validated = model.model_validate(config)
    except ValidationError as exc:
        raise EnvConfigProblem(problems(exc)) from None
    return {k: getattr(validated, k) for k in config}
