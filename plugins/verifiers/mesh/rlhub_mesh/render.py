"""`rlhub verify --render diff.png`: the reference and the candidate side by side, from the same
views (top, front, isometric; orthographic, one shared scale: `shared_frame`, which the eval
report's drawings use too), every mismatched feature marked
with a numbered red ring in both, and the verdict's mismatches listed under the pictures.

Host side: a small z-buffer rasteriser (numpy) draws the meshes the runner measured, exact
hidden-surface removal that matplotlib's 3-D painter's algorithm gets wrong on long triangles;
matplotlib (Agg) lays the images out and writes the PNG. Builds no geometry.
"""

from __future__ import annotations

import io
import textwrap
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from hub import Verdict

    from .verifier import Part

PIXELS = 400
MAX_MARKS = 12
VIEWS = (  # (title, view direction: from the eye towards the part, up)
    ("top (looking down -Z)", (0, 0, -1), (0, 1, 0)),
    ("front (looking along +Y)", (0, 1, 0), (0, 0, 1)),
    ("isometric", (-1, 1, -0.8), (0, 0, 1)),
)
LIGHT = np.array([-0.4, 0.5, 0.75])


def _basis(direction, up) -> np.ndarray:
    """Rows: screen right, screen up, depth (away from the eye)."""
    d = np.asarray(direction, float)
    d /= np.linalg.norm(d)
    right = np.cross(d, np.asarray(up, float))
    right /= np.linalg.norm(right)
    return np.array([right, np.cross(right, d), d])


def _raster(part: "Part", basis: np.ndarray, centre: np.ndarray, half: float) -> np.ndarray:
    """An RGB image of the part seen along basis[2], by a z-buffer over its triangles."""
    v = (part.mesh.vertices - centre) @ basis.T
    px = (v[:, 0] / half * 0.5 + 0.5) * (PIXELS - 1)
    py = (0.5 - v[:, 1] / half * 0.5) * (PIXELS - 1)
    depth = v[:, 2]
    tris = part.mesh.vertices[part.mesh.faces]
    normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    normals /= np.maximum(np.linalg.norm(normals, axis=1, keepdims=True), 1e-12)
    light = LIGHT / np.linalg.norm(LIGHT)
    shade = 0.3 + 0.7 * np.abs(normals @ light)
    zbuf = np.full((PIXELS, PIXELS), np.inf)
    image = np.ones((PIXELS, PIXELS, 3))
    colour = np.array([0.55, 0.65, 0.82])
    for k, (a, b, c) in enumerate(part.mesh.faces):
        xs, ys = px[[a, b, c]], py[[a, b, c]]
        x0, x1 = int(max(np.floor(xs.min()), 0)), int(min(np.ceil(xs.max()), PIXELS - 1))
        y0, y1 = int(max(np.floor(ys.min()), 0)), int(min(np.ceil(ys.max()), PIXELS - 1))
        if x1 < x0 or y1 < y0:
            continue
        det = (ys[1] - ys[2]) * (xs[0] - xs[2]) + (xs[2] - xs[1]) * (ys[0] - ys[2])
        if abs(det) < 1e-12:
            continue
        gx, gy = np.meshgrid(np.arange(x0, x1 + 1), np.arange(y0, y1 + 1))
        w0 = ((ys[1] - ys[2]) * (gx - xs[2]) + (xs[2] - xs[1]) * (gy - ys[2])) / det
        w1 = ((ys[2] - ys[0]) * (gx - xs[2]) + (xs[0] - xs[2]) * (gy - ys[2])) / det
        w2 = 1 - w0 - w1
        inside = (w0 >= -1e-6) & (w1 >= -1e-6) & (w2 >= -1e-6)
        if not inside.any():
            continue
        z = w0 * depth[a] + w1 * depth[b] + w2 * depth[c]
        region = zbuf[y0:y1 + 1, x0:x1 + 1]
        nearer = inside & (z < region)
        region[nearer] = z[nearer]
        image[y0:y1 + 1, x0:x1 + 1][nearer] = colour * shade[k]
    return image


def _project(point, basis, centre, half) -> tuple[float, float]:
    v = (np.asarray(point, float) - centre) @ basis.T
    return (v[0] / half * 0.5 + 0.5) * (PIXELS - 1), (0.5 - v[1] / half * 0.5) * (PIXELS - 1)


def _marks(data: list[dict], key: str) -> dict[tuple, list[int]]:
    """Mismatch numbers by the point they concern (several mismatches of one feature share a ring)."""
    out: dict[tuple, list[int]] = {}
    for number, m in enumerate(data[:MAX_MARKS], 1):
        if m.get(key):
            out.setdefault(tuple(round(c, 3) for c in m[key]), []).append(number)
    return out


