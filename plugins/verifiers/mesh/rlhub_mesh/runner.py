"""The trusted function the sandbox's warm `call` runs: build a CadQuery script, measure the part.

    sb.call(profile, "rlhub_mesh.runner:build", args={"script": ..., ...})

The warm worker pre-imports this module (profile `cadquery` preloads it); importing builds no
geometry, so every forked child is safe. The model's script is vetted (policy.check_script),
then exec'd with restricted builtins; only `cadquery` and `math` can be imported. The part is
read from the variable `result`, by exact type, and measured through OCP directly.

Returns a JSON-able dict: {"ok": True, "mesh": {...}, "props": {...}, "features": {...}} or
{"ok": False, "stage": "policy" | "error" | "result" | "invalid", "reason": "..."}.
"""

from __future__ import annotations

import base64
import math
import struct
import time
import traceback

import cadquery

from . import brep, policy

RUNNER_VERSION = 2  # bump when measurements change: it keys the reference cache
_SHAPE_TYPES = (cadquery.Solid, cadquery.Compound)
_MODULES = {"cadquery": cadquery, "math": math}


def _pack(fmt: str, values: list) -> str:
    return base64.b64encode(struct.pack(f"<{len(values)}{fmt}", *values)).decode("ascii")


def _script_error(exc: BaseException) -> str:
    """The exception and the script line it came from, without the runner's own frames."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<model>"]
    where = f" (line {frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {str(exc)[:300]}{where}"


def _part_of(result):
    """The OCC shape the script left in `result`, by exact type (no look-alike subclasses)."""
    if type(result) is cadquery.Workplane:
        objects = list(cadquery.Workplane.vals(result))
        shapes = [o for o in objects if type(o) in _SHAPE_TYPES]
        if len(shapes) != len([o for o in objects if isinstance(o, cadquery.Shape)]):
            kinds = sorted({type(o).__name__ for o in objects if type(o) not in _SHAPE_TYPES})
            raise brep.InvalidSolid(f"`result` holds {', '.join(kinds)} objects, not a solid")
        if not shapes:
            found = cadquery.Workplane.findSolid(result)  # e.g. result ends on .workplane()
            shapes = [found] if type(found) in _SHAPE_TYPES else []
        if not shapes:
            raise brep.InvalidSolid("`result` holds no solid")
        if len(shapes) == 1:
            return shapes[0].wrapped
        return cadquery.Compound.makeCompound(shapes).wrapped
    if type(result) in _SHAPE_TYPES:
        return result.wrapped
    raise brep.InvalidSolid(
        f"`result` must be a cadquery Workplane, Solid or Compound, not {type(result).__name__}"
    )


def build(script: str, linear_tolerance: float = 1e-3, angular_tolerance: float = 0.2,
          max_triangles: int = 200_000) -> dict:
    """Run one script and measure its part. `linear_tolerance` is relative to the part's size."""
    timings = {}
    start = time.perf_counter()
    try:
        code = compile(policy.check_script(script), "<model>", "exec")
    except (policy.PolicyViolation, SyntaxError, ValueError) as exc:
        return {"ok": False, "stage": "policy", "reason": f"{type(exc).__name__}: {exc}"}
    namespace = {
        "__builtins__": policy.safe_builtins(_MODULES),
        "__name__": "__cadquery_script__",
        "show_object": lambda *a, **k: None,  # CQ-editor / cqgi scripts call it; harmless here
    }
    try:
        exec(code, namespace)
    except BaseException as exc:  # noqa: BLE001 - SystemExit, MemoryError, OCC failures: all the model's
        return {"ok": False, "stage": "error", "reason": _script_error(exc)}
    timings["script_s"] = time.perf_counter() - start
    if "result" not in namespace:
        return {"ok": False, "stage": "result", "reason": "the script leaves no variable named `result`"}
    try:
        shape = _part_of(namespace["result"])
        props = brep.validate(shape)
        t = time.perf_counter()
        feats = brep.features(shape, props["diag"])
        timings["features_s"] = time.perf_counter() - t
        t = time.perf_counter()
        coords, indices = brep.triangulate(shape, linear_tolerance * props["diag"], angular_tolerance, max_triangles)
        timings["mesh_s"] = time.perf_counter() - t
    except brep.InvalidSolid as exc:
        return {"ok": False, "stage": "invalid", "reason": str(exc)}
    except BaseException as exc:  # noqa: BLE001 - OCC raises on broken shapes
        return {"ok": False, "stage": "invalid", "reason": f"measuring the part failed: {_script_error(exc)}"}
    mesh = {"vertices": _pack("d", coords), "triangles": _pack("i", indices),
            "n_vertices": len(coords) // 3, "n_triangles": len(indices) // 3}
    timings["total_s"] = time.perf_counter() - start
    return {"ok": True, "mesh": mesh, "props": props, "features": feats,
            "timings": {k: round(v, 4) for k, v in timings.items()}, "runner_version": RUNNER_VERSION}
