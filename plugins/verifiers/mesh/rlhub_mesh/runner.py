"""The trusted function a warm sandbox worker calls for every CAD build: run a script, measure its part.

    sb.call(profile, "rlhub_mesh.runner:build", args={"script": ..., ...})

Two processes, one boundary. This process (the sandboxed task, forked from a warm worker that
imported CadQuery and built nothing) vets the script, makes itself undumpable (no /proc/<pid>/mem
or fd access from a same-uid process), then forks the *model's process*, which runs the script
with restricted builtins and writes the part back as a binary B-rep through a pipe:
length-prefixed, size-capped, within a deadline. The model's process and everything it started
are then killed, and this process, which never ran a line of the model's code, reads the B-rep
and measures it: validity, mass properties, features (surfaces.py), a triangle mesh. Whatever the
script does to its own interpreter (frames, gc, sys.modules, monkeypatching) stays there.

Returns a JSON-able dict: {"ok": True, "mesh", "props", "features", "form", "timings"} or
{"ok": False, "stage": "policy" | "error" | "result" | "invalid" | "too_complex" | "timeout" |
"crash", "reason": "..."}. If this process dies while measuring (a crafted B-rep that crashes
OCC), its stderr carries MEASURING_MARK so the verifier can say so.
"""

from __future__ import annotations

import base64
import ctypes
import io
import json
import math
import os
import resource
import select
import signal
import struct
import time
import traceback

import cadquery
from OCP.BinTools import BinTools
from OCP.TopoDS import TopoDS_Shape

from . import brep, policy, surfaces

RUNNER_VERSION = 9  # bump when measurements change: it keys the reference cache
MEASURING_MARK = "rlhub-mesh: measuring the part\n"
_HEADER = struct.Struct("<II")  # length of the JSON note, length of the B-rep
_MAX_NOTE = 64 << 10
_SHAPE_TYPES = (cadquery.Solid, cadquery.Compound)
_MODULES = {"cadquery": cadquery, "math": math}
_PR_SET_DUMPABLE = 4


def _pack(fmt: str, values: list) -> str:
    return base64.b64encode(struct.pack(f"<{len(values)}{fmt}", *values)).decode("ascii")


def _fail(stage: str, reason: str, **extra) -> dict:
    return {"ok": False, "stage": stage, "reason": reason[:1000], **extra}


def _script_error(exc: BaseException) -> str:
    """The exception and the script line it came from, without the runner's own frames."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<model>"]
    where = f" (line {frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {str(exc)[:300]}{where}"


# -- the model's process ------------------------------------------------------------------------
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


def _send(fd: int, note: dict, data: bytes = b"") -> None:
    body = json.dumps(note).encode()[:_MAX_NOTE]
    view = memoryview(_HEADER.pack(len(body), len(data)) + body + data)
    while view:
        view = view[os.write(fd, view):]


def _model_process(code, out: int) -> None:
    """Runs in the forked child: the model's script, then its part as bytes. Never returns."""
    try:
        os.setpgid(0, 0)  # its own process group, killed as one
        null = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):  # prints go nowhere: only the pipe speaks for this process
            os.dup2(null, fd)
        os.closerange(3, out)
        os.closerange(out + 1, 1 << 20)
        namespace = {
            "__builtins__": policy.safe_builtins(_MODULES),
            "__name__": "__cadquery_script__",
            "show_object": lambda *a, **k: None,  # CQ-editor / cqgi scripts call it; harmless here
        }
        try:
            exec(code, namespace)
        except BaseException as exc:  # noqa: BLE001 - SystemExit, MemoryError, OCC failures: all the model's
            _send(out, {"stage": "error", "reason": _script_error(exc)})
            return
        if "result" not in namespace:
            _send(out, {"stage": "result", "reason": "the script leaves no variable named `result`"})
            return
        try:
            shape = _part_of(namespace["result"])
            buf = io.BytesIO()
            BinTools.Write_s(shape, buf)
        except brep.InvalidSolid as exc:
            _send(out, {"stage": "invalid", "reason": str(exc)})
            return
        except BaseException as exc:  # noqa: BLE001
            _send(out, {"stage": "invalid", "reason": f"the part could not be written out: {_script_error(exc)}"})
            return
        _send(out, {"stage": "part"}, buf.getvalue())
    except BaseException:  # noqa: BLE001 - nothing may escape into the trusted code below the fork
        pass
    finally:
        os._exit(0)


