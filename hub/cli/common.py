"""What every verb shares: the common options, the catalog it loads, and how it prints.

Plugins adding verbs through `rlhub_register_commands` use these too, so every verb takes
`--registry` and `--json` and selects environments the same way.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

from ..core.errors import UserError
from ..core.files import read_text


def common(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options every command takes. Plugins adding commands call this on their parsers."""
    parser.add_argument("--registry", metavar="PATH", help="registry file (default: ./registry.yaml, else the packaged default)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    return parser


def add_verb(subparsers, name: str, func: Callable[[argparse.Namespace], int], help: str,
             description: str | None = None, epilog: str | None = None) -> argparse.ArgumentParser:
    """A sub-command with the common options, whose description and epilog keep their layout."""
    parser = subparsers.add_parser(name, help=help, description=description or help, epilog=epilog,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.set_defaults(func=func)
    return common(parser)


def add_select(parser: argparse.ArgumentParser, what: str = "environments") -> None:
    """Environment selection, the same on every verb: a positional GLOB or `--select GLOB`."""
    parser.add_argument("glob", nargs="?", metavar="GLOB", help=f"only {what} matching GLOB, e.g. 'cad/*'")
    parser.add_argument("--select", metavar="GLOB", help="the same as the positional GLOB")


def selected(args: argparse.Namespace) -> str | None:
    glob, flag = getattr(args, "glob", None), getattr(args, "select", None)
    if glob and flag and glob != flag:
        raise UserError(f"two selections given ({glob!r} and --select {flag!r}): give one")
    return glob or flag


def catalog(args: argparse.Namespace):
    from ..config.catalog import Catalog

    cat = Catalog.load(args.registry)
    for info in cat.plugins.failures:
        print(f"rlhub: warning: plugin {info.name!r} ({info.distribution} {info.version}) {info.error}", file=sys.stderr)
    return cat


def emit(args: argparse.Namespace, data: Any, text: Callable[[], str]) -> None:
    print(json.dumps(data, indent=None if isinstance(data, dict) else 1) if args.json else text())


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join(fmt.format(*map(str, r)).rstrip() for r in [header, *rows])


def read_text_arg(path: str, option: str) -> str:
    """A file named on the command line ('-' for stdin), or one clear error."""
    if path == "-":
        return sys.stdin.read()
    return read_text(path, f"file (given as {option})")
