"""rlhub: an environment hub and reward registry for LLM post-training with RL."""

from __future__ import annotations

import importlib

from .core import __version__

# The public names, imported on first use (PEP 562): every plugin starts with `from hub import
# hookimpl`, and `rlhub list` / `--help` must not pay for numpy and pydantic through it.
_EXPORTS = {
    "hookimpl": "plugins.hookspecs",
    "Environment": "core.env", "Episode": "core.env", "FunctionEnvironment": "core.env", "Step": "core.env",
    "rng_for": "core.env", "np_rng_for": "core.env",
    "Variant": "core.variant",
    "UserError": "core.errors", "VerifierError": "core.errors",
    "Label": "core.task", "Task": "core.task",
    "Verdict": "core.verifier", "Verifier": "core.verifier", "VerifierConfig": "core.verifier",
    "VerifyContext": "core.verifier",
}


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hub' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


def load(registry=None):
    """The catalog of a registry (default: ./registry.yaml, else the packaged default)."""
    from .config.catalog import Catalog

    return Catalog.load(registry)


__all__ = [
    "Environment", "Episode", "FunctionEnvironment", "Label", "Step", "Task", "UserError",
    "Variant", "Verdict", "Verifier", "VerifierConfig", "VerifierError", "VerifyContext", "hookimpl",
    "__version__", "load", "np_rng_for", "rng_for",
]
