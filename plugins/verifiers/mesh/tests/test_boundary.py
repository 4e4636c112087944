"""The process boundary: the model's code runs in a child of the measuring process and can
reach the measurement only through the B-rep it hands over. These scripts run with the policy
and the restricted builtins switched off (boundary_probe.py): full Python, in the real sandbox."""

import time

import pytest
from mesh_harness import cq_task, ensure_warm

pytestmark = pytest.mark.usefixtures("ctx")

PROBE = "boundary_probe:build_unvetted"
BOX = "import cadquery as cq\nresult = cq.Workplane().box(2, 3, 4)\n"


def probe(ctx, script, **settings):
    r = ctx.sandbox.call(ctx.profile, PROBE, args={"script": script, "script_timeout_s": 3, **settings})
    assert r.infra_error is None, r.infra_error
    return r


def test_unvetted_box_is_measured(ctx):
    value = probe(ctx, BOX).value
    assert value["ok"] and value["props"]["volume"] == pytest.approx(24.0)


def test_patching_the_measuring_code_changes_nothing(ctx):
    """The model's process replaces the runner's validation, feature extraction and B-rep reader
    in its own interpreter: the measuring process never had its code run, so the box is measured."""
    script = ("import rlhub_mesh.brep as b, rlhub_mesh.surfaces as s, rlhub_mesh.runner as r, gc, sys\n"
              "fake = {'volume': 1e9, 'area': 1.0, 'bbox': [[0, 0, 0], [1, 1, 1]], 'diag': 1.7, 'center': [0, 0, 0]}\n"
              "b.validate = lambda *a, **k: fake\n"
              "s.Extractor = None\n"
              "r._read_brep = lambda data: None\n"
              "sys.modules['rlhub_mesh.surfaces'] = None\n"
              "for obj in gc.get_objects():\n"
              "    if isinstance(obj, dict) and 'validate' in obj and obj is not b.__dict__:\n"
              "        obj['validate'] = b.validate\n" + BOX)
    value = probe(ctx, script).value
    assert value["ok"], value
    assert value["props"]["volume"] == pytest.approx(24.0)
    assert {f["kind"] for f in value["form"]} == {"plane"} and value["features"] == []


def test_forged_values_on_every_descriptor_are_ignored(ctx):
    """The supervisor's value pipe is closed in the model's process; stdout is /dev/null. The one
    descriptor left is its own message pipe, so forging there only garbles its own message."""
    forged = b'{"value": {"ok": true, "props": {"volume": 1e9}}}'
    script = ("import os\nopen_fds = []\nfor fd in range(0, 256):\n    try:\n        os.write(fd, " + repr(forged) + ")\n"
              "        open_fds.append(fd)\n    except OSError:\n        pass\nprint('{\"ok\": true}')\n" + BOX)
    value = probe(ctx, script).value
    assert value["ok"] is False and value["stage"] in ("too_complex", "crash"), value
    clean = ("import os, stat\nfor fd in range(3, 256):\n    try:\n        if not stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
             "            os.write(fd, " + repr(forged) + ")\n    except OSError:\n        pass\n" + BOX)
    value = probe(ctx, clean).value
    assert value["ok"] and value["props"]["volume"] == pytest.approx(24.0)


def test_a_crafted_brep_is_the_models_failure(ctx):
    """Garbage where the B-rep should be (written straight into the pipe): a named verdict."""
    script = ("import os, stat, struct, json\n"
              "note = json.dumps({'stage': 'part'}).encode()\n"
              "data = bytes(range(256)) * 64\n"
              "for fd in range(3, 64):\n"
              "    try:\n"
              "        if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
              "            os.write(fd, struct.pack('<II', len(note), len(data)) + note + data)\n"
              "    except OSError:\n"
              "        pass\n"
              "os._exit(0)\n")
    r = probe(ctx, script)
    value = r.value
    if value is None:  # OCC's reader crashed: the verifier names that too (see test below)
        assert "measuring the part" in r.stderr
    else:
        assert value["ok"] is False and value["stage"] == "invalid", value
    assert probe(ctx, BOX).value["ok"]  # and the next build is unaffected


def test_an_oversized_brep_is_refused_unread(ctx):
    script = ("import os, stat, struct\n"
              "for fd in range(3, 64):\n"
              "    try:\n"
              "        if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
              "            os.write(fd, struct.pack('<II', 2, 1 << 30) + b'{}')\n"
              "    except OSError:\n"
              "        pass\n"
              "os._exit(0)\n")
    value = probe(ctx, script).value
    assert value["ok"] is False and value["stage"] == "too_complex" and "1073741824 bytes" in value["reason"]


def test_killing_the_measuring_process_forges_nothing(verifier, ctx):
    r = probe(ctx, "import os\nos.kill(os.getppid(), 9)\n" + BOX)
    assert r.value is None  # no verdict came out of it, let alone a forged one
    ensure_warm(ctx.sandbox)
    task = cq_task(BOX)
    assert verifier.verify(task, task.reference, ctx).reward == 1.0


def test_processes_the_script_leaves_behind_are_killed(ctx):
    """A grandchild in its own session, holding the pipe open and sleeping: the measurement
    does not wait for it, and it is gone with the task (kill(-1) in the task's pid namespace)."""
    script = ("import os, time\n"
              "if os.fork() == 0:\n"
              "    os.setsid()\n"
              "    time.sleep(60)\n"
              "    os._exit(0)\n" + BOX)
    start = time.monotonic()
    value = probe(ctx, script).value
    assert value["ok"] and time.monotonic() - start < 10


@pytest.mark.parametrize("script, stage", [
    ("import time\ntime.sleep(30)\n", "timeout"),
    ("import os\nos._exit(3)\n", "crash"),
    ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", "crash"),
])
def test_the_models_process_ending_badly_is_named(ctx, script, stage):
    start = time.monotonic()
    value = probe(ctx, script).value
    assert value["ok"] is False and value["stage"] == stage, value
    assert time.monotonic() - start < 8


def test_a_part_too_costly_to_measure_is_a_timeout_not_an_invalid_solid(sandbox, profile, fresh_worker):
    """A valid plate with 600 small holes builds within the script's limit, but measuring it
    outlasts the task's wall clock (the red team's 1200-hole plate: signal 9 after 20 s, graded
    as a B-rep that crashed the measurement, 0.02): it is the script's part that took the time,
    so it earns what a script past its limit earns, 0, and the reason says measuring."""
    from hub import VerifyContext
    from rlhub_mesh.verifier import MeshIoU

    plate = ("import cadquery as cq\n"
             "pts = [(-60 + 120 * i / 29, -22 + 44 * j / 19) for i in range(30) for j in range(20)]\n"
             "result = cq.Workplane('XY').box(135, 55, 6).faces('>Z').workplane().pushPoints(pts).hole(0.8)\n")
    # the script's own limit is 7.5 s: it builds in ~1.7 s on a quiet machine (4x headroom for a loaded CI
    # runner, where a 3.5 s limit was too tight), and building plus measuring it takes ~13.6 s
    ctx = VerifyContext(profile=profile.merged(wall_timeout_s=8, cpu_s=8), _sandbox=sandbox)
    verifier = MeshIoU(MeshIoU.Config(measure_reserve_s=0.5))
    v = verifier.verify(cq_task("import cadquery as cq\nresult = cq.Workplane('XY').box(135, 55, 6)\n"),
                        f"```python\n{plate}```", ctx)
    assert v.reward == 0.0 and v.details["stage"] == "timeout", v.details
    assert v.details["reason"].startswith("measuring the part ran past"), v.details
