"""Several constructions, one part: each family's reference and the same solid built other
ways must measure the same feature list and earn exactly 1.0 against it, in every task kind's
grading. The constructions:

- `alternative`: the family's `alternative()` (a sketch cut for a `shell()`, a revolve for
  stacked extrusions, unions left uncleaned);
- `nurbs`: the reference converted to exact rational B-splines (`result.val().toNURBS()`): every
  face a B-spline surface, every edge a B-spline curve;
- `ellipse`: the reference (or, where it draws no circle, the alternative) with every
  `.circle(r)` drawn as `.ellipse(r, r)`: its holes and bosses are extrusions of ellipses,
  split into several faces.

    python -m rlhub_cad.constructions ['cad/*'] [--seeds 1]

Every part is built and measured in the warm sandbox, as a model's would be (the runner reads
analytic surfaces written another way as what they are, `rlhub_mesh.canonical`, and unifies
faces that lie on one surface, `rlhub_mesh.brep.unified`, before it reads features). Prints one
row per family and seed: feature counts, whether the lists agree, and each construction's reward
in each kind; exits 1 if any differs.
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


def nurbs(script: str) -> str:
    """The script's part as exact rational B-splines (every face and edge converted)."""
    return script.rstrip("\n") + "\n\n# the same solid, every face a B-spline\nresult = result.val().toNURBS()\n"


def ellipses(script: str | None) -> str | None:
    """The script with every one-argument `.circle(r)` drawn as `.ellipse(r, r)`; None where
    it draws no circle."""
    if not script:
        return None
    out, pos, found = [], 0, False
    while (start := script.find(".circle(", pos)) >= 0:
        depth, i = 1, start + len(".circle(")
        while i < len(script) and depth:
            depth += {"(": 1, ")": -1}.get(script[i], 0)
            i += 1
        arg = script[start + len(".circle("):i - 1]
        if "," in arg or "=" in arg or not arg.strip():  # not a plain radius: leave it
            out.append(script[pos:i])
        else:
            out.append(f"{script[pos:start]}.ellipse({arg}, {arg})")
            found = True
        pos = i
    return "".join(out) + script[pos:] if found else None


CONSTRUCTIONS = ("alternative", "nurbs", "ellipse")


def constructions(fam, p: dict) -> dict[str, str | None]:
    """Each construction's script of the part (None: the family has none of that kind)."""
    ref, alt = fam.script(p), fam.alternative(p)
    return {"alternative": alt, "nurbs": nurbs(ref), "ellipse": ellipses(ref) or ellipses(alt)}


def check(pattern: str = "cad/*", seeds: int = 1, log=print) -> list[dict]:
    """One row per (family, seed) whose environments match `pattern`: each construction's
    measured features compared with the reference's, and graded against it in every kind."""
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
            size = max(hi - lo for lo, hi in zip(*ref.props["bbox"]))
            row = {"family": fam.name, "seed": seed, "counts": (len(ref.built["features"]), len(ref.built["form"])),
                   "built": {}}
            for name, script in constructions(fam, p).items():
                if script is None:
                    continue
                alt = verifier._part(verifier._run(ctx, script, teeth))
                one = {"differences": differences(ref.built["features"], alt.built["features"], size)
                       + differences(ref.built["form"], alt.built["form"], size), "rewards": {}}
                for kind in kinds:
                    grading = stated.grading(fam, kind, p)
                    v = verifier.grade(ref, alt, "none", Grading.model_validate(grading))
                    one["rewards"][kind] = (v.reward, v.passed, v.details.get("mismatches", [])[:2])
                row["built"][name] = one
            row["seconds"] = round(time.perf_counter() - start, 2)
            rows.append(row)
            log(_line(row))
    return rows


def ok(row: dict) -> bool:
    """Every construction the family has measures the reference's features and earns 1.0; the
    alternative and the NURBS form are required of every family."""
    return ("alternative" in row["built"] and "nurbs" in row["built"]
            and all(not b["differences"] and all(r == 1.0 and passed for r, passed, _ in b["rewards"].values())
                    for b in row["built"].values()))


def _line(row: dict) -> str:
    parts = []
    for name in CONSTRUCTIONS:
        b = row["built"].get(name)
        if b is None:
            parts.append(f"{name}: {'NONE' if name != 'ellipse' else 'no circle to draw'}")
            continue
        rewards = ", ".join(f"{k} {r:.3f}" for k, (r, _, _) in b["rewards"].items())
        same = "identical features" if not b["differences"] else "DIFFER: " + "; ".join(b["differences"][:3])
        bad = [f"{k}: {m}" for k, (r, passed, m) in b["rewards"].items() if r != 1.0 or not passed]
        parts.append(f"{name}: {same}, earns {rewards}" + (f" FAILS {bad}" if bad else ""))
    return (f"{row['family']} seed {row['seed']}: {row['counts'][0]} features, {row['counts'][1]} form records; "
            + "; ".join(parts) + f" ({row['seconds']} s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("glob", nargs="?", default="cad/*")
    ap.add_argument("--seeds", type=int, default=1)
    args = ap.parse_args(argv)
    rows = check(args.glob, args.seeds)
    bad = [r for r in rows if not ok(r)]
    print(f"{len(rows)} (family, seed) pairs: {len(rows) - len(bad)} built every way measure the same features and earn "
          f"1.0 in every kind, {len(bad)} do not")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
