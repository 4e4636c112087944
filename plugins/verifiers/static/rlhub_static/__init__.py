"""rlhub-static: static-analysis verifiers (ruff, mypy, bandit, shellcheck) for rlhub."""
