"""The domain model: tasks and labels, environments and episodes, verifiers and verdicts, errors."""

__version__ = "0.1.0"  # rlhub's version: the one place it is written (pyproject.toml reads it here)
