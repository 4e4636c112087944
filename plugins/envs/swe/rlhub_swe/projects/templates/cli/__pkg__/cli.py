"""The command line: `__pkg__ [--file PATH] [--config PATH] [-o KEY=VALUE] COMMAND ...`.

`main(argv)` runs one command and returns its exit code: 0 when it worked, 1 when it could not
(an unknown task, a broken file), 2 for a command line that does not make sense. Errors are one
line on stderr, never a traceback."""

from __future__ import annotations

import argparse
import functools
import os
import sys
from datetime import date

from . import __version__, commands, config, views
from .dates import __parse_date__
from .errors import __Error__, UsageError

PROG = "__pkg__"
EXAMPLES = """examples:
  __pkg__ add Buy milk +errands --due tomorrow
  __pkg__ list +errands pri>=high
  __pkg__ done 3
  __pkg__ export --output tasks.csv
  __pkg__ config set limit 10
"""


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors raised as UsageError (main prints them) instead of exiting."""

    def error(self, message: str):
        raise UsageError(f"{message} (see '{self.prog} --help')")


def __build_parser__() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Keep a list of tasks in a JSON file: add, list, finish, export.",
                     epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", metavar="PATH", help="the task file (default: the 'file' setting)")
    parser.add_argument("--config", metavar="PATH", help=f"the config file (default: ${config.CONFIG_ENV}, else ~/{config.CONFIG_NAME})")
    parser.add_argument("-o", "--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="a setting for this command only (see `config --help`)")
    parser.add_argument("--today", metavar="DATE", help="take DATE as today (for scripts and tests)")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    commands.register(subparsers)
    views.register(subparsers)
    return parser


@functools.cache
def parser() -> argparse.ArgumentParser:
    """The command line's parser, built on first use and kept: with a subcommand per view it is the
    costliest part of a short command, and scripts call `main()` many times in one process."""
    return __build_parser__()


def main(argv=None, *, environ=None, today: date | None = None) -> int:
    """Run one command. `environ` replaces os.environ and `today` the real date (for tests and scripts)."""
    environ = os.environ if environ is None else environ
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser().parse_args(argv)
        if today is None:
            today = __parse_date__(args.today, date.today()) if args.today else date.today()
        config_path = args.config or environ.get(config.CONFIG_ENV) or config.default_path(environ)
        settings = config.load(config_path, environ, args.overrides)
        ctx = commands.Context(settings, today, config_path, commands.task_file(args.file, settings))
        return args.run(args, ctx)
    except __Error__ as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except SystemExit as exc:  # --help and --version print and exit
        return exc.code if isinstance(exc.code, int) else 0
