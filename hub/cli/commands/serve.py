"""`rlhub serve`: the reward service (OpenRLHF's remote reward protocol). Heavy imports are lazy."""

from __future__ import annotations

import argparse

from ...plugins.hookspecs import hookimpl

DESCRIPTION = """\
Serve rewards over HTTP with OpenRLHF's remote reward protocol:
  POST / or /get_reward  {"query": [...], "prompts": [...], "labels": [...]}
  -> {"rewards": [...], "scores": [...], "extra_logs": {"rlhub/timeout": [...], ...}}
Every request is answered within --deadline (a sample that overruns gets 0, rlhub/timeout=1 and
rlhub/substituted=1, like every sample without a verdict: mask those out in the trainer). A full queue answers 503 with Retry-After. A query that does not contain its
prompt is graded on what follows the last assistant turn marker and flagged rlhub/prompt_mismatch.
Also: GET /health, /metrics (Prometheus), /queue; episodes over HTTP (POST /episodes, POST
/episodes/ID/step, GET|DELETE /episodes/ID) and streamable-HTTP MCP at /mcp/ENV_ID/SEED (one
session per episode), with one cap on open episodes (503 beyond it) and one idle TTL. Logs are JSON lines on stderr, each with the
request id; a stderr nobody reads costs dropped lines (counted in /metrics), never a stalled service. Defaults below are those of ServeConfig (a --config file overrides them, flags override both)."""

EXAMPLES = """\
examples:
  rlhub serve --port 5000                       then: --reward.remote_url http://HOST:5000/get_reward
  rlhub serve --backend ray --ray-address auto  verification on the Ray cluster this node is in
  rlhub serve --config serve.yaml               every setting from a file (flags override it)
"""


def cmd_serve(args: argparse.Namespace) -> int:
    from ...serve import logs
    from ...serve.config import ServeConfig
    from ...serve.server import serve_forever
    from ...core.errors import UserError
    from ...rewards.policy import REMOVED_WHY

    if args.timeout_reward is not None:
        raise UserError(f"--timeout-reward: {REMOVED_WHY}")

    config = ServeConfig.build(
        args.config, host=args.host, port=args.port, registry=args.registry, plugins=args.plugin or None,
        workers=args.workers, queue_limit=args.queue_limit, deadline_s=args.deadline,
        backend=args.backend, ray_address=args.ray_address, estimates_file=args.estimates_file, log_level=args.log_level,
        episode_cap=args.episode_cap, episode_ttl_s=args.episode_ttl)
    logs.setup(config.log_level, buffer_lines=config.log_buffer_lines)
    try:
        serve_forever(config)
    finally:
        logs.shutdown()
    return 0


@hookimpl
def rlhub_register_commands(subparsers):
    from ..common import add_verb

    p = add_verb(subparsers, "serve", cmd_serve, "serve rewards over HTTP (OpenRLHF remote reward protocol)",
                 DESCRIPTION, epilog=EXAMPLES)
    p.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--config", metavar="FILE.yaml", help="settings file (keys of ServeConfig, optionally under 'serve:')")
    p.add_argument("--workers", type=int, help="samples verified at once (default 4)")
    p.add_argument("--queue-limit", type=int, help="samples waiting at most before 503 (default 4096)")
    p.add_argument("--deadline", type=float, help="answer every request within this many seconds (default 150)")
    p.add_argument("--timeout-reward", type=float, help=argparse.SUPPRESS)  # removed: refused with why
    p.add_argument("--backend", choices=["local", "ray"], help="where verification runs (default local)")
    p.add_argument("--ray-address", help="Ray cluster to join, e.g. 'auto' (default: start a local one)")
    p.add_argument("--estimates-file", metavar="FILE.json", help="keep learned duration estimates here across restarts")
    p.add_argument("--episode-cap", type=int, help="episodes (HTTP and MCP) open at once at most (default 256)")
    p.add_argument("--episode-ttl", type=float, help="close an episode idle this many seconds (default 600)")
    p.add_argument("--plugin", action="append", metavar="MODULE", help="also load this plugin module (repeatable)")
    p.add_argument("--log-level", choices=["debug", "info", "warning", "error"], help="(default info)")
