"""CLI verbs for the Hugging Face Hub: push, install, prefetch, search.

The Hub endpoint and token come from huggingface_hub's own settings (HF_ENDPOINT, HF_TOKEN,
HF_HUB_OFFLINE), so a mirror or an offline cache works with no rlhub-specific setup.
"""

from __future__ import annotations

import json

from ...plugins.hookspecs import hookimpl


def _releases_in_registry(path: str | None):
    from ...publish.install import ReleaseSpec
    from ...config.registry import load

    reg = load(path)
    return [ReleaseSpec.parse(e.source) for e in reg.data.environments if e.source]


def cmd_push(args) -> int:
    from ...publish.push import push

    out = push(args.plugin_dir, args.repo, run_checks=not args.skip_checks, private=args.private)
    print(json.dumps(out) if args.json else
          f"published {out['distribution']} {out['version']} to {out['repo']}@{out['tag']}\n"
          f"content sha256: {out['digest']}\n"
          f"install with: rlhub install {out['repo']}@{out['tag']}#sha256={out['digest']} --trust")
    return 0


def cmd_install(args) -> int:
    from ...core.errors import UserError
    from ...publish.install import ReleaseSpec, install

    specs = [ReleaseSpec.parse(s) for s in args.release]
    if args.sha256:
        if len(specs) != 1:
            raise UserError("--sha256 goes with exactly one release")
        specs = [ReleaseSpec(specs[0].repo, specs[0].version, args.sha256)]
    if args.from_registry:
        specs += _releases_in_registry(args.registry)
    if not specs:
        raise UserError("name a release (ORG/NAME[@VERSION]) or pass --from-registry")
    done = [install(s, trust=args.trust) for s in specs]
    for d in done:
        if not args.json:
            print(f"installed {d['distribution']} {d['version']} from {d['repo']}@{d['tag']} (sha256 {d['digest'][:16]}...)")
    if args.json:
        print(json.dumps(done))
    return 0


def cmd_prefetch(args) -> int:
    from ...core.errors import UserError
    from ...publish.install import ReleaseSpec, prefetch

    specs = [ReleaseSpec.parse(s) for s in args.release] or _releases_in_registry(args.registry)
    if not specs:
        raise UserError("nothing to prefetch: name releases or use a registry with `source: hf://...` entries")
    done = prefetch(specs)
    print(json.dumps(done) if args.json else "\n".join(f"cached {d['repo']}@{d['tag']} at {d['path']}" for d in done))
    return 0


def cmd_search(args) -> int:
    from ..common import table
    from ...publish.search import card, search

    if args.show:
        info = card(args.show)
        print(json.dumps(info) if args.json else
              f"{info['repo']}: {info['distribution']} {info['version']} (licence {info['license']})\n" +
              table([[e["id"], e["verifier"], str(e.get("max_turns", 1))] for e in info["environments"]],
                    ["ENVIRONMENT", "VERIFIER", "TURNS"]))
        return 0
    rows = search(args.query)
    print(json.dumps(rows) if args.json else
          table([[r["repo"], ",".join(r["tags"]), r["last_modified"][:10]] for r in rows], ["REPO", "TAGS", "UPDATED"]))
    return 0


@hookimpl
def rlhub_register_commands(subparsers):
    from ..common import add_verb, examples

    p = add_verb(subparsers, "push", cmd_push, "check, build and publish a plugin to a Hub dataset repository",
                 "Run the plugin's verifier checks, build its wheel, and upload a release tagged v{version}\n"
                 "(wheel, registry fragment, Parquet task sample, dataset card, sha256 manifest).\n"
                 "A release tag is never moved: publishing the same version twice is refused.",
                 epilog=examples("rlhub push plugins/envs/cad --repo my-org/rlhub-cad",
                                 "HF_ENDPOINT=http://mirror:8090 rlhub push plugins/envs/docqa --repo my-org/docqa --private"))
    p.add_argument("plugin_dir", help="the plugin distribution's folder (with pyproject.toml and registry.yaml)")
    p.add_argument("--repo", required=True, metavar="ORG/NAME", help="the Hub dataset repository")
    p.add_argument("--private", action="store_true", help="create the repository as private")
    p.add_argument("--skip-checks", action="store_true", help="publish without running the verifier checks")

    p = add_verb(subparsers, "install", cmd_install, "install a published plugin (verified, with explicit trust)",
                 "Download ORG/NAME at tag vVERSION (latest tag if omitted), verify every file against the\n"
                 "release manifest and the manifest against the pinned or previously recorded hash,\n"
                 "then pip-install the wheel. Works offline from the cache with HF_HUB_OFFLINE=1.",
                 epilog=examples("rlhub install my-org/rlhub-cad@v0.1.0 --trust",
                                 "rlhub install --from-registry --trust      every `source: hf://...` of the registry"))
    p.add_argument("release", nargs="*", help="ORG/NAME[@VERSION][#sha256=HEX]")
    p.add_argument("--trust", action="store_true", help="install without asking (for scripts)")
    p.add_argument("--sha256", help="the release's content hash, as printed by `rlhub push`")
    p.add_argument("--from-registry", action="store_true", help="also install every `source: hf://...` of the registry")

    p = add_verb(subparsers, "prefetch", cmd_prefetch, "download releases into the local cache (for offline clusters)",
                 epilog=examples("rlhub prefetch my-org/rlhub-cad@v0.1.0",
                                 "rlhub prefetch --registry run/registry.yaml   every `source:` it names"))
    p.add_argument("release", nargs="*", help="ORG/NAME[@VERSION] (default: every `source:` of the registry)")

    p = add_verb(subparsers, "search", cmd_search, "list environment repositories on the Hub (tag rl-environment)",
                 epilog=examples("rlhub search cad", "rlhub search --show my-org/rlhub-cad"))
    p.add_argument("query", nargs="?", help="text to search for in repository names")
    p.add_argument("--show", metavar="ORG/NAME", help="show one repository's card: environments and verifiers")
