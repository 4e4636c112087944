"""rlhub: an environment hub and reward registry for LLM post-training with RL."""

__version__ = "0.1.0"

from .hookspecs import hookimpl  # noqa: E402
from .env import Environment, Episode, FunctionEnvironment, Step, Variant, rng_for, np_rng_for  # noqa: E402
from .errors import UserError, VerifierError  # noqa: E402
from .task import Label, Task  # noqa: E402
from .verifier import Verdict, Verifier, VerifierConfig, VerifyContext  # noqa: E402


def load(registry=None):
    """The catalog of a registry (default: ./registry.yaml, else the packaged default)."""
    from .catalog import Catalog

    return Catalog.load(registry)


__all__ = [
    "Environment", "Episode", "FunctionEnvironment", "Label", "Step", "Task", "UserError",
    "Variant", "Verdict", "Verifier", "VerifierConfig", "VerifierError", "VerifyContext", "hookimpl",
    "load", "np_rng_for", "rng_for",
]
