"""Build trusted scripts in a child interpreter and report what came out (for tests, checks, bench).

`python -m rlhub_cad.build` reads a JSON list of scripts and prints, per script, whether it
built one valid solid, its bounding box and volume. One child per batch: CadQuery's import
costs seconds, and geometry must not be built in a process that later forks sandbox workers.
"""

from __future__ import annotations

import json
import subprocess
import sys


def build_all(scripts: list[str], timeout: float = 900) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "rlhub_cad.build"], input=json.dumps(scripts),
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"build child failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def _measure(script: str) -> dict:
    import math

    import cadquery as cq

    scope = {"cq": cq, "math": math}
    try:
        exec(compile(script, "<script>", "exec"), scope)
        shape = scope["result"].val() if isinstance(scope.get("result"), cq.Workplane) else scope["result"]
        solids = shape.Solids()
        bb = shape.BoundingBox()
        return {"ok": True, "valid": bool(shape.isValid()), "solids": len(solids), "volume": shape.Volume(),
                "bbox": [bb.xmin, bb.ymin, bb.zmin, bb.xmax, bb.ymax, bb.zmax], "faces": len(shape.Faces())}
    except Exception as exc:  # report, don't die: one bad script must not hide the others
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}


if __name__ == "__main__":
    json.dump([_measure(s) for s in json.load(sys.stdin)], sys.stdout)
