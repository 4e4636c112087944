"""rlhub: an environment hub and reward registry for LLM post-training with RL."""

from .core import __version__
from .plugins.hookspecs import hookimpl
from .core.env import Environment, Episode, FunctionEnvironment, Step, rng_for, np_rng_for
from .core.variant import Variant
from .core.errors import UserError, VerifierError
from .core.task import Label, Task
from .core.verifier import Verdict, Verifier, VerifierConfig, VerifyContext


def load(registry=None):
    """The catalog of a registry (default: ./registry.yaml, else the packaged default)."""
    from .config.catalog import Catalog

    return Catalog.load(registry)


__all__ = [
    "Environment", "Episode", "FunctionEnvironment", "Label", "Step", "Task", "UserError",
    "Variant", "Verdict", "Verifier", "VerifierConfig", "VerifierError", "VerifyContext", "hookimpl",
    "__version__", "load", "np_rng_for", "rng_for",
]
