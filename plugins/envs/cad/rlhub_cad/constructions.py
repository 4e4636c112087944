"""Two constructions, one part: each family's reference and its `alternative()` (the same solid
built by other operations: a sketch cut for a `shell()`, a revolve for stacked extrusions,
unions left uncleaned) must measure the same feature list and earn exactly 1.0 against each
other, in every task kind's grading.

    python -m rlhub_cad.constructions ['cad/*'] [--seeds 1]

Both parts are built and measured in the warm sandbox, as a model's would be (the runner unifies
faces that lie on one surface before it reads features: `rlhub_mesh.brep.unified`). Prints one
row per family and seed: feature counts, whether the lists agree, and the reward of the
alternative in each kind; exits 1 if any differs.
"""

from __future__ import annotations

import argparse
import fnmatch
import math
import sys
import time

# Values that are positions, lengths or angles in a feature record: equal to within float noise
# (a ten-thousandth of the part's size, a twentieth of the tightest grading tolerance) when the two solids are the same.
_EXACT = ("kind", "surface", "through", "entry", "concave", "convex", "count", "faces")


def feature_key(f: dict) -> tuple:
    """What identifies a measured feature for sorting: its kind and rounded position."""
    at = f.get("at") or f.get("foot") or [0.0, 0.0, 0.0]
    return (f["kind"], *(round(v, 2) for v in at), round(f.get("d", f.get("r", f.get("area", 0.0))), 2))


def differences(a: list[dict], b: list[dict], size: float) -> list[str]:
    """How two measured feature lists differ (empty: the same features, to float noise)."""
    eps = max(size, 1.0) * 1e-4
    out = []
    kinds_a, kinds_b = {}, {}
    for f in a:
        kinds_a[f["kind"]] = kinds_a.get(f["kind"], 0) + 1
    for f in b:
        kinds_b[f["kind"]] = kinds_b.get(f["kind"], 0) + 1
    if kinds_a != kinds_b:
        return [f"feature counts differ: {dict(sorted(kinds_a.items()))} vs {dict(sorted(kinds_b.items()))}"]
    for f, g in zip(sorted(a, key=feature_key), sorted(b, key=feature_key)):
        for key in sorted(set(f) | set(g)):
            if not _close(f.get(key), g.get(key), eps, key):
                out.append(f"{f['kind']} at {f.get('at') or f.get('foot')}: {key} {f.get(key)!r} vs {g.get(key)!r}")
                break
    return out


def _close(x, y, eps: float, key: str) -> bool:
    if key in _EXACT or isinstance(x, (bool, str)) or x is None or y is None:
        return x == y
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_close(x[k], y[k], eps, k) for k in x)
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        return len(x) == len(y) and all(_close(u, v, eps, key) for u, v in zip(x, y))
    if key == "area":
        return math.isclose(x, y, rel_tol=1e-5, abs_tol=eps * eps)
    return abs(x - y) <= eps or (key in ("sweep", "angle") and abs(x - y) <= 1e-4)


def check(pattern: str = "cad/*", seeds: int = 1, log=print) -> list[dict]:
    """One row per (family, seed) whose environments match `pattern`: the two builds' measured
    features compared, and the alternative graded against the reference in every kind."""
    from hub import VerifyContext
    from hub.sandbox import get_sandbox
    from rlhub_mesh.grading import Grading
    from rlhub_mesh.plugin import CADQUERY_PROFILE
    from rlhub_mesh.verifier import MeshIoU

    from .env import CadEnvironment
    from .families import FAMILIES
    from . import stated
    from .kinds import KINDS

    verifier = MeshIoU()
    ctx = VerifyContext(profile=CADQUERY_PROFILE, _sandbox=get_sandbox())
    rows = []
    for fam in FAMILIES:
        kinds = [k for k in KINDS if fnmatch.fnmatchcase(f"cad/{fam.name}-{k}-v1", pattern)]
        if not kinds:
            continue
        for seed in range(seeds):
            env = CadEnvironment(f"cad/{fam.name}-dimensioned-v1", fam, "dimensioned")
            p = env.params(seed).params
            start = time.perf_counter()
            teeth = "teeth" in fam.features
            ref = verifier._part(verifier._run(ctx, fam.script(p), teeth))
            script = fam.alternative(p)
            row = {"family": fam.name, "seed": seed, "alternative": script is not None, "differences": [], "rewards": {}}
            if script is not None:
                alt = verifier._part(verifier._run(ctx, script, teeth))
                size = max(hi - lo for lo, hi in zip(*ref.props["bbox"]))
                row["differences"] = (differences(ref.built["features"], alt.built["features"], size)
                                      + differences(ref.built["form"], alt.built["form"], size))
                row["counts"] = (len(ref.built["features"]), len(ref.built["form"]))
                for kind in kinds:
                    grading = stated.grading(fam, kind, p)
                    v = verifier.grade(ref, alt, "none", Grading.model_validate(grading))
                    row["rewards"][kind] = (v.reward, v.passed, v.details.get("mismatches", [])[:2])
            row["seconds"] = round(time.perf_counter() - start, 2)
            rows.append(row)
            log(_line(row))
    return rows


def ok(row: dict) -> bool:
    return row["alternative"] and not row["differences"] and all(r == 1.0 and passed for r, passed, _ in row["rewards"].values())


def _line(row: dict) -> str:
    if not row["alternative"]:
        return f"{row['family']} seed {row['seed']}: NO ALTERNATIVE CONSTRUCTION"
    rewards = ", ".join(f"{k} {r:.3f}" for k, (r, _, _) in row["rewards"].items())
    same = "identical features" if not row["differences"] else "DIFFER: " + "; ".join(row["differences"][:3])
    bad = [f"{k}: {m}" for k, (r, passed, m) in row["rewards"].items() if r != 1.0 or not passed]
    return (f"{row['family']} seed {row['seed']}: {row['counts'][0]} features, {row['counts'][1]} form records, {same}; "
            f"alternative earns {rewards}" + (f" FAILS {bad}" if bad else "") + f" ({row['seconds']} s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("glob", nargs="?", default="cad/*")
    ap.add_argument("--seeds", type=int, default=1)
    args = ap.parse_args(argv)
    rows = check(args.glob, args.seeds)
    bad = [r for r in rows if not ok(r)]
    print(f"{len(rows)} (family, seed) pairs: {len(rows) - len(bad)} built two ways measure the same features and earn "
          f"1.0 in every kind, {len(bad)} do not")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
