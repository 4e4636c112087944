"""The `rlhub` command line.

Exit codes (stable, for scripts): 0 ok / passed, 1 ran but the answer is "no" (verdict not
passed, a check failed), 2 bad input (file, id, label, option), 3 no verdict (verifier crashed
or timed out).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

from .errors import EXIT_FAILED, EXIT_NO_VERDICT, EXIT_OK, EXIT_USAGE, UserError

EPILOG = """\
examples:
  rlhub list                                   what the registry offers
  rlhub sample --n 8 --seed 0 --out prompts.jsonl
  rlhub reference --label '{"env": "arith/add-v1", "seed": 3}' > answer.txt
  rlhub verify --label '{"env": "arith/add-v1", "seed": 3}' --response-file answer.txt
  rlhub check 'arith/*'                        the verifier checks of those environments

every command takes --registry PATH (default: ./registry.yaml, else the packaged default)
and --json. exit codes: 0 ok, 1 "no" (not passed / check failed), 2 bad input, 3 no verdict.
"""


def common(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options every command takes. Plugins adding commands call this on their parsers."""
    parser.add_argument("--registry", metavar="PATH", help="registry file (default: ./registry.yaml, else the packaged default)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    return parser


def catalog(args: argparse.Namespace):
    from .catalog import Catalog

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


# -- commands ------------------------------------------------------------------------------------


def cmd_list(args: argparse.Namespace) -> int:
    cat = catalog(args)
    envs = cat.select(args.glob)
    rows = [{"id": e.id, "domain": e.domain, "verifier": e.identity.name, "weight": round(e.weight, 6),
             "tags": list(e.tags), "max_turns": e.max_turns, "profile": e.profile.name,
             "distribution": e.spec.distribution} for e in envs]
    emit(args, rows, lambda: table(
        [[r["id"], r["domain"], r["verifier"], f"{r['weight']:.4g}", ",".join(r["tags"])] for r in rows],
        ["ID", "DOMAIN", "VERIFIER", "WEIGHT", "TAGS"]) + f"\n{len(rows)} environments")
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    cat = catalog(args)
    e = cat.get(args.env_id)
    task = cat.task(e.label(args.seed))
    data = {"id": e.id, "domain": e.domain, "description": e.spec.description, "distribution": e.spec.distribution,
            "version": e.spec.version, "verifier": e.identity.name, "verifier_config": e.verifier.config.model_dump(mode="json"),
            "config_hash": e.identity.config_hash, "profile": e.profile.model_dump(mode="json"), "weight": e.weight,
            "tags": list(e.tags), "max_turns": e.max_turns, "num_tasks": e.num_tasks, "selected_by": e.where,
            "example": {"label": task.label.to_json(), "prompt": task.prompt}}
    def text() -> str:
        lines = [f"{k}: {v}" for k, v in data.items() if k not in ("example", "profile", "verifier_config")]
        lines.append(f"verifier_config: {json.dumps(data['verifier_config'])}")
        lines.append(f"profile: {e.profile.name} ({json.dumps(data['profile'])})")
        lines.append(f"\nexample {data['example']['label']}:\n{task.prompt_text()}")
        return "\n".join(lines)
    emit(args, data, text)
    return EXIT_OK


def cmd_sample(args: argparse.Namespace) -> int:
    from .sampling import write_prompts

    cat = catalog(args)
    summary = write_prompts(cat, n=args.n, seed=args.seed, out=Path(args.out), select=args.glob,
                            state_out=args.state_out, resume=args.resume)
    emit(args, summary, lambda: f"wrote {summary['n']} prompts to {summary['out']} "
         f"({summary['envs']} environments, {summary['prompts_per_s']:.0f} prompts/s)")
    return EXIT_OK


def _read_response(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise UserError(f"--response-file {path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"--response-file {path}: is a directory, expected a file") from None
    except OSError as exc:
        raise UserError(f"--response-file {path}: cannot read: {exc.strerror}") from None


class _Drawing:
    """A verifier seen through its optional `render(task, response, path, ctx) -> Verdict`, so
    that `grade` still turns its crash into "no verdict"."""

    def __init__(self, verifier, path: str) -> None:
        self.verifier, self.path, self.name = verifier, path, verifier.name

    def verify(self, task, response, ctx):
        return self.verifier.render(task, response, self.path, ctx)


def _render(cat, label: str, response: str, path: str):
    from .task import Label
    from .verifier import VerifyContext, grade

    parsed = Label.parse(label)
    renv = cat.get(parsed.env)
    if not callable(getattr(renv.verifier, "render", None)):
        raise UserError(f"--render: verifier {renv.identity.name!r} of {parsed.env} draws no pictures")
    return grade(_Drawing(renv.verifier, path), renv.identity, cat.task(parsed), response, VerifyContext(profile=renv.profile))


def cmd_verify(args: argparse.Namespace) -> int:
    response = _read_response(args.response_file)
    cat = catalog(args)
    verdict = _render(cat, args.label, response, args.render) if args.render else cat.verify(args.label, response)
    out = {"reward": verdict.reward, "passed": verdict.passed, "details": {**verdict.details, "components": verdict.components}}
    if verdict.verifier:
        out["verifier"] = verdict.to_dict()["verifier"]
    if verdict.error:
        out["error"] = verdict.error
    print(json.dumps(out, default=str))  # one verdict as JSON, with or without --json
    if verdict.error:
        return EXIT_NO_VERDICT
    return EXIT_OK if verdict.passed else EXIT_FAILED


def cmd_reference(args: argparse.Namespace) -> int:
    ref = catalog(args).reference(args.label)
    if args.json:
        print(json.dumps({"label": args.label, "reference": ref}))
    else:
        sys.stdout.write(ref if ref.endswith("\n") else ref + "\n")
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    from .checks import run_checks

    return run_checks(registry=args.registry, select=args.glob, seeds=args.seeds, fail_fast=args.exitfirst,
                      verbose=args.verbose, json_out=args.json, workers=args.workers)


def cmd_plugins(args: argparse.Namespace) -> int:
    from .plugins import installed

    plugins = installed().plugins
    rows = [{"name": p.name, "distribution": p.distribution, "version": p.version, "module": p.module,
             "environments": p.envs, "verifiers": p.verifiers, "error": p.error} for p in plugins]
    emit(args, rows, lambda: table(
        [[r["name"], r["distribution"], r["version"], r["environments"], r["verifiers"], r["error"] or "ok"] for r in rows],
        ["PLUGIN", "DISTRIBUTION", "VERSION", "ENVS", "VERIFIERS", "STATUS"]))
    return EXIT_FAILED if any(p.error for p in plugins) else EXIT_OK


# -- parser --------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="rlhub", description="Environment hub and reward registry for RL post-training of LLMs.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"rlhub {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add(name: str, func: Callable, help: str, description: str | None = None) -> argparse.ArgumentParser:
        p = common(sub.add_parser(name, help=help, description=description or help,
                                  formatter_class=argparse.RawDescriptionHelpFormatter))
        p.set_defaults(func=func)
        return p

    p = add("list", cmd_list, "list the registry's environments: id, domain, verifier, weight, tags")
    p.add_argument("glob", nargs="?", help="only environments matching this glob, e.g. 'cad/*'")

    p = add("show", cmd_show, "show one environment: its settings and an example prompt")
    p.add_argument("env_id")
    p.add_argument("--seed", type=int, default=0, help="which example task to show (default 0)")

    p = add("sample", cmd_sample, "draw N prompts by the registry's weights into an OpenRLHF prompt file",
            "Draw N prompts by the registry's weights. Each JSONL line is {\"input\": prompt, \"label\": label},\n"
            "OpenRLHF's prompt-dataset format (--data.input_key input --data.label_key label).\n"
            "The same seed gives the same file; the file appears only once complete.")
    p.add_argument("--n", type=int, required=True, help="number of prompts")
    p.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    p.add_argument("--out", required=True, metavar="FILE.jsonl", help="output file")
    p.add_argument("--select", dest="glob", metavar="GLOB", help="sample only environments matching GLOB")
    p.add_argument("--state-out", metavar="FILE", help="save the sampler's state here, to resume later")
    p.add_argument("--resume", metavar="FILE", help="continue the stream saved by --state-out")

    p = add("verify", cmd_verify, "grade one response; prints {reward, passed, details} as JSON",
            "Grade one response against the task its label names. Prints one verdict as JSON.\n"
            "exit 0: passed; 1: not passed; 2: bad input; 3: no verdict (the verifier failed).")
    p.add_argument("--label", required=True, help='e.g. \'{"env": "arith/add-v1", "seed": 3}\'')
    p.add_argument("--response-file", required=True, metavar="FILE", help="the model's response ('-' for stdin)")
    p.add_argument("--render", metavar="PATH.png", help="also draw the verdict (verifiers that can, e.g. mesh_iou: "
                   "reference and candidate side by side, mismatched features marked)")

    p = add("reference", cmd_reference, "print the reference solution, written as a model's response")
    p.add_argument("--label", required=True)

    p = add("check", cmd_check, "run the verifier checks (pytest) for the selected environments",
            "For every selected environment: the reference earns full reward; empty, malformed and\n"
            "wrong answers do not; generation and verification are deterministic; the prompt does not\n"
            "leak the answer. Exit 0 only if all hold. Same as `pytest registry.yaml`.")
    p.add_argument("glob", nargs="?", help="only environments matching this glob")
    p.add_argument("--seeds", type=int, default=2, help="tasks checked per environment (default 2)")
    p.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    p.add_argument("-v", "--verbose", action="store_true", help="one line per check")
    p.add_argument("-n", "--workers", type=int, default=0, help="reserved: parallel workers (0 = in process)")

    p = add("plugins", cmd_plugins, "list installed plugins with their distribution and version")

    from .plugins import installed

    for info, register_commands in installed().commands:
        try:
            register_commands(subparsers=sub)
        except Exception as exc:  # a broken plugin command must not take the CLI down
            print(f"rlhub: warning: plugin {info.name!r} could not add its commands: {exc}", file=sys.stderr)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"rlhub: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rlhub: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `rlhub list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
