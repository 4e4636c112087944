"""OpenRLHF's own command-line parser and argument checks, taken from its installed source.

OpenRLHF 0.11 builds its parser inline under `if __name__ == "__main__":` in
openrlhf/cli/train_ppo_ray.py, after importing ray and vLLM at module level, so there is no
function to import on a machine without GPUs. We read that file (located without importing
the package), and run its parser-building statements and the checks that follow
`parse_args()` (its asserts), verbatim: a command that passes here passes there.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import datetime
import importlib.util
import io
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

from ...core.errors import UserError

OPENRLHF_VERSION = "0.11.2"  # the release whose parser and checks this is written against


def _package_dir() -> Path:
    spec = importlib.util.find_spec("openrlhf")  # finds the package without running its __init__
    if spec is None or not spec.submodule_search_locations:
        raise UserError("OpenRLHF is not installed here, so the command cannot be checked against its parser: "
                        f"pip install --no-deps openrlhf=={OPENRLHF_VERSION} (or pass --no-validate)")
    return Path(list(spec.submodule_search_locations)[0])


@lru_cache(maxsize=1)
def _main_block() -> tuple[list[ast.stmt], list[ast.stmt], str]:
    path = _package_dir() / "cli" / "train_ppo_ray.py"
    tree = ast.parse(path.read_text(), filename=str(path))
    main = next((n for n in tree.body if isinstance(n, ast.If) and "__name__" in ast.unparse(n.test)), None)
    if main is None:
        raise UserError(f"{path}: no `if __name__ == '__main__'` block; this OpenRLHF version is not supported")
    src = [ast.unparse(s) for s in main.body]
    try:
        parse_at = src.index("args = parser.parse_args()")
        train_at = src.index("train(args)")
    except ValueError:
        raise UserError(f"{path}: parse_args()/train(args) not found; this OpenRLHF version is not supported") from None
    # The checks, minus imports (hierarchize is provided below) and the ModelScope hub patch.
    checks = [s for s in main.body[parse_at + 1:train_at]
              if not isinstance(s, (ast.Import, ast.ImportFrom)) and "use_ms" not in ast.unparse(s)]
    return main.body[:parse_at], checks, str(path)


def _hierarchize():
    spec = importlib.util.spec_from_file_location("openrlhf_config", _package_dir() / "utils" / "config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.hierarchize


def parser() -> argparse.ArgumentParser:
    build, _, path = _main_block()
    ns = {"argparse": argparse, "datetime": datetime.datetime}
    exec(compile(ast.Module(body=build, type_ignores=[]), path, "exec"), ns)
    return ns["parser"]


def check(argv: list[str]) -> SimpleNamespace:
    """Parse `argv` (the arguments after `-m openrlhf.cli.train_ppo_ray`) as OpenRLHF would and
    run its own consistency checks. Raises UserError naming what OpenRLHF rejected."""
    p = parser()
    p.exit_on_error = False
    p.prog = "python -m openrlhf.cli.train_ppo_ray"
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            flat = p.parse_args(argv)
    except (argparse.ArgumentError, SystemExit) as exc:
        detail = str(exc) if isinstance(exc, argparse.ArgumentError) else err.getvalue().strip().splitlines()[-1]
        raise UserError(f"OpenRLHF's parser rejects the command: {detail}") from None
    _, checks, path = _main_block()
    ns = {"args": flat, "hierarchize": _hierarchize(), "print": lambda *a, **k: None}
    try:
        exec(compile(ast.Module(body=checks, type_ignores=[]), path, "exec"), ns)
    except AssertionError as exc:
        raise UserError(f"OpenRLHF's checks reject the command: {exc}") from None
    return ns["args"]
