"""rlhub: an environment hub and reward registry for LLM post-training with RL."""

__version__ = "0.1.0"

from .plugins.hookspecs import hookimpl  # noqa: E402
from .core.env import Environment, Episode, FunctionEnvironment, Step, Variant, rng_for, np_rng_for  # noqa: E402
from .core.errors import UserError, VerifierError  # noqa: E402
from .core.task import Label, Task  # noqa: E402
from .core.verifier import Verdict, Verifier, VerifierConfig, VerifyContext  # noqa: E402


def load(registry=None):
    """The catalog of a registry (default: ./registry.yaml, else the packaged default)."""
    from .config.catalog import Catalog

    return Catalog.load(registry)


__all__ = [
    "Environment", "Episode", "FunctionEnvironment", "Label", "Step", "Task", "UserError",
    "Variant", "Verdict", "Verifier", "VerifierConfig", "VerifierError", "VerifyContext", "hookimpl",
    "load", "np_rng_for", "rng_for",
]