# -- this (trusted) process ---------------------------------------------------------------------
class _Received:
    def __init__(self) -> None:
        self.buf = bytearray()
        self.note: dict | None = None
        self.data: bytes | None = None
        self.too_large: int | None = None

    def feed(self, chunk: bytes, cap: int) -> bool:
        """Take bytes; True once the whole message (or an over-size header) is in."""
        self.buf += chunk
        if len(self.buf) < _HEADER.size:
            return False
        note_len, data_len = _HEADER.unpack_from(self.buf)
        if note_len > _MAX_NOTE or data_len > cap:
            self.too_large = data_len
            return True
        end = _HEADER.size + note_len + data_len
        if len(self.buf) < end:
            return False
        try:
            note = json.loads(bytes(self.buf[_HEADER.size:_HEADER.size + note_len]))
        except ValueError:
            note = None
        self.note = note if isinstance(note, dict) else {"stage": "crash", "reason": "garbled message"}
        self.data = bytes(self.buf[_HEADER.size + note_len:end])
        return True


def _receive(fd: int, pid: int, deadline: float, cap: int) -> tuple[_Received, bool]:
    """Read the model's message until it is whole, the process dies or the deadline passes."""
    got = _Received()
    pidfd = os.pidfd_open(pid)
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    poller.register(pidfd, select.POLLIN)
    timed_out, dead = False, False
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            events = poller.poll(remaining * 1000)
            readable = any(f == fd for f, _ in events)
            if readable:
                chunk = os.read(fd, 1 << 20)
                if not chunk or got.feed(chunk, cap):
                    break
            if any(f == pidfd for f, _ in events):
                if dead and not readable:
                    break  # exited, and its pipe has nothing more (descendants may hold it open)
                dead = True
    finally:
        os.close(pidfd)
    return got, timed_out


def _in_task_namespace() -> bool:
    """True in a sandboxed task: an unprivileged uid whose parent lives outside this pid
    namespace (getppid() is 0 there). Only then may kill(-1) be used: it reaches exactly the
    processes the model's script started, and nothing of the host's."""
    return os.geteuid() != 0 and os.getppid() == 0


def _kill_model_processes(pid: int, wait: bool) -> int | None:
    """SIGKILL the model's process, its process group and, in a sandboxed task, every process of
    this uid in the task's pid namespace (whatever it forked, even into a new session). With
    `wait`, reap the model's process and return its wait status; without, its exit (tearing down
    a CadQuery-sized address space takes ~10 ms) overlaps with the measuring: a process that has
    been sent SIGKILL runs no more of its own code."""
    targets = [pid, -pid] + ([-1] if _in_task_namespace() else [])  # kill(-1) spares this process and init
    for target in targets:
        try:
            os.kill(target, signal.SIGKILL)
        except OSError:
            pass
    return os.waitpid(pid, 0)[1] if wait else None


def _cpu_limit() -> str:
    """The sandbox's RLIMIT_CPU, which the script's process inherits, in words."""
    soft, _ = resource.getrlimit(resource.RLIMIT_CPU)
    return "no limit set" if soft == resource.RLIM_INFINITY else f"{soft} s"


def _run_model(code, timeout_s: float, cap: int, timings: dict) -> tuple[dict | None, bytes | None]:
    """Fork the model's process, take its message: (failure, None) or (None, B-rep bytes)."""
    r, w = os.pipe()
    t = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        _model_process(code, w)
    os.close(w)
    timings["fork_s"] = time.perf_counter() - t
    t = time.perf_counter()
    got, timed_out = _receive(r, pid, time.monotonic() + timeout_s, cap)
    os.close(r)
    complete = got.note is not None and got.note.get("stage") == "part"
    status = _kill_model_processes(pid, wait=not complete)
    timings["script_s"] = time.perf_counter() - t
    if got.too_large is not None:
        return _fail("too_complex", f"the part's B-rep is {got.too_large} bytes; the limit is {cap}"), None
    if got.note is not None:
        stage = got.note.get("stage")
        if stage == "part" and got.data:
            return None, got.data
        if stage in ("error", "result", "invalid"):
            return _fail(stage, str(got.note.get("reason", ""))), None
        return _fail("crash", "the script's process sent a garbled message"), None
    if timed_out:
        return _fail("timeout", f"the script ran past its {timeout_s:g} s limit"), None
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return _fail("timeout", f"the script used up its CPU time limit ({_cpu_limit()})"), None
        if sig == signal.SIGKILL:
            return _fail("memory", "the script's process was killed (out of memory)"), None
        return _fail("crash", f"the script's process died ({signal.Signals(sig).name})"), None
    return _fail("crash", f"the script's process exited (code {os.waitstatus_to_exitcode(status)}) without a part"), None


def _read_brep(data: bytes):
    shape = TopoDS_Shape()
    try:
        BinTools.Read_s(shape, io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - OCC raises Standard_Failure and friends
        raise brep.InvalidSolid(f"the part's B-rep could not be read: {type(exc).__name__}: {str(exc)[:200]}") from None
    if shape.IsNull():
        raise brep.InvalidSolid("the part's B-rep is empty")
    return shape


def build(script: str, linear_tolerance: float = 1e-3, angular_tolerance: float = 0.2,
          max_triangles: int = 200_000, script_timeout_s: float = 15.0, max_brep_bytes: int = 8 << 20,
          max_faces: int = 5000, teeth: bool = False) -> dict:
    """Run one script in a child process and measure its part here. `linear_tolerance` is the
    tessellation deflection relative to the part's size."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    try:
        code = compile(policy.check_script(script), "<model>", "exec")
    except (policy.PolicyViolation, SyntaxError, ValueError) as exc:
        return _fail("policy", f"{type(exc).__name__}: {exc}")
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    failure, data = _run_model(code, script_timeout_s, max_brep_bytes, timings)
    if failure is not None:
        return failure
    os.write(2, MEASURING_MARK.encode())
    t = time.perf_counter()
    try:
        shape = _read_brep(data)
        timings["transfer_s"] = time.perf_counter() - t
        t = time.perf_counter()
        props = brep.validate(shape, max_faces)
        found = surfaces.Extractor(brep.unified(shape), props["diag"]).extract(teeth=teeth)
        timings["measure_s"] = time.perf_counter() - t
        t = time.perf_counter()
        coords, indices = brep.triangulate(shape, linear_tolerance * props["diag"], angular_tolerance, max_triangles)
        timings["mesh_s"] = time.perf_counter() - t
    except brep.TooComplex as exc:
        return _fail("too_complex", str(exc))
    except brep.InvalidSolid as exc:
        return _fail("invalid", str(exc))
    except Exception as exc:  # noqa: BLE001 - OCC raises on broken shapes
        return _fail("invalid", f"measuring the part failed: {type(exc).__name__}: {str(exc)[:300]}")
    mesh = {"vertices": _pack("d", coords), "triangles": _pack("i", indices),
            "n_vertices": len(coords) // 3, "n_triangles": len(indices) // 3}
    timings["total_s"] = time.perf_counter() - start
    return {"ok": True, "mesh": mesh, "props": props, **found, "brep_bytes": len(data),
            "timings": {k: round(v, 4) for k, v in timings.items()}, "runner_version": RUNNER_VERSION}
