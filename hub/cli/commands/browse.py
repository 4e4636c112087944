"""`rlhub list`, `rlhub show`, `rlhub plugins`, `rlhub verifiers`: what the registry and the
installed plugins offer."""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import typing

from ...core.errors import EXIT_FAILED, EXIT_OK, UserError
from ...plugins.hookspecs import hookimpl
from ..common import add_select, add_verb, catalog, emit, examples, selected, table


def _list_rows(envs) -> list[dict]:
    return [{"id": e.id, "domain": e.domain, "verifier": e.identity.name, "weight": round(e.weight, 6),
             "tags": list(e.tags), "max_turns": e.max_turns, "profile": e.profile.name,
             "distribution": e.spec.distribution, "description": e.spec.description} for e in envs]


def _indexed_rows(args: argparse.Namespace) -> tuple[list[dict], str | None, object] | None:
    """Every environment's row, with the registry note to print (an index hit) or the catalog that
    printed it (a miss: the full load, which writes the index); None: not the program itself, or
    the index is off."""
    from .. import index

    if not index.active:
        return None
    hit = index.lookup("list", args.registry)
    if hit is not None:
        return hit["rows"], hit["note"], None
    index.watch()
    cat = catalog(args)
    rows, note = _list_rows(cat.select(None)), f"rlhub: registry: {cat.registry.name}"
    if not cat.plugins.failures:  # a broken plugin's warning shows on every run
        index.store("list", {"note": note, "rows": rows},
                    extra=[*cat.registry.files, *_dataset_paths(cat.registry), "registry.yaml"],
                    extra_key=args.registry)
    index.pause()
    return rows, None, cat


def _dataset_paths(registry) -> list:
    """The local files and folders of the registry's `dataset:` entries (resolution checks they exist)."""
    from ...assets import is_url

    found = []
    for i, entry in enumerate(registry.data.environments):
        for field in ("path", "assets"):
            value = getattr(entry.dataset, field, None) if entry.dataset is not None else None
            if value is not None and not is_url(value):
                found.append(registry.resolve_path(value, i))
    return found


def cmd_list(args: argparse.Namespace) -> int:
    pattern, rows, cat = selected(args), None, None
    indexed = _indexed_rows(args)
    if indexed is not None:
        all_rows, note, cat = indexed
        rows = [r for r in all_rows if not pattern or fnmatch.fnmatchcase(r["id"], pattern)]
        if rows and note:
            print(note, file=sys.stderr)
    if not rows:  # nothing matched: the catalog says why (or the index is not in use)
        rows = _list_rows((cat or catalog(args)).select(pattern))
    emit(args, rows, lambda: table(
        [[r["id"], r["domain"], r["verifier"], f"{r['weight']:.4g}", ",".join(r["tags"])] for r in rows],
        ["ID", "DOMAIN", "VERIFIER", "WEIGHT", "TAGS"]) + f"\n{len(rows)} environments")
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    from ..promptview import image_size, images, render, render_tools, save_images

    if args.max_chars < 0:
        raise UserError(f"--max-chars must be 0 (everything) or more, got {args.max_chars}")
    cat = catalog(args)
    e = cat.get(args.env_id)
    task = cat.task(e.label(args.seed))
    pictures = images(task)
    tools = cat.tools(task.label, task)
    saved = save_images(task, args.save_images, f"{e.id.replace('/', '_')}-{args.seed}") if args.save_images else []
    data = {"id": e.id, "domain": e.domain, "description": e.spec.description, "distribution": e.spec.distribution,
            "version": e.spec.version, "verifier": e.identity.name, "verifier_config": e.verifier.config.model_dump(mode="json"),
            "config_hash": e.identity.config_hash, "profile": e.profile.model_dump(mode="json"), "weight": e.weight,
            "tags": list(e.tags), "max_turns": e.max_turns, "num_tasks": e.num_tasks, "selected_by": e.where,
            "registry": cat.registry.name,
            "example": {"label": task.label.to_json(), "prompt": task.prompt,
                        "images": [image_size(p) for p in pictures], "saved_images": [str(p) for p in saved],
                        "tools": tools}}

    def text() -> str:
        skip = ("example", "profile", "verifier_config", "registry")
        lines = [f"{k}: {v}" for k, v in data.items() if k not in skip]
        lines.append(f"verifier_config: {json.dumps(data['verifier_config'])}")
        lines.append(f"profile: {e.profile.name} ({json.dumps(data['profile'])})")
        lines.append(f"\nexample {data['example']['label']}:\n{render(task, args.max_chars)}")
        if tools:
            lines.append(f"\ntools ({len(tools)}; the prompt's `tools` column):\n{render_tools(tools)}")
        lines += [f"saved image {k}: {p}" for k, p in enumerate(saved, 1)]
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK


