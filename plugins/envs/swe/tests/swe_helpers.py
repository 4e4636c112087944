"""Helpers for the swe tests (a unique module name: test dirs share sys.path in CI)."""

from __future__ import annotations

from rlhub_swe import patch
from rlhub_swe.tasks import Built, build

MAX_SEEDS = 400


def find(catalog, env: str, want=lambda built: True, start: int = 0) -> tuple[dict, object, Built]:
    """(label, task, built) of the first seed of `env` from `start` whose parameters satisfy `want`."""
    env_obj = catalog.get(env).env
    for seed in range(start, start + MAX_SEEDS):
        built = build(env_obj.params(seed))
        if want(built):
            label = {"env": env, "seed": seed}
            return label, catalog.task(label), built
    raise LookupError(f"no seed of {env} in {start}..{start + MAX_SEEDS} gives what the test needs")


def diff_to(base: dict[str, str], tree: dict[str, str]) -> str:
    """The change from `base` to `tree` as a model would answer it: one ```diff block."""
    return patch.fenced(patch.make(base, tree))


def edited(files: dict[str, str], path: str, old: str, new: str) -> dict[str, str]:
    """`files` with the one occurrence of `old` in `path` replaced (an error if it is not there once)."""
    text = files[path]
    assert text.count(old) == 1, f"{path}: {old!r} occurs {text.count(old)} times"
    return {**files, path: text.replace(old, new)}
