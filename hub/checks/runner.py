"""`rlhub check`: pytest over a registry file with the rlhub plugin, spread over worker processes
with pytest-xdist (or over a Ray cluster: `ray_runner`), and a summary of what it found."""

from __future__ import annotations

import os

from .summary import Summary


def worker_count(workers: int | str, n_envs: int) -> int:
    """Worker processes for `n_envs` environments: "auto" is every core this process may use;
    never more workers than environments, and 0 (checks in this process) for a single one."""
    n = len(os.sched_getaffinity(0)) if workers == "auto" else int(workers)
    n = min(n, n_envs)
    return 0 if n <= 1 else n


def run_checks(registry: str | None, select: str | None, seeds: int, fail_fast: bool = False,
               verbose: bool = False, json_out: bool = False, workers: int | str = "auto",
               ray_address: str | None = None) -> int:
    """`rlhub check`: exit 0 if every check holds, 1 if one failed, 2 for bad input."""
    import pytest

    from ..config.catalog import Catalog
    from ..config.registry import default_path
    from ..core.errors import UserError

    path = str(registry or default_path())
    if ray_address:  # a bad registry or selection stops there, with its reason (exit 2)
        from .ray_runner import run_on_ray

        return run_on_ray(ray_address, path, select, seeds, fail_fast=fail_fast, verbose=verbose).finish(json_out)
    try:
        n = worker_count(workers, len(Catalog.load(path).select(select)))
    except UserError:
        n = 0  # pytest reports it, as a collection error naming file and line
    args = [path, f"--rlhub-registry={path}", f"--rlhub-seeds={seeds}", "-p", "no:cacheprovider",
            "--rootdir", os.path.dirname(os.path.abspath(path)) or "."]
    if not verbose:  # our progress line, in place of pytest's dots and percentages
        args += ["--rlhub-progress", "-o", "console_output_style=classic"]
    if n:
        args += ["-n", str(n), "--dist", "loadscope"]  # one environment per worker at a time
    if select:
        args.append(f"--rlhub-select={select}")
    if fail_fast:
        args.append("-x")
    args.append("-v" if verbose else "-q")
    summary = Summary(workers=n)
    code = pytest.main(args, plugins=[summary])
    summary.exit_code = 0 if code == 0 else (2 if code in (3, 4) else 1)
    return summary.finish(json_out)