def cmd_plugins(args: argparse.Namespace) -> int:
    from ...plugins.manager import installed

    plugins = installed().plugins
    rows = [{"name": p.name, "distribution": p.distribution, "version": p.version, "module": p.module,
             "environments": p.envs, "verifiers": p.verifiers, "registry": str(p.fragment) if p.fragment else None,
             "error": p.error} for p in plugins]
    emit(args, rows, lambda: table(
        [[r["name"], r["distribution"], r["version"], r["environments"], r["verifiers"], r["error"] or "ok",
          r["registry"] or "-"] for r in rows],
        ["PLUGIN", "DISTRIBUTION", "VERSION", "ENVS", "VERIFIERS", "STATUS", "REGISTRY FRAGMENT"]))
    return EXIT_FAILED if any(p.error for p in plugins) else EXIT_OK


def _config_fields(cls) -> list[dict]:
    out = []
    for name, field in cls.Config.model_fields.items():
        default = field.get_default(call_default_factory=True)
        if hasattr(default, "model_dump"):
            default = default.model_dump(mode="json")
        plain = isinstance(field.annotation, type) and not typing.get_args(field.annotation)
        annotation = field.annotation.__name__ if plain else str(field.annotation).replace("typing.", "")
        out.append({"name": name, "type": annotation, "default": default, "description": field.description or ""})
    return out


def cmd_verifiers(args: argparse.Namespace) -> int:
    from ...plugins.manager import installed

    specs = sorted(installed().verifiers.values(), key=lambda v: v.name)
    if args.name:
        specs = [v for v in specs if v.name == args.name]
        if not specs:
            from ...config.yamlfile import close_matches

            names = sorted(installed().verifiers)
            raise UserError(f"no installed verifier is called {args.name!r}{close_matches(args.name, names)} "
                            f"(installed: {', '.join(names)})")
    rows = [{"name": v.name, "distribution": v.distribution, "version": v.version,
             "description": (v.cls.__doc__ or "").strip().split("\n")[0], "config": _config_fields(v.cls)} for v in specs]

    def text() -> str:
        out = []
        for r in rows:
            out.append(f"{r['name']}  ({r['distribution']} {r['version']})  {r['description']}")
            out += [f"    {f['name']}: {f['type']} = {json.dumps(f['default'], default=str)}"
                    + (f"  # {f['description']}" if f["description"] else "") for f in r["config"]]
        return "\n".join(out)

    emit(args, rows, text)
    return EXIT_OK


@hookimpl
def rlhub_register_commands(subparsers):
    p = add_verb(subparsers, "list", cmd_list, "list the registry's environments: id, domain, verifier, weight, tags",
                 epilog=examples("rlhub list", "rlhub list 'cad/*' --json"))
    add_select(p)
    p = add_verb(subparsers, "show", cmd_show, "show one environment: its settings and an example prompt",
                 "Show one environment's settings and the prompt of one task. Images are marked\n"
                 "([image 1: 640x480 PNG]) and can be saved; long documents are trimmed.",
                 epilog=examples("rlhub show arith/add-v1 --seed 3",
                                 "rlhub show cad/flange-image-v1 --save-images drawings/"))
    p.add_argument("env_id", metavar="ENV_ID")
    p.add_argument("--seed", type=int, default=0, help="which example task to show (its seed or row)")
    p.add_argument("--max-chars", type=int, default=4000, help="trim each text part to this many characters (0: all)")
    p.add_argument("--save-images", metavar="DIR", help="write the prompt's images to DIR as PNG files")
    add_verb(subparsers, "plugins", cmd_plugins, "list installed plugins with their distribution and version",
             epilog=examples("rlhub plugins", "rlhub plugins --json"))
    p = add_verb(subparsers, "verifiers", cmd_verifiers,
                 "list installed verifiers: name, distribution, config fields (for verifier_config)",
                 epilog=examples("rlhub verifiers", "rlhub verifiers unit_tests --json"))
    p.add_argument("name", nargs="?", metavar="NAME", help="only this verifier")
