"""The `rlhub` command line. Every verb, built-in or a plugin's, is added through the
`rlhub_register_commands` hook (hub/cli/commands/ holds the built-in ones), as pytest does.

Exit codes (stable, for scripts): 0 ok / passed, 1 ran but the answer is "no" (verdict not
passed, a check failed), 2 bad input (file, id, label, option), 3 no verdict (verifier crashed
or timed out).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..core.errors import EXIT_NO_VERDICT, EXIT_OK, EXIT_USAGE, TaskError, UserError

EPILOG = """\
examples:
  rlhub list                                   what the registry offers
  rlhub sample -n 8 --seed 0 --out prompts.jsonl
  rlhub reference --label '{"env": "arith/add-v1", "seed": 3}' > answer.txt
  rlhub verify --label '{"env": "arith/add-v1", "seed": 3}' --response-file answer.txt
  rlhub check 'arith/*'                        the verifier checks of those environments

every command takes --registry PATH (default: ./registry.yaml, else the registries of the
installed plugins together; each command names the one it used on stderr) and --json.
exit codes: 0 ok, 1 "no" (not passed, a check failed, too many samples without a verdict),
2 bad input (or nothing to do), 3 no verdict (the verifier failed).
"""


def _top_parser() -> tuple[argparse.ArgumentParser, Any]:
    from ..core import __version__

    from .common import Parser

    parser = Parser(
        prog="rlhub", description="Environment hub and reward registry for RL post-training of LLMs.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"rlhub {__version__}")
    return parser, parser.add_subparsers(dest="command", metavar="COMMAND", required=True)


def _add_commands(info, register_commands, sub) -> bool:
    try:
        register_commands(subparsers=sub)
    except Exception as exc:  # a broken plugin command must not take the CLI down
        print(f"rlhub: warning: plugin {info.name!r} could not add its commands: {exc}", file=sys.stderr)
        return False
    return True


def _verbs_added(sub, before: int, known: set[str]) -> list[dict[str, Any]]:
    """The verbs (name, aliases, help line) a plugin's hook just added, for the start-up index."""
    parsers: dict[int, list[str]] = {}
    for name, p in sub.choices.items():
        if name not in known:
            parsers.setdefault(id(p), []).append(name)
    helps = {a.dest: a.help for a in sub._choices_actions[before:]}
    return [{"name": names[0], "aliases": names[1:], "help": helps.get(names[0]), "listed": names[0] in helps}
            for names in parsers.values()]


def build_parser(record: list | None = None) -> argparse.ArgumentParser:
    """The parser with every plugin's verbs. `record`: gets, per plugin adding verbs, how to call
    its hook again and which verbs it added (None where it cannot be called on its own)."""
    parser, sub = _top_parser()

    from ..plugins.manager import installed

    for info, register_commands in installed().commands:
        before, known = len(sub._choices_actions), set(sub.choices)
        ok = _add_commands(info, register_commands, sub)
        if record is not None:
            name = getattr(register_commands, "__qualname__", "")
            hook = [register_commands.__module__, name] if ok and name.isidentifier() else None
            record.append({"plugin": info.name, "hook": hook, "verbs": _verbs_added(sub, before, known)})
    return parser


def _indexed_parser(plugins: list[dict[str, Any]], argv: list[str]) -> argparse.ArgumentParser | None:
    """The parser from the start-up index: the hook of the plugin owning the verb in `argv` is
    called for real; every other verb is a stand-in with its name and help line, enough for
    `rlhub --help` and for a misspelt verb's error. None: that plugin's hook is not indexed."""
    import importlib

    verb = next((a for a in argv if not a.startswith("-")), None)
    parser, sub = _top_parser()
    for plugin in plugins:
        if verb is not None and any(verb == v["name"] or verb in v["aliases"] for v in plugin["verbs"]):
            if plugin["hook"] is None:
                return None
            module, name = plugin["hook"]
            info = argparse.Namespace(name=plugin["plugin"])
            _add_commands(info, lambda **kw: getattr(importlib.import_module(module), name)(**kw), sub)
            continue
        for v in plugin["verbs"]:
            _stand_in(sub, v)
    return parser


def _stand_in(sub, verb: dict[str, Any]) -> None:
    """A verb that will not run: its name (and aliases) among the choices and its help line in
    `rlhub --help`, as `add_parser` records them, without building its parser (argparse looks up
    its translations anew for every parser made, which is most of a stand-in's cost)."""
    for name in (verb["name"], *verb["aliases"]):
        sub.choices[name] = None  # never parsed: the verb on the command line is always loaded
    if verb["listed"]:
        sub._choices_actions.append(sub._ChoicesPseudoAction(verb["name"], verb["aliases"], verb["help"]))


def _parser_for(argv: list[str]) -> argparse.ArgumentParser:
    """The program's parser: from the start-up index when it is current, else built by loading
    every plugin (and the index written for the next start)."""
    from . import index

    plugins = index.lookup("verbs")
    if plugins is not None:
        parser = _indexed_parser(plugins, argv)
        if parser is not None:
            return parser
    record: list[dict[str, Any]] = []
    index.watch()
    parser = build_parser(record)
    from ..plugins.manager import installed

    if not installed().failures and all(p["hook"] for p in record):
        index.store("verbs", record)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command. As the program itself (`argv` None: sys.argv), the start-up index may
    answer `--help` and `list` without loading every plugin; a caller's `argv` always loads them."""
    from . import index

    index.active = argv is None and index.enabled()
    if index.active:
        args = _parser_for(sys.argv[1:]).parse_args()
        index.pause()
    else:
        args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"rlhub: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except TaskError as exc:  # the environment's bug, not the user's input: no verdict can be had
        print(f"rlhub: error: {exc}", file=sys.stderr)
        return EXIT_NO_VERDICT
    except KeyboardInterrupt:
        print("rlhub: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `rlhub list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as exc:  # a file the user named could not be read or written
        if exc.filename is None:
            raise
        print(f"rlhub: error: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE

