"""The feature-pairing rule of the CAD comparison, one pair at a time: the readable statement that
`compare._cost_matrix` computes for all pairs at once (and what the comparison ran per pair before).
The tests hold the matrix to it exactly, and `bench_matching.py` times the two against each other;
the verifier itself never calls it."""

from __future__ import annotations

from .compare import _SIZES, BIG, GATE, Scales, _dist, _position


def pair_cost(f: dict, g: dict, s: Scales) -> float:
    d = _position(f, g)  # None: they cannot be the same feature (axes crossed, other surface...)
    if d is None or d > GATE * s.size:
        return BIG
    cost = d / s.decay
    if f["kind"] == "plane":
        cost += _dist(f["at"], g["at"]) / s.decay
    for key in _SIZES:
        if key in f and key in g:
            cost += abs(f[key] - g[key]) / s.decay
    if f["kind"] == "teeth":
        cost += abs(f["count"] - g["count"])
    return cost
