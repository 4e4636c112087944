"""What every verb shares: the common options, the catalog it loads, and how it prints.

Plugins adding verbs through `rlhub_register_commands` use these too, so every verb takes
`--registry` and `--json`, selects environments the same way, shows its defaults and examples
in `--help`, and reports a bad option as one line with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import errno
import os
import sys
from pathlib import Path
from typing import Any, Callable

from ..core.errors import EXIT_USAGE, UserError


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions and epilogs keep their layout (examples stay examples), and every option
    with a real default shows it: `(default: 100)`, unless its help already says it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("default" in text or default is None or default is False or default is argparse.SUPPRESS
                or default == [] or isinstance(action, (argparse._HelpAction, argparse._VersionAction))):
            return text
        return f"{text} (default: %(default)s)"


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: `rlhub: error: sample: ... (see rlhub sample --help)`, exit 2."""

    def error(self, message: str):  # type: ignore[override]
        import re

        from ..config.yamlfile import close_matches

        choice = re.match(r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if choice:  # a misspelt verb or choice: the close match, not the whole list first
            options = re.findall(r"'([^']*)'", choice.group(3))
            message = (f"argument {choice.group(1)}: invalid choice {choice.group(2)!r}"
                       f"{close_matches(choice.group(2), options)} (choose from {', '.join(options)})")
        verb = self.prog.split(" ", 1)[1] if " " in self.prog else ""
        where = f"{verb}: " if verb else ""
        hint = f"rlhub {verb} --help" if verb else "rlhub --help"
        self.exit(EXIT_USAGE, f"rlhub: error: {where}{message} (see {hint})\n")


def common(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options every command takes. Plugins adding commands call this on their parsers."""
    parser.add_argument("--registry", metavar="PATH",
                        help="registry file (default: ./registry.yaml, else the installed plugins' registries together)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    return parser


def add_verb(subparsers, name: str, func: Callable[[argparse.Namespace], int], help: str,
             description: str | None = None, epilog: str | None = None) -> argparse.ArgumentParser:
    """A sub-command with the common options: its description and `epilog` (the examples) keep
    their layout, and its options show their defaults."""
    parser = subparsers.add_parser(name, help=help, description=description or help, epilog=epilog,
                                   formatter_class=HelpFormatter)
    parser.set_defaults(func=func)
    return common(parser)


def examples(*lines: str) -> str:
    """An epilog of examples: `examples("rlhub list", "rlhub list 'cad/*' --json")`."""
    return ("examples:\n" if len(lines) > 1 else "example:\n") + "\n".join(f"  {line}" for line in lines)


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
    """The command's catalog. Says on stderr which registry it resolved (scripts read stdout)."""
    from ..config.catalog import Catalog

    cat = Catalog.load(getattr(args, "registry", None))
    for info in cat.plugins.failures:
        print(f"rlhub: warning: plugin {info.name!r} ({info.distribution} {info.version}) {info.error}", file=sys.stderr)
    print(f"rlhub: registry: {cat.registry.name}", file=sys.stderr)
    return cat


def emit(args: argparse.Namespace, data: Any, text: Callable[[], str]) -> None:
    print(json.dumps(data, indent=None if isinstance(data, dict) else 1) if args.json else text())


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join(fmt.format(*map(str, r)).rstrip() for r in [header, *rows])


def read_text_arg(path: str, option: str) -> str:
    """A file named on the command line ('-' for stdin), or one clear error."""
    from ..core.files import read_text

    if path == "-":
        return sys.stdin.read()
    return read_text(path, f"file (given as {option})")


def output_path(path: str, option: str, example: str = "out.jsonl") -> Path:
    """A file the command will write (`--out`, `--report`...), checked before any work is done:
    a file name, not a directory, in a folder that exists (or is made) and takes a new file."""
    import tempfile

    if not path:
        raise UserError(f"{option}: expected a file name, got an empty string")
    out = Path(path)
    if out.is_dir():
        raise UserError(f"{path}: is a directory; {option} expects a file name, e.g. {out / example}")
    blocking = next((p for p in out.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise UserError(f"{path}: {blocking} is a file, not a folder; {option} cannot be written there")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out.parent):
            pass
        if out.exists() and not os.access(out, os.W_OK):
            raise PermissionError(errno.EACCES, "Permission denied")
    except OSError as exc:
        raise UserError(f"{path}: cannot write the {option} file there: {exc.strerror or exc}") from None
    return out
