"""`rlhub swe ...`: SWE tasks from real projects (the `rlhub_register_commands` hook)."""

from __future__ import annotations

import sys

ABOUT = """\
Build validated bug-fix tasks from a real Python project with a test suite, SWE-smith's way:
its suite runs in the sandbox (3 runs; flaky and slow tests are dropped), candidate bugs are
made in its source (SWE-smith's procedural modifiers, cosmic-ray's operators, combinations of
2-3), and a candidate is kept when >= 1 test fails with it (FAIL_TO_PASS) and >= 1 beside it
still passes (PASS_TO_PASS), the same on a second run. Statements are written from the
failures, never from the diff. The test dependencies the project declares are installed once
(pip --target, cached by project, version and requirements) and mounted read-only into the
sandbox, which has no network."""


def cmd_build(args) -> int:
    from .taskbuild import Options, build

    opts = Options(max_candidates=args.max_candidates, combos=args.combos, seed=args.seed, slug=args.slug,
                   test_deps=args.test_deps,
                   progress=not args.quiet and sys.stderr.isatty() or args.progress)
    r = build(args.source, args.out, opts)
    why = ", ".join(f"{n} {w}" for w, n in sorted(r.dropped.items(), key=lambda x: -x[1])) or "none"
    print(f"{r.project} {r.version}: {r.kept} instances from {r.candidates} candidates in {r.seconds:.0f} s "
          f"({r.tests_kept} of {r.tests_found} tests kept; dropped: {why})")
    print(f"wrote {args.out}/instances.jsonl, {args.out}/repos/, {args.out}/registry.yaml and {args.out}/report.json")
    print(f"check them: rlhub check --registry {args.out}/registry.yaml --seeds 1")
    return 0 if r.kept else 1


def cmd_fetch(args) -> int:
    from .real import fetch_all

    bad = 0
    for pin, path, error in fetch_all():
        if error:
            bad += 1
            print(f"swe fetch: {pin.name}=={pin.version}: {error}", file=sys.stderr)
        elif not args.quiet:
            print(f"{pin.name}=={pin.version}: {path}")
    return 2 if bad else 0


def cmd_ship(args) -> int:
    from .real.ship import ship

    r = ship(args.build_dir, args.slug, args.package)
    print(f"shipped {r['instances']} instances of {args.slug}" + (f"; left out {len(r['dropped'])}: "
                                                                  + "; ".join(r["dropped"][:5]) if r["dropped"] else ""))
    return 0


def register(subparsers) -> None:
    from hub.cli.common import HelpFormatter, add_verb, examples

    p = subparsers.add_parser("swe", help="SWE tasks from real repositories: build, fetch, ship", description=ABOUT,
                              formatter_class=HelpFormatter)
    sub = p.add_subparsers(dest="swe_command", metavar="ACTION", required=True)
    b = add_verb(sub, "build", cmd_build, "validated bug-fix tasks from a project's source and tests",
                 ABOUT + "\n\nWrites DIR/instances.jsonl (SWE-bench's schema), DIR/repos/ (a git repository, one tagged\n"
                 "commit per instance), DIR/registry.yaml (two environments through the swebench preset: a\n"
                 "detailed and a terse report) and DIR/report.json (what was dropped and why). Run again on\n"
                 "the same DIR to resume: what was validated is not run again.",
                 epilog=examples("rlhub swe build pypi:toolz==1.0.0 --out build/toolz",
                                 "rlhub swe build ~/src/myproject --out build/mine --max-candidates 50",
                                 "rlhub swe build myproject-1.2.tar.gz --out build/mine --slug mine"))
    b.add_argument("source", metavar="SOURCE", help="a directory (a git repository: what HEAD holds), a source tarball, "
                                                    "or pypi:NAME==VERSION (its sdist, through pip)")
    b.add_argument("--out", required=True, metavar="DIR", help="where the tasks go (made if missing)")
    b.add_argument("--max-candidates", type=int, default=200, metavar="N", help="single-site bugs to try")
    b.add_argument("--combos", type=int, default=40, metavar="N", help="bugs of 2-3 validated ones to try")
    b.add_argument("--seed", type=int, default=0, help="which candidates are drawn")
    b.add_argument("--slug", help="the environments' namespace (default: the project's name)")
    b.add_argument("--test-deps", default="auto", metavar="auto|none|REQS",
                   help="the test dependencies to install for the sandbox: auto (what the project declares: "
                        "test extras, requirements files, tox deps), none, or requirements, comma-separated")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.add_argument("--progress", action="store_true", help="a progress bar even when stderr is not a terminal")
    f = add_verb(sub, "fetch", cmd_fetch, "fetch the shipped real projects' sdists (pinned by sha256)",
                 "Download the sdist of every real project rlhub-swe ships tasks for (through pip: its index\n"
                 "and proxy settings) into $RLHUB_SWE_SDISTS or ~/.cache/rlhub/sdists/, checking each\n"
                 "against its pinned sha256. scripts/setup.sh runs it; the swe/real-* environments need it.\n"
                 "Exit 2 if any could not be had as pinned (each named).",
                 epilog=examples("rlhub swe fetch", "RLHUB_SWE_SDISTS=/shared/sdists rlhub swe fetch"))
    f.add_argument("--quiet", action="store_true", help="print only failures")
    s = add_verb(sub, "ship", cmd_ship, "a build's instances into rlhub-swe's shipped data (maintainers)",
                 "Compact a `swe build` output from the package index into rlhub_swe/real/data/SLUG.jsonl and\n"
                 "pin its sdist in projects.json; every instance is graded again (gold 1.0, empty 0) and\n"
                 "left out, named, if it is not.",
                 epilog=examples("rlhub swe ship build/toolz --slug toolz --package toolz"))
    s.add_argument("build_dir", metavar="BUILD_DIR")
    s.add_argument("--slug", required=True, help="the environments' name: swe/real-SLUG-...")
    s.add_argument("--package", required=True, help="the project's import name")
