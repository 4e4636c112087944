"""Drawings of reference parts for the image tasks: CadQuery SVG views rasterised to PNG.

Building geometry is slow (CadQuery's import alone takes seconds) and must never happen in a
process that later forks sandbox workers (OCC deadlocks a child forked after any geometry
work). So drawings come from a warm renderer: one child interpreter per process that needs
drawings (`python -m rlhub_cad.render`), started on first use, which imports CadQuery once and
then forks its render workers (one per core) before any geometry exists. It serves every drawing
this process asks for until the process ends: never one interpreter per image.

`submit` starts drawings without waiting for them (an environment's `prepare` hands over a
whole batch of tasks at once, so they render in parallel while the caller does other work);
`render_png` returns one drawing, waiting for it if it is still being drawn.

Every PNG is cached on disk under its script's hash, in RLHUB_CAD_CACHE (default
~/.cache/rlhub/cad-render); RLHUB_CAD_CACHE=off, or RLHUB_CACHE=off (every rlhub cache off, as
the fresh-process check sets it), turns the disk cache off, and drawings are then made anew in
each process. A node that starts with an empty disk can take the drawings another node made from
object storage: `rlhub assets push ~/.cache/rlhub/cad-render s3://bucket/cad` (one tar) prints a
pin; with RLHUB_CAD_DRAWINGS set to it, a drawing missing here is looked up in that archive
(fetched once per node into the asset cache, verified) before anything is rendered. Only trusted reference scripts (written by this package) are rendered here;
a model's script is drawn only inside the sandbox: `draw_candidate` hands it to `draw`, which runs in
a sandboxed child (`Sandbox.call`); what comes back is checked to be a PNG and nothing more is trusted.
"""

from __future__ import annotations

import atexit
import base64
import functools
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections import OrderedDict
from concurrent.futures import Future
from pathlib import Path

RENDER_VERSION = "4"  # bump when the drawing layout changes: old cache entries are then ignored
SIZE = (640, 480)
_VIEWS = [  # (projection direction, x, y, width, height) on the SIZE canvas
    ((0, 0, 1), 0, 0, 320, 480),       # top
    ((1, -1, 0.8), 320, 0, 320, 480),  # isometric
]
_RECENT = 256  # drawings kept in memory per process (enough for a task made twice in a row)


def cache_dir() -> Path | None:
    """The disk cache of drawings, or None when caching is off."""
    configured = os.environ.get("RLHUB_CAD_CACHE", "")
    if configured.lower() in {"off", "0", "none"} or os.environ.get("RLHUB_CACHE", "").lower() == "off":
        return None
    return Path(configured or os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                                           "rlhub", "cad-render"))


SHARED = "RLHUB_CAD_DRAWINGS"


@functools.lru_cache(maxsize=4)
def _shared(pin: str) -> Path | None:
    """The extracted drawings archive `pin` names; None (said once) if it cannot be had: the
    drawings are then made here, as without it."""
    from hub.assets import AssetError, AssetRef, default_cache

    try:
        ref = AssetRef.parse(pin)
        if not ref.is_archive:
            raise AssetError(f"{SHARED} must name a tar archive of drawings (`rlhub assets push FOLDER URL`), got {ref.name!r}")
        return default_cache().path(ref)
    except AssetError as exc:
        print(f"rlhub-cad: warning: {SHARED}: {exc}; drawing here instead", file=sys.stderr)
        return None


def _from_shared(key: str) -> bytes | None:
    pin = os.environ.get(SHARED, "").strip()
    folder = _shared(pin) if pin and cache_dir() is not None else None
    path = folder / f"{key}.png" if folder else None
    if path is None or not path.is_file():
        return None
    data = path.read_bytes()
    return data if data.startswith(b"\x89PNG\r\n\x1a\n") else None


def _key(script: str) -> str:
    return hashlib.sha256(f"{RENDER_VERSION}\x00{SIZE}\x00{script}".encode()).hexdigest()


def cached(script: str) -> bytes | None:
    """The drawing of `script` if this process or the disk cache already has it."""
    key, state = _key(script), _here()
    with state.lock:
        if key in state.recent:
            return state.recent[key]
    folder = cache_dir()
    path = folder / f"{key}.png" if folder else None
    if path and path.exists():
        return path.read_bytes()
    return _from_shared(key)


def submit(scripts: list[str]) -> int:
    """Start drawing every script not drawn yet, without waiting; returns how many were started."""
    state = _here()
    todo = [s for s in dict.fromkeys(scripts) if _key(s) not in state.pending and cached(s) is None]
    for script in todo:
        state.pending[_key(script)] = state.renderer().submit(script)
    return len(todo)


def render_png(script: str, timeout: float = 300) -> bytes:
    """The PNG drawing of a reference script: from this process's drawings, the disk cache, or
    the warm renderer (waiting for it)."""
    hit = cached(script)
    if hit is not None:
        return hit
    key, state = _key(script), _here()
    future = state.pending.pop(key, None) or state.renderer().submit(script)
    png = future.result(timeout=timeout)
    _remember(key, png)
    return png


def prerender(scripts: list[str], timeout: float = 1800) -> int:
    """Render every uncached script (in parallel) and wait for all; returns how many were rendered."""
    n = submit(scripts)
    for script in dict.fromkeys(scripts):
        render_png(script, timeout=timeout)
    return n


