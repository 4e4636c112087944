"""`rlhub mcp`: serve one episode's tools over stdio with the MCP SDK (for any MCP client)."""

from __future__ import annotations

import argparse

from ...plugins.hookspecs import hookimpl

DESCRIPTION = """\
Serve one episode of the tool environment ENV_ID (task --seed S) as an MCP server over stdio.
The client lists the episode's tools and calls them; each call is one turn of the episode. The
tool that concludes (submit, answer, guess) returns the verdict {reward, passed, details}; calls
after it are errors. The prompt is the server's instructions and the resource rlhub://task; the
verdict is the resource rlhub://verdict, is written to --verdict-file when the episode ends, and is
printed as one JSON line on stderr when the client disconnects (which closes the episode).
For many episodes over HTTP, see `rlhub serve` (POST /mcp/ENV_ID/SEED)."""

EXAMPLES = """\
examples:
  rlhub mcp arith/guess-tools-v1 --seed 3
  claude mcp add guess -- rlhub mcp arith/guess-tools-v1 --seed 3 --verdict-file verdict.json
"""


def cmd_mcp(args: argparse.Namespace) -> int:
    from ...core.errors import EXIT_FAILED, EXIT_NO_VERDICT, EXIT_OK
    from ...mcp.stdio import serve_stdio
    from ..common import catalog, output_path

    if args.verdict_file is not None:
        output_path(args.verdict_file, "--verdict-file", "verdict.json")  # refused before serving, not after
    cat = catalog(args)
    label = cat.get(args.env_id).label(args.seed)
    cat.task(label)  # a seed out of range is refused before serving
    out = serve_stdio(cat, label, verdict_file=args.verdict_file)
    verdict = out["verdict"]
    if verdict is None:
        return EXIT_FAILED
    if verdict.get("error"):
        return EXIT_NO_VERDICT
    return EXIT_OK if verdict.get("passed") else EXIT_FAILED


@hookimpl
def rlhub_register_commands(subparsers):
    from ..common import add_verb

    p = add_verb(subparsers, "mcp", cmd_mcp, "serve one episode's tools over MCP (stdio)", DESCRIPTION, epilog=EXAMPLES)
    p.add_argument("env_id", metavar="ENV_ID")
    p.add_argument("--seed", type=int, default=0, help="which task (its seed, or row for a dataset)")
    p.add_argument("--verdict-file", metavar="FILE.json", help="write the verdict here when the episode ends")
