"""`rlhub assets push|pull|ls`: files in object storage, pinned by sha256, cached per node."""

from __future__ import annotations

import json
import sys

from ...plugins.hookspecs import hookimpl

ABOUT = """\
A registry's dataset `path:` and `assets:` and a sandbox profile's `mounts[].src` may name
files in object storage (s3://, gs://, hf://, https://, file://) pinned by sha256:

    path: s3://bucket/qa/sha256/HEX/qa.jsonl#sha256=HEX
    assets: s3://bucket/swe/sha256/HEX/repos.tar#sha256=HEX    (a folder, as a tar archive)

Each is fetched once per machine into $RLHUB_ASSET_CACHE (default ~/.cache/rlhub/assets,
bounded by $RLHUB_ASSET_CACHE_MAX, default 50G), verified against its pin before any use, and
refused with both hashes when it does not match. Endpoints and credentials are fsspec's and
the SDKs' own (AWS_ENDPOINT_URL, AWS_PROFILE, ~/.config/fsspec/).

The registry file may itself be a pin (--registry s3://bucket/sha256/HEX/registry.yaml#sha256=HEX):
each node fetches it, so Ray workers that start with an empty disk need nothing else. Such a
registry names its files by pin or absolute path. $RLHUB_SWE_SDISTS_URL (a prefix pushed from
rlhub-swe-fetch's folder) and $RLHUB_CAD_DRAWINGS (the pin of a pushed ~/.cache/rlhub/cad-render)
let nodes fetch the real projects' sources and reference drawings instead of making them."""


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def cmd_push(args) -> int:
    from ...assets.push import push

    pins = push(args.paths, args.dest)
    if args.json:
        print(json.dumps(pins))
        return 0
    print("# pins: put each where the registry names that path (dataset path:/assets:, a mount's src:)")
    for p in pins:
        what = (f"folder of {p['files']} files, {_size(p['size'])} as tar" if p["kind"] == "folder"
                else _size(p["size"]))
        print(f"{json.dumps(p['path'])}: {p['pin']}  # {what}{'' if p['uploaded'] else ', already there'}")
    return 0


def _wanted(args) -> list[tuple[str, str]]:
    """(where, pin) for each asset named on the command line, else each the registry names."""
    if getattr(args, "pins", None):
        return [("command line", p) for p in args.pins]
    from ..common import catalog

    return catalog(args).asset_uses


def _state(cache) -> dict:
    entries = cache.entries()
    return {"cache": str(cache.root), "entries": len(entries), "bytes": sum(e.size for e in entries),
            "max_bytes": cache.max_bytes}


def cmd_pull(args) -> int:
    from ...assets import AssetError, AssetRef, default_cache
    from ...core.errors import EXIT_USAGE, UserError

    cache = default_cache()
    wanted = _wanted(args)
    if not wanted:
        raise UserError("nothing to pull: the registry names no pinned asset URLs (give PINs, or --registry)")
    done, failed = [], 0
    for where, pin in wanted:
        try:
            ref = AssetRef.parse(pin)
            was = cache.cached(ref) is not None
            done.append({"where": where, "url": ref.url, "sha256": ref.sha256, "path": str(cache.path(ref)),
                         "fetched": not was})
        except AssetError as exc:
            failed += 1
            print(f"rlhub: error: {where}: {exc}", file=sys.stderr)
            continue
        if not args.json:
            print(f"{'fetched' if done[-1]['fetched'] else 'cached '} {ref.name} ({ref.sha256[:12]}) -> {done[-1]['path']}")
    if args.json:
        print(json.dumps({"assets": done, "failed": failed, **_state(cache)}))
    return EXIT_USAGE if failed else 0


def cmd_ls(args) -> int:
    from ...assets import AssetError, AssetRef, default_cache
    from ..common import table

    cache = default_cache()
    rows = []
    for where, pin in _wanted(args):
        try:
            ref = AssetRef.parse(pin)
        except AssetError as exc:
            rows.append({"where": where, "url": pin, "sha256": "", "cached": False, "path": None, "error": str(exc)})
            continue
        path = cache.cached(ref)
        rows.append({"where": where, "url": ref.url, "sha256": ref.sha256, "cached": path is not None,
                     "path": str(path) if path else None})
    state = _state(cache)
    if args.json:
        print(json.dumps({"assets": rows, **state}))
        return 0
    if rows:
        print(table([[r["where"], r["url"], r["sha256"][:12], "cached" if r["cached"] else "missing"] for r in rows],
                    ["NEEDED BY", "URL", "SHA256", "STATE"]))
    else:
        print("the registry names no pinned asset URLs")
    print(f"cache {state['cache']}: {state['entries']} entries, {_size(state['bytes'])} of {_size(state['max_bytes'])}")
    return 0


@hookimpl
def rlhub_register_commands(subparsers):
    from ..common import HelpFormatter, add_verb, examples

    p = subparsers.add_parser("assets", help="files in object storage, pinned by sha256: push, pull, ls",
                              description=ABOUT, formatter_class=HelpFormatter,
                              epilog=examples("rlhub assets push data/swe.jsonl repos/ s3://my-bucket/swe",
                                              "rlhub assets pull --registry run/registry.yaml   pre-fill this node",
                                              "rlhub assets ls --registry run/registry.yaml"))
    sub = p.add_subparsers(dest="assets_command", metavar="ACTION", required=True)
    s = add_verb(sub, "push", cmd_push, "upload files and folders, print their pins",
                 "Upload each PATH under DEST/sha256/HEX/NAME (a folder as one reproducible NAME.tar) and\n"
                 "print the pins to put in the registry. Content-addressed: nothing is overwritten, and\n"
                 "bytes already there are not sent again. DEST's bucket must exist.",
                 epilog=examples("rlhub assets push data/qa.jsonl s3://my-bucket/qa",
                                 "rlhub assets push repos/ s3://my-bucket/swe     a folder: repos.tar",
                                 "AWS_ENDPOINT_URL=http://minio:9000 rlhub assets push pages/ s3://docs/v1"))
    s.add_argument("paths", nargs="+", metavar="PATH", help="files or folders to upload")
    s.add_argument("dest", metavar="DEST", help="where: s3://BUCKET/PREFIX, gs://..., file:///srv/mirror or a local folder")
    s = add_verb(sub, "pull", cmd_pull, "fetch assets into this machine's cache (verified)",
                 "Fetch every pinned asset the registry names (or each PIN given) into the cache, verify\n"
                 "it, and extract archives, so that workers on this node start without fetching.\n"
                 "Exit 2 if any could not be had as pinned (each is named on stderr).",
                 epilog=examples("rlhub assets pull --registry run/registry.yaml",
                                 "rlhub assets pull 's3://my-bucket/qa/sha256/HEX/qa.jsonl#sha256=HEX'"))
    s.add_argument("pins", nargs="*", metavar="PIN", help="URL#sha256=HEX (default: every asset of the registry)")
    s = add_verb(sub, "ls", cmd_ls, "what the registry needs and what is cached",
                 epilog=examples("rlhub assets ls --registry run/registry.yaml", "rlhub assets ls --json"))