def _remember(key: str, png: bytes) -> None:
    state = _here()
    with state.lock:
        state.recent[key] = png
        state.recent.move_to_end(key)
        while len(state.recent) > _RECENT:
            state.recent.popitem(last=False)
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")  # atomic: readers never see half a file
        with os.fdopen(fd, "wb") as fh:
            fh.write(png)
        os.replace(tmp, folder / f"{key}.png")
    except OSError:
        pass  # a read-only or full disk only costs a render next time


class RenderError(RuntimeError):
    pass


class Renderer:
    """The parent's side of the warm renderer: scripts go down its stdin as JSON lines, drawings
    come back (base64) on its stdout, read by a thread that completes each script's future."""

    def __init__(self, workers: int | None = None) -> None:
        workers = workers or int(os.environ.get("RLHUB_RENDER_WORKERS", 0)) or len(os.sched_getaffinity(0))
        self._stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-m", "rlhub_cad.render", "--workers", str(workers)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                     start_new_session=True)  # its own process group: close() can end its workers too
        self._futures: dict[int, Future] = {}
        self._next = 0
        self._lock = threading.Lock()
        self._dead: str | None = None
        threading.Thread(target=self._read, name="rlhub-cad-renderer", daemon=True).start()

    def submit(self, script: str) -> Future:
        future: Future = Future()
        with self._lock:
            if self._dead:
                future.set_exception(RenderError(self._dead))
                return future
            job_id, self._next = self._next, self._next + 1
            self._futures[job_id] = future
            try:
                self.proc.stdin.write(json.dumps({"id": job_id, "script": script}).encode() + b"\n")
                self.proc.stdin.flush()
            except OSError:
                pass  # the renderer is gone: the reader thread fails every waiting future
        return future

    def _read(self) -> None:
        for line in self.proc.stdout:
            msg = json.loads(line)
            with self._lock:
                future = self._futures.pop(msg["id"])
            if "png" in msg:
                future.set_result(base64.b64decode(msg["png"]))
            else:
                future.set_exception(RenderError(f"rendering a CAD drawing failed:\n{msg['error']}"))
        code = self.proc.wait()
        self._stderr.seek(0)
        tail = self._stderr.read()[-3000:].decode(errors="replace")
        with self._lock:
            self._dead = f"the CAD renderer exited (code {code}):\n{tail}"
            waiting, self._futures = list(self._futures.values()), {}
        for future in waiting:
            future.set_exception(RenderError(self._dead))

    @property
    def alive(self) -> bool:
        return self._dead is None

    def close(self) -> None:
        """End the renderer: at once if drawings nobody waited for are still queued (a process
        that is done does not wait for work it no longer needs), else once it has finished."""
        with self._lock:
            unfinished = bool(self._futures)
        try:
            if not unfinished:
                self.proc.stdin.close()
                self.proc.wait(timeout=30)
                return
        except (OSError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()


class _State:
    """This process's renderer (started on first need, again after a crash), its drawings in
    flight and its recent drawings."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.recent: OrderedDict[str, bytes] = OrderedDict()
        self.pending: dict[str, Future] = {}
        self._renderer: Renderer | None = None
        self._pid = os.getpid()

    def renderer(self) -> Renderer:
        with self.lock:
            if self._renderer is None or not self._renderer.alive:
                self._renderer = Renderer()
            return self._renderer

    def close(self) -> None:
        if self._renderer is not None and self._pid == os.getpid():
            self._renderer.close()
            self._renderer = None


_state = _State()
atexit.register(lambda: _state.close())


def _here() -> "_State":
    """This process's state (a forked child starts its own: the parent's renderer is not its)."""
    global _state
    if _state._pid != os.getpid():
        _state = _State()
    return _state




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


# -- the renderer's side --------------------------------------------------------------------------


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


def _draw(script: str) -> str:
    """One drawing, in a render worker: the PNG, base64."""
    import math

    import cadquery as cq
    import resvg_py

    scope = {"cq": cq, "math": math}
    exec(compile(script, "<reference>", "exec"), scope)
    png = bytes(resvg_py.svg_to_bytes(svg_string=_drawing_svg(scope["result"].val()),
                                      background="#ffffff", skip_system_fonts=True))
    return base64.b64encode(png).decode()


def _serve(workers: int) -> None:
    """Read jobs from stdin, draw them on `workers` forked workers, answer on stdout."""
    import multiprocessing
    import traceback
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    import cadquery  # noqa: F401  (warm: imported once here, inherited by every forked worker)
    import resvg_py  # noqa: F401

    out = os.fdopen(os.dup(1), "w")  # the answers' own channel; a script's prints go to stderr
    os.dup2(2, 1)
    out_lock = threading.Lock()
    # No geometry exists in this process, ever: forking the workers from it is safe.
    make_pool = lambda: ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))  # noqa: E731
    pool = make_pool()

    def answer(job_id: int, done) -> None:
        try:
            msg = {"id": job_id, "png": done.result()}
        except Exception as exc:  # a failed script, or a worker that died (reported, then replaced)
            msg = {"id": job_id, "error": "".join(traceback.format_exception(exc))[-3000:]}
        with out_lock:
            out.write(json.dumps(msg) + "\n")
            out.flush()

    for line in sys.stdin:
        job = json.loads(line)
        try:
            future = pool.submit(_draw, job["script"])
        except BrokenProcessPool:
            pool = make_pool()
            future = pool.submit(_draw, job["script"])
        future.add_done_callback(lambda done, job_id=job["id"]: answer(job_id, done))
    pool.shutdown(wait=True)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="the warm CAD renderer (started by rlhub_cad.render)")
    parser.add_argument("--workers", type=int, default=1)
    _serve(parser.parse_args().workers)
