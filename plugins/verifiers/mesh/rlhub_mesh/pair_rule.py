"""The feature-pairing rule of the CAD comparison, one pair at a time: the readable statement that
`compare._cost_matrix` computes for all pairs at once. The tests hold the matrix to it exactly,
and `bench_matching.py` times the two against each other; the verifier itself never calls it."""

from __future__ import annotations

import numpy as np

from .compare import BIG, GATE, PARALLEL, Scales


def _dot(a, b) -> float:
    return float(np.dot(np.asarray(a, float), np.asarray(b, float)))


def _dist(a, b) -> float:
    return float(np.linalg.norm(np.asarray(a, float) - np.asarray(b, float)))


def pair_cost(f: dict, g: dict, s: Scales) -> float:
    """The rule, one pair at a time."""
    k = f["kind"]
    if f.get("axis") is not None and g.get("axis") is not None and abs(_dot(f["axis"], g["axis"])) < PARALLEL:
        return BIG
    if k == "plane":
        if _dot(f["normal"], g["normal"]) < 1 - 1e-6:
            return BIG
        d = abs(f["offset"] - g["offset"])
    elif k == "slot" and abs(_dot(f["dir"], g["dir"])) < PARALLEL:
        return BIG
    elif k == "fillet" and f["surface"] != g["surface"]:
        return BIG
    else:
        d = _dist(f["foot"], g["foot"]) if k in ("hole", "boss", "cone") else _dist(f["at"], g["at"])
    if d > GATE * s.size:
        return BIG
    cost = d / s.decay
    if k == "plane":
        cost += _dist(f["at"], g["at"]) / s.decay
    for key in ("d", "r", "width", "length", "R", "r0", "r1"):
        if key in f and key in g:
            cost += abs(f[key] - g[key]) / s.decay
    if k == "teeth":
        cost += abs(f["count"] - g["count"])
    return cost