def shared_frame(parts: list["Part"]) -> tuple[np.ndarray, float]:
    """(centre, half): one frame for every part and view, so each pixel is the same length in
    every picture of them (half: the half-width of a view in mm; the largest part fills it)."""
    lo = np.min([p.mesh.vertices.min(axis=0) for p in parts], axis=0)
    hi = np.max([p.mesh.vertices.max(axis=0) for p in parts], axis=0)
    centre = (lo + hi) / 2
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]) - centre
    half = max(float(np.abs(corners @ _basis(d, u)[:2].T).max()) for _, d, u in VIEWS) * 1.08
    return centre, half


def mm_per_pixel(half: float) -> float:
    return 2 * half / (PIXELS - 1)


def _draw_views(axes, title: str, part: "Part", marks: dict, centre: np.ndarray, half: float, inside: bool = False) -> None:
    """The part in every view, one axis each, its mismatched features ringed and numbered."""
    for ax, (view, direction, up) in zip(axes, VIEWS):
        basis = _basis(direction, up)
        ax.imshow(_raster(part, basis, centre, half), interpolation="nearest")
        for point, numbers in marks.items():
            x, y = _project(point, basis, centre, half)
            ax.plot(x, y, "o", ms=16, mfc="none", mec="red", mew=2)
            ax.annotate(",".join(map(str, numbers)), (x, y), xytext=(9, 9), textcoords="offset points",
                        color="red", fontsize=9, fontweight="bold")
        if inside:  # the caption on the picture: the image is the raster, pixel for pixel
            ax.text(0.02, 0.98, f"{title}: {view}", transform=ax.transAxes, va="top", fontsize=9)
        else:
            ax.set_title(f"{title}: {view}", fontsize=10)


def drawing(title: str, part: "Part", verdict: "Verdict", centre: np.ndarray, half: float, key: str) -> bytes:
    """One part's views in a row as PNG bytes, one image pixel per raster pixel (so its scale is
    exactly `mm_per_pixel(half)`), titled inside the picture; `key`: "ref_at" or "cand_at" (the marks)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    dpi = 100
    fig = Figure(figsize=(PIXELS * len(VIEWS) / dpi, PIXELS / dpi), dpi=dpi)
    axes = [fig.add_axes((i / len(VIEWS), 0, 1 / len(VIEWS), 1)) for i in range(len(VIEWS))]
    for ax in axes:
        ax.set_axis_off()
    _draw_views(axes, title, part, _marks(verdict.details.get("mismatch_data") or [], key), centre, half, inside=True)
    for ax in axes:
        ax.set_xlim(-0.5, PIXELS - 0.5)
        ax.set_ylim(PIXELS - 0.5, -0.5)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def render_pair(ref: "Part", cand: "Part | None", verdict: "Verdict", path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = verdict.details.get("mismatch_data") or []
    parts = [("reference", ref, _marks(data, "ref_at"))]
    if cand is not None:
        parts.append(("candidate", cand, _marks(data, "cand_at")))
    centre, half = shared_frame([p for _, p, _ in parts])
    fig, axes = plt.subplots(len(VIEWS) + 1, 2, figsize=(10, 4.6 * len(VIEWS) + 2.4), dpi=90,
                             gridspec_kw={"height_ratios": [4.6] * len(VIEWS) + [2.4]})
    fig.subplots_adjust(left=0.02, right=0.98, top=0.97, bottom=0.01, wspace=0.04, hspace=0.12)
    for col in range(2):
        column = [axes[row, col] for row in range(len(VIEWS))]
        for ax in column:
            ax.set_xticks([])
            ax.set_yticks([])
        if col >= len(parts):
            for ax in column:
                ax.axis("off")
            column[0].text(0.5, 0.5, "no part to show:\n" + textwrap.fill(str(verdict.details.get("reason", "")), 40),
                           ha="center", va="center", fontsize=10, color="red")
            continue
        title, part, marks = parts[col]
        _draw_views(column, title, part, marks, centre, half)
    text = axes[len(VIEWS), 0]
    for ax in axes[len(VIEWS)]:
        ax.axis("off")
    head = (f"reward {verdict.reward:.3f}, {'passed' if verdict.passed else 'not passed'} "
            f"({verdict.details.get('stage', '')}, tolerance {verdict.details.get('tolerance_mm', '-')} mm)")
    lines = [head] + [textwrap.shorten(f"{i}. {m['text']}", 120) for i, m in enumerate(data[:MAX_MARKS], 1)]
    if len(data) > MAX_MARKS:
        lines.append(f"... and {len(data) - MAX_MARKS} more")
    text.text(0.0, 1.0, "\n".join(lines), va="top", ha="left", fontsize=8, family="monospace", transform=text.transAxes)
    fig.savefig(path, format="png")
    plt.close(fig)
