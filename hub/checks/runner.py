"""`rlhub check`: pytest over a registry file with the rlhub plugin, spread over worker processes
with pytest-xdist (or over a Ray cluster: `ray_runner`), and a summary of what it found."""

from __future__ import annotations

import fnmatch
import os
import sys

from .summary import Summary


def worker_count(workers: int | str, n_envs: int) -> int:
    """Worker processes for `n_envs` environments: "auto" is every core this process may use;
    never more workers than environments, and 0 (checks in this process) for a single one."""
    n = len(os.sched_getaffinity(0)) if workers == "auto" else int(workers)
    n = min(n, n_envs)
    return 0 if n <= 1 else n


def run_checks(registry: str | None, select: str | None, seeds: int, fail_fast: bool = False,
               verbose: bool = False, json_out: bool = False, workers: int | str = "auto",
               ray_address: str | None = None, quick: bool = False) -> int:
    """`rlhub check`: exit 0 if every check holds, 1 if one failed, 2 for bad input. `quick`:
    without the determinism and fresh-process checks (library.QUICK_SKIPS)."""
    import pytest

    from ..assets import is_url, local
    from ..config.catalog import Catalog
    from ..core.errors import UserError

    if ray_address:  # a bad registry or selection stops there, with its reason (exit 2)
        from ..config.registry import default_sources
        from .ray_runner import run_on_ray

        sources = [registry] if registry else default_sources()  # the actors' cwd is not ours: a path, or the
        target = str(sources[0]) if len(sources) == 1 else None  # installed plugins' union (None) on every node
        return run_on_ray(ray_address, target, select, seeds, fail_fast=fail_fast, verbose=verbose,
                          quick=quick).finish(json_out)
    if registry and is_url(registry):  # pytest collects files: this node's verified copy
        print(f"rlhub: registry: {registry}", file=sys.stderr)
        Catalog.load(registry)  # its mistakes named by URL and line, and relative paths refused, before the copy stands in
        registry = local(registry)
    paths = registry_files(registry, select)
    print(f"rlhub: registry: {', '.join(paths)}", file=sys.stderr)
    try:
        n = worker_count(workers, sum(len(Catalog.load(p).select(select)) if select else len(Catalog.load(p).envs)
                                      for p in paths))
    except UserError:
        n = 0  # pytest reports it, as a collection error naming file and line
    args = [*paths, *(f"--rlhub-registry={p}" for p in paths), f"--rlhub-seeds={seeds}", "-p", "no:cacheprovider",
            "-W", "ignore::pytest.PytestAssertRewriteWarning",  # hub is imported before pytest starts: expected
            "--rootdir", os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in paths]) or "."]
    if not verbose:  # our progress line, in place of pytest's dots and percentages
        args += ["--rlhub-progress", "-o", "console_output_style=classic"]
    if n:
        args += ["-n", str(n), "--dist", "loadscope"]  # one environment per worker at a time
    if select:
        args.append(f"--rlhub-select={select}")
    if quick:
        args.append("--rlhub-quick")
    if fail_fast:
        args.append("-x")
    args.append("-v" if verbose else "-q")
    summary = Summary(workers=n, quick=quick)
    code = pytest.main(args, plugins=[summary])
    summary.exit_code = 0 if code == 0 else (2 if code in (3, 4) else 1)
    return summary.finish(json_out)


def registry_files(registry: str | None, select: str | None) -> list[str]:
    """The registry files to collect: the one named, else the default registry's files that hold
    a selected environment. A selection that matches nothing is a UserError, before pytest runs."""
    from ..config.catalog import Catalog
    from ..config.registry import default_sources

    paths = [str(registry)] if registry else [str(p) for p in default_sources()]
    keep = []
    for path in paths:
        cat = Catalog.load(path)
        if select is None or any(fnmatch.fnmatchcase(env_id, select) for env_id in cat.envs):
            keep.append(path)
    if not keep:
        Catalog.load(registry).select(select)  # raises the one-line error, with suggestions
    return keep
