"""`rlhub list`, `rlhub show`, `rlhub plugins`: what the registry and the installed plugins offer."""

from __future__ import annotations

import argparse
import json

from ...core.errors import EXIT_FAILED, EXIT_OK
from ...plugins.hookspecs import hookimpl
from ..common import add_select, add_verb, catalog, emit, selected, table


def cmd_list(args: argparse.Namespace) -> int:
    envs = catalog(args).select(selected(args))
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


def cmd_plugins(args: argparse.Namespace) -> int:
    from ...plugins.manager import installed

    plugins = installed().plugins
    rows = [{"name": p.name, "distribution": p.distribution, "version": p.version, "module": p.module,
             "environments": p.envs, "verifiers": p.verifiers, "error": p.error} for p in plugins]
    emit(args, rows, lambda: table(
        [[r["name"], r["distribution"], r["version"], r["environments"], r["verifiers"], r["error"] or "ok"] for r in rows],
        ["PLUGIN", "DISTRIBUTION", "VERSION", "ENVS", "VERIFIERS", "STATUS"]))
    return EXIT_FAILED if any(p.error for p in plugins) else EXIT_OK


@hookimpl
def rlhub_register_commands(subparsers):
    p = add_verb(subparsers, "list", cmd_list, "list the registry's environments: id, domain, verifier, weight, tags",
                 epilog="examples:\n  rlhub list\n  rlhub list 'cad/*' --json")
    add_select(p)
    p = add_verb(subparsers, "show", cmd_show, "show one environment: its settings and an example prompt",
                 epilog="example:\n  rlhub show arith/add-v1 --seed 3")
    p.add_argument("env_id")
    p.add_argument("--seed", type=int, default=0, help="which example task to show (default 0)")
    add_verb(subparsers, "plugins", cmd_plugins, "list installed plugins with their distribution and version",
             epilog="example:\n  rlhub plugins --json")
