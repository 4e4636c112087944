"""Drawings of reference parts for the image tasks: CadQuery SVG views rasterised to PNG.

Building geometry is slow (CadQuery's import alone takes seconds) and must never happen in a
process that later forks sandbox workers (OCC deadlocks a child forked after any geometry
work), so rendering runs in a child interpreter, `python -m rlhub_cad.render`, and every PNG
is cached on disk under its script's hash. `prerender` renders many scripts in one child.

Only trusted reference scripts (written by this package) are rendered here. A model's script is
drawn only inside the sandbox: `draw_candidate` hands it to `draw`, which runs in a sandboxed
child (`Sandbox.call`); what comes back is checked to be a PNG and nothing more is trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

RENDER_VERSION = "4"  # bump when the drawing layout changes: old cache entries are then ignored
SIZE = (640, 480)
_VIEWS = [  # (projection direction, x, y, width, height) on the SIZE canvas
    ((0, 0, 1), 0, 0, 320, 480),       # top
    ((1, -1, 0.8), 320, 0, 320, 480),  # isometric
]


def cache_dir() -> Path:
    root = os.environ.get("RLHUB_CAD_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "rlhub", "cad-render")
    return Path(root)


def _key(script: str) -> str:
    return hashlib.sha256(f"{RENDER_VERSION}\x00{SIZE}\x00{script}".encode()).hexdigest()


def cached(script: str) -> bytes | None:
    path = cache_dir() / f"{_key(script)}.png"
    return path.read_bytes() if path.exists() else None


def render_png(script: str, timeout: float = 300) -> bytes:
    """The PNG drawing of a reference script, from the cache or a child process."""
    hit = cached(script)
    if hit is not None:
        return hit
    prerender([script], timeout=timeout)
    hit = cached(script)
    if hit is None:  # pragma: no cover - prerender raises first
        raise RuntimeError("renderer wrote no PNG")
    return hit


def prerender(scripts: list[str], timeout: float = 1800) -> int:
    """Render every uncached script in one child interpreter; returns how many were rendered."""
    todo = list(dict.fromkeys(s for s in scripts if cached(s) is None))
    if not todo:
        return 0
    cache_dir().mkdir(parents=True, exist_ok=True)
    jobs = [{"script": s, "out": str(cache_dir() / f"{_key(s)}.png")} for s in todo]
    proc = subprocess.run([sys.executable, "-m", "rlhub_cad.render"], input=json.dumps(jobs),
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"rendering CAD drawings failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    return len(todo)


# -- a model's script: drawn in the sandbox ------------------------------------------------------
MAX_PNG_BYTES = 4 << 20


def draw_candidate(script: str, ctx) -> bytes | None:
    """The drawing of a model's script (same views as the reference's), made in the sandbox under
    the task's profile; None if the script builds no part there."""
    import base64
    import binascii

    r = ctx.sandbox.call(ctx.profile, "rlhub_cad.render:draw", args={"script": script})
    value = r.value if isinstance(r.value, dict) else {}
    try:
        png = base64.b64decode(value.get("png") or "", validate=True)
    except (binascii.Error, ValueError, TypeError):
        return None
    return png if png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) <= MAX_PNG_BYTES else None


def draw(script: str) -> dict:
    """Sandbox side (runs in a sandboxed child, never in the host): build the script, draw its
    `result` as the reference drawings are drawn; {"png": base64} or {"error": ...}."""
    import base64
    import math

    import cadquery as cq
    import resvg_py

    scope = {"cq": cq, "math": math, "__name__": "__cadquery_script__", "show_object": lambda *a, **k: None}
    try:
        exec(compile(script, "<model>", "exec"), scope)
        result = scope.get("result")
        shape = result.val() if isinstance(result, cq.Workplane) else result
        if not isinstance(shape, cq.Shape):
            return {"error": "the script left no part in `result`"}
        png = bytes(resvg_py.svg_to_bytes(svg_string=_drawing_svg(shape), background="#ffffff", skip_system_fonts=True))
    except Exception as exc:  # the model's script: any error is just "no drawing"
        return {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
    return {"png": base64.b64encode(png).decode("ascii")}


# -- the child side -------------------------------------------------------------------------------
def _drawing_svg(shape) -> str:
    """Three views of one shape, side by side, as one SVG document."""
    from cadquery.occ_impl.exporters.svg import getSVG

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE[0]}" height="{SIZE[1]}">',
             f'<rect width="{SIZE[0]}" height="{SIZE[1]}" fill="white"/>']
    for direction, x, y, w, h in _VIEWS:
        svg = getSVG(shape, {"width": w - 20, "height": h - 20, "marginLeft": 10, "marginTop": 10,
                             "showAxes": False, "projectionDir": direction, "strokeWidth": -1,
                             "showHidden": True})
        body = svg[svg.index("<svg"):]  # drop the XML declaration: nested <svg> places the view
        body = body.replace("<svg", f'<svg x="{x}" y="{y}"', 1)
        parts.append(body)
    parts.append('<line x1="320" y1="0" x2="320" y2="480" stroke="#999"/>')
    parts.append("</svg>")
    return "\n".join(parts)


def _main() -> None:
    import cadquery as cq
    import math
    import resvg_py

    for job in json.load(sys.stdin):
        scope = {"cq": cq, "math": math}
        exec(compile(job["script"], "<reference>", "exec"), scope)
        png = bytes(resvg_py.svg_to_bytes(svg_string=_drawing_svg(scope["result"].val()),
                                          background="#ffffff", skip_system_fonts=True))
        out = Path(job["out"])
        fd, tmp = tempfile.mkstemp(dir=out.parent, suffix=".tmp")  # atomic: readers never see half a file
        with os.fdopen(fd, "wb") as fh:
            fh.write(png)
        os.replace(tmp, out)


if __name__ == "__main__":
    _main()
