"""Errors a user can cause (bad files, ids, labels) versus errors of the code itself.

The CLI prints a `UserError` as one line and exits with `EXIT_USAGE`; anything else is a bug
and keeps its traceback.
"""

import difflib

EXIT_OK = 0
EXIT_FAILED = 1  # the command ran and its answer is "no" (verdict not passed, a check failed)
EXIT_USAGE = 2  # bad input: file, id, label, option
EXIT_NO_VERDICT = 3  # the verifier itself crashed or timed out


class UserError(Exception):
    """Bad input from the user: printed as one clear message, never as a traceback."""


class RegistryError(UserError):
    """registry.yaml is malformed or refers to something that does not exist."""


class UnknownEnvironment(UserError):
    pass


class UnknownVerifier(UserError):
    pass


class TaskError(Exception):
    """An environment made a task its verifier cannot use (malformed hidden data): the
    environment's bug, found when the task is generated, never charged to a model."""


class VerifierError(Exception):
    """A verifier could not reach a verdict (its own crash or timeout, a dead sandbox).

    Distinct from a low reward: the model is not to be charged for it.
    """


def closest(name: str, choices: list[str]) -> list[str]:
    """Up to three of `choices` that `name` looks like a misspelling of."""
    return difflib.get_close_matches(name, choices, n=3, cutoff=0.5)


def close_matches(name: str, choices: list[str]) -> str:
    """'; did you mean 'weight'?' when `name` looks like a misspelling of one of `choices` (else '')."""
    close = closest(name, choices)
    return f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
