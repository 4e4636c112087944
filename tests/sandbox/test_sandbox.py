"""The sandbox's contract with real bwrap: results, isolation facts, warm pool, sessions, clean-up."""

from __future__ import annotations

import json
import os
import threading
import time

import pytest

from hub.sandbox import Profile, RunResult, Sandbox, SandboxUnavailable, get_sandbox
from hub.sandbox.bwrap import bwrap_path
from hub.sandbox.pool import _key
from hub.testing.hostile import PROBE, STATE_LEFT_BEHIND
from hub.sandbox.uids import UID_BASE, UID_COUNT

from .conftest import TIGHT, sandbox_uid_processes

WARM = TIGHT.merged(name="tight-warm", preload=("hub.testing.probes",))
STATUS = "print(open('/proc/self/status').read())"


def _status_fields(text: str) -> dict[str, str]:
    return dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)


def test_run_returns_a_typed_result(sandbox):
    code = "import sys\nprint('out', sys.stdin.read())\nprint('err', file=sys.stderr)\nopen('a.txt', 'w').write('A')\nsys.exit(3)"
    r = sandbox.run(TIGHT, ["python3", "main.py"], files={"main.py": code}, stdin="in")
    assert isinstance(r, RunResult)
    assert (r.exit_code, r.signal, r.timed_out, r.oom, r.infra_error) == (3, None, False, False, None)
    assert r.stdout == "out in\n" and r.stderr == "err\n"
    assert r.files == {"a.txt": b"A"}  # collect: **/*.txt; main.py is not collected
    assert 0 < r.duration_s < TIGHT.wall_timeout_s
    assert r.memory_limit in ("cgroup", "rlimit")
    # the sandbox's own steps, as its supervisor timed them: the task's step spans its whole run
    assert set(r.timings) == {"ns_ready", "task_done", "teardown"} and all(s > 0 for s in r.timings.values())
    assert r.duration_s <= r.timings["task_done"] < TIGHT.wall_timeout_s


def test_task_has_no_privileges(sandbox):
    r = sandbox.run(TIGHT, ["python3", "-c", STATUS])
    f = _status_fields(r.stdout)
    uid = int(f["Uid"].split()[0])
    assert UID_BASE <= uid < UID_BASE + UID_COUNT and set(f["Uid"].split()) == {str(uid)}
    assert f["Groups"].strip() == ""
    for cap in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert int(f[cap], 16) == 0, cap
    assert f["NoNewPrivs"] == "1" and f["Seccomp"] == "2"


def test_messages_are_untranslated_without_looking_for_catalogs(sandbox):
    """gettext (argparse calls it per option) reads no message catalog from disk in the sandbox."""
    code = """
import gettext, os.path
looked = []
real = os.path.exists
os.path.exists = lambda p: looked.append(p) or real(p)
print(gettext.gettext("usage: "), len(looked))
"""
    r = sandbox.run(TIGHT, ["python3", "-c", code])
    assert r.stdout.split() == ["usage:", "0"], r.stdout + r.stderr


def test_filesystems_are_read_only_or_sized(sandbox):
    code = """
import os
for d in ("/", "/usr", "/tmp", "/dev/shm", "."):
    st = os.statvfs(d)
    print(d, bool(st.f_flag & os.ST_RDONLY), st.f_blocks * st.f_frsize)
print(sorted(os.listdir("/")))
"""
    r = sandbox.run(TIGHT, ["python3", "-c", code])
    lines = {l.split()[0]: l.split()[1:] for l in r.stdout.splitlines()[:5]}
    assert lines["/"][0] == "True" and lines["/usr"][0] == "True"
    for d in ("/tmp", "/dev/shm", "."):
        assert lines[d][0] == "False" and int(lines[d][1]) == TIGHT.tmpfs_mb << 20, d
    assert "root" in r.stdout and "home" not in r.stdout  # only what we mount exists
    r = sandbox.run(TIGHT, ["cat", "/data/data.txt"])
    assert r.stdout == "read-only data"  # the profile's mount


def test_task_can_use_the_system_configuration_it_is_given(sandbox):
    # the unprivileged task uid must reach /etc's bound entries: awk lives behind /etc/alternatives
    r = sandbox.run(TIGHT, ["bash", "-c", "echo 'a b' | awk '{print $2}'; head -c 5 /etc/passwd; ls /etc | wc -l"])
    lines = r.stdout.splitlines()
    assert r.exit_code == 0 and lines[0] == "b" and lines[1].startswith("root:"), r.stderr
    assert "shadow" not in sandbox.run(TIGHT, ["ls", "/etc"]).stdout  # and only those entries


def test_no_network_and_own_hostname(sandbox):
    code = "import socket, os\nprint(socket.gethostname())\nprint(socket.if_nameindex())"
    r = sandbox.run(TIGHT, ["python3", "-c", code])
    assert r.exit_code == 0
    assert r.stdout.splitlines()[0] != socket_hostname()
    assert "'lo'" in r.stdout and "eth" not in r.stdout


def socket_hostname() -> str:
    import socket

    return socket.gethostname()


def test_timeout_signal_and_missing_program(sandbox):
    r = sandbox.run(TIGHT.merged(wall_timeout_s=0.5), ["sleep", "30"])
    assert r.timed_out and r.signal == 9 and r.exit_code is None and r.duration_s < 1.5
    r = sandbox.run(TIGHT, ["sh", "-c", "kill -SEGV $$"])
    assert r.signal == 11 and r.exit_code is None
    r = sandbox.run(TIGHT, ["no-such-program"])
    assert r.exit_code == 127 and "no-such-program" in r.stderr and r.infra_error is None


def test_output_is_capped_and_flagged(sandbox):
    r = sandbox.run(TIGHT, ["python3", "-c", "import sys\nprint('o' * 100000)\nprint('e' * 100000, file=sys.stderr)"])
    assert r.stdout_truncated and r.stderr_truncated
    assert len(r.stdout) == len(r.stderr) == TIGHT.output_bytes


def test_bad_file_names_are_refused(sandbox):
    for name in ("../x", "/etc/x", "a/../../x"):
        with pytest.raises(ValueError):
            sandbox.run(TIGHT, ["true"], files={name: "x"})


def test_call_returns_value_and_reports_errors(sandbox):
    r = sandbox.call(WARM, "hub.testing.probes:echo", files={"in.txt": "x"}, args={"n": 1})
    assert r.exit_code == 0 and r.value["args"] == {"n": 1} and r.value["files"] == ["in.txt"]
    assert r.value["cwd"] == "/sandbox" and UID_BASE <= r.value["uid"] < UID_BASE + UID_COUNT
    r = sandbox.call(WARM, "hub.testing.probes:run_program", files={"main.py": "raise KeyError('boom')"},
                     args={"path": "main.py"})
    assert r.exit_code == 1 and "KeyError: 'boom'" in r.stderr and r.value is None
    r = sandbox.call(WARM, "hub.testing.probes:run_program", files={"main.py": "import sys; print('hi'); sys.exit(4)"},
                     args={"path": "main.py"})
    assert r.exit_code == 4 and r.stdout == "hi\n"
    with pytest.raises(ValueError):
        sandbox.call(WARM, "no colon here")


def test_nothing_carries_over_between_warm_tasks(sandbox):
    first = sandbox.call(WARM, "hub.testing.probes:run_program", files={"main.py": STATE_LEFT_BEHIND},
                         args={"path": "main.py"})
    assert "left state behind" in first.stdout, first.stderr
    check = PROBE + "\nimport json, random\nprint(json.dumps([1]), random.random())\n"
    seen = set()
    for _ in range(2):
        r = sandbox.call(WARM, "hub.testing.probes:run_program", files={"probe.py": check}, args={"path": "probe.py"})
        lines = r.stdout.splitlines()
        assert lines[0] == "CLEAN", r.stdout + r.stderr
        assert lines[1].startswith("[1] "), "a module patched by an earlier task is still patched"
        seen.add(lines[1])
    assert len(seen) == 2, "random state is replayed from task to task"


def test_warm_worker_recycled_after_k_tasks_and_after_death(sandbox):
    profile = WARM.merged(name="recycle", recycle_after=2, preload=("hub.testing.probes", "json"))  # own workers
    idle = sandbox.pool._idle[_key(profile, "hub.testing.probes:echo")]
    workers = []
    for _ in range(3):
        sandbox.call(profile, "hub.testing.probes:echo")
        for _ in range(200):  # a retired worker is replaced in the background
            if idle:
                break
            time.sleep(0.05)
        workers.append(idle[-1])
    # the first worker retired after its 2nd task; its replacement serves the 3rd
    assert workers[1] is not workers[0] and workers[2] is workers[1] and not workers[0].alive
    workers[2].kill()  # a worker that died while idle is replaced, not used
    r = sandbox.call(profile, "hub.testing.probes:echo")
    assert r.exit_code == 0 and r.infra_error is None


def test_session_keeps_its_work_dir_between_runs(sandbox):
    with sandbox.session(TIGHT) as s:
        s.write_files({"a.py": "open('out.txt', 'a').write('x')\nimport os\nos.symlink('/etc/passwd', 'link.txt')"})
        assert s.run(["python3", "a.py"]).exit_code == 0
        r = s.run(["sh", "-c", "cat out.txt; ls /tmp"])
        assert r.stdout == "x"
        files = s.read_files(["out.txt", "a.py", "link.txt", "missing"])
        assert set(files) == {"out.txt", "a.py"}  # symlinks are never followed
        with pytest.raises(ValueError):
            s.read_files(["../etc/passwd"])
    assert sandbox_uid_processes() == []


# What a model can leave where the session's helper reads or writes a file (device nodes cannot
# be made: the task has no CAP_MKNOD, which the probe asserts too).
ODD_OBJECTS = ("mkfifo fifo; mkdir dir; ln -s /etc/passwd link; ln -s fifo link_to_fifo; "
               "python3 -c \"import socket; socket.socket(socket.AF_UNIX).bind('sock')\"; "
               "mknod dev c 1 3 2>/dev/null && echo MKNOD_WORKED; echo x > reg")


def test_session_helpers_refuse_fifos_sockets_dirs_and_links_without_blocking(sandbox):
    with sandbox.session(TIGHT) as s:
        r = s.run(["bash", "-c", ODD_OBJECTS])
        assert r.exit_code == 0 and "MKNOD_WORKED" not in r.stdout, r.stderr
        start = time.monotonic()
        for name, kind in (("fifo", "a FIFO"), ("sock", "a socket"), ("dir", "a directory"), ("link", "a symbolic link"),
                           ("link_to_fifo", "a symbolic link")):
            with pytest.raises(ValueError, match=f"{name} is {kind}"):
                s.write_files({name: "data"})
        with pytest.raises(ValueError, match="not a directory"):
            s.write_files({"reg/below": "data"})
        files = s.read_files(["fifo", "sock", "dir", "link", "link_to_fifo", "dev", "reg", "missing"])
        assert files == {"reg": b"x\n"}  # only the regular file; nothing else is opened for reading
        assert time.monotonic() - start < 5  # nothing blocked (a FIFO used to hold the helper for 60 s)
        s.write_files({"reg": "new"})  # a regular file is still overwritten in place
        assert s.read_files(["reg"]) == {"reg": b"new"}
        assert s.run(["bash", "-c", "test -p fifo && test -S sock && test -d dir && test -L link"]).exit_code == 0


def test_session_helpers_never_go_through_a_symlinked_parent(sandbox):
    """A parent that is a link (out to /tmp, up to `..`, to a directory beside it) is refused on
    write with one message, and a read through it finds nothing: the helper never follows one."""
    with sandbox.session(TIGHT) as s:
        assert s.run(["bash", "-c", "ln -s /tmp out; ln -s .. up; mkdir real; ln -s real beside; "
                                    "mkdir -p a/b; ln -s /etc a/b/c"]).exit_code == 0
        for path, link in (("out/x.txt", "out"), ("up/y.txt", "up"), ("beside/z.txt", "beside"), ("a/b/c/d/e.txt", "a/b/c")):
            with pytest.raises(ValueError, match=f"^{path}: {link} is a symbolic link, not a directory: remove it first$"):
                s.write_files({path: "data"})
        assert s.read_files(["out/x.txt", "a/b/c/passwd", "beside/z.txt"]) == {}
        r = s.run(["bash", "-c", "ls -A real; find . -name '*.txt'"])
        assert r.stdout == "", r.stdout  # nothing landed beside the link
        s.write_files({"new/deep/file.txt": "ok"})  # missing parents are still made
        assert s.read_files(["new/deep/file.txt"]) == {"new/deep/file.txt": b"ok"}


def test_session_reads_the_whole_tree_and_names_what_it_leaves_out(sandbox):
    with sandbox.session(TIGHT) as s:
        r = s.run(["bash", "-c", "mkdir -p pkg/sub __pycache__ locked; echo a > pkg/a.py; echo b > pkg/sub/b.py; "
                                 "echo c > __pycache__/c.pyc; printf x > \"$(printf 'pkg/\\xff.py')\"; "
                                 "touch \"$(printf 'new\\nline.txt')\"; ln -s /etc/passwd link; mkfifo fifo; "
                                 "echo s > secret.txt; chmod 000 secret.txt; echo l > locked/l.py; chmod 000 locked; "
                                 "head -c 2000 /dev/zero > big.bin"])
        assert r.exit_code == 0, r.stderr
        got = s.read_tree(skip=("__pycache__",), max_entries=100, max_bytes=1 << 20, max_file_bytes=1000)
        assert got["over"] is None
        assert got["files"] == {"pkg/a.py": b"a\n", "pkg/sub/b.py": b"b\n", "new\nline.txt": b""}
        assert sorted(got["left_out"]) == sorted([
            ("big.bin", "1000 bytes or more"), ("fifo", "a FIFO"), ("link", "a symbolic link"),
            ("locked/", "a directory that cannot be read (Permission denied)"),
            ("pkg/\\xff.py", "a name that is not UTF-8"),
            ("secret.txt", "a file that cannot be read (Permission denied)")])
        many = s.run(["bash", "-c", "mkdir many; cd many; for i in $(seq 1 120); do : > f$i; done"])
        assert many.exit_code == 0
        over = s.read_tree(skip=("__pycache__",), max_entries=100, max_bytes=1 << 20, max_file_bytes=1000)
        assert over["files"] == {} and over["over"].startswith("the work tree holds more than 100 files and directories")
        assert s.read_tree(max_entries=1000, max_bytes=4, max_file_bytes=1000)["over"].startswith(
            "the work tree's files hold more than 4 bytes")


def test_concurrent_runs_use_distinct_uids(sandbox):
    results: list[RunResult] = []

    def go():
        results.append(sandbox.run(TIGHT, ["python3", "-c", "import os; print(os.getuid())"]))

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.exit_code == 0 for r in results)
    assert len({r.stdout for r in results}) == 4


def test_cold_run_leaves_nothing_behind(sandbox, monkeypatch):
    from hub.sandbox.cgroup import MemoryCgroup, _own_parent

    made = []  # this run's cgroups (other processes' sandboxes share the parent: not theirs)
    create = MemoryCgroup.create.__func__

    def recorded(cls):
        made.append(create(cls))
        return made[-1]

    monkeypatch.setattr(MemoryCgroup, "create", classmethod(recorded))
    sandbox.run(TIGHT, ["sh", "-c", "(sleep 100 &) ; setsid sleep 100 & echo started"])
    assert sandbox_uid_processes() == []
    if _own_parent():
        assert made and all(group is not None for group in made)
        assert [g.path for g in made if os.path.exists(g.path)] == [], "a cgroup was left behind"


def test_rlimit_fallback_is_reported(monkeypatch):
    monkeypatch.setenv("RLHUB_SANDBOX_CGROUP", "0")
    sb = Sandbox(pool_size=1)
    try:
        r = sb.run(TIGHT, ["python3", "-c", "x = bytearray(512 << 20)"])
        assert r.memory_limit == "rlimit" and r.exit_code != 0 and r.oom and "MemoryError" in r.stderr
    finally:
        sb.shutdown()


def test_refuses_without_bwrap(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    bwrap_path.cache_clear()
    try:
        with pytest.raises(SandboxUnavailable, match="bubblewrap"):
            Sandbox().run(TIGHT, ["true"])
    finally:
        monkeypatch.undo()
        bwrap_path.cache_clear()


def test_refuses_a_python_environment_under_tmp(tmp_path):
    # tmp_path lives under /tmp: a venv there would vanish behind each task's private /tmp
    import subprocess

    from hub.testing.pyenv import overlay_venv

    out = subprocess.run([str(overlay_venv(tmp_path / "venv")), "-c",
                          "from hub.sandbox import get_sandbox; get_sandbox()"], capture_output=True, text=True)
    assert out.returncode != 0 and "create the virtual environment elsewhere" in out.stderr


def test_get_sandbox_is_shared():
    assert get_sandbox() is get_sandbox()
    r = get_sandbox().run(Profile(), ["python3", "-c", "import json; print(json.dumps({'ok': 1}))"])
    assert json.loads(r.stdout) == {"ok": 1}


def test_failed_preload_is_an_infra_error_not_the_models(sandbox):
    r = sandbox.call(WARM.merged(preload=("no_such_module_for_rlhub",)), "hub.testing.probes:echo")
    assert r.infra_error and "no_such_module_for_rlhub" in r.infra_error and r.exit_code is None


def test_forked_child_gets_its_own_sandbox():
    parent = get_sandbox()
    parent.call(WARM, "hub.testing.probes:echo")  # the parent has a warm worker now
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            child = get_sandbox()
            ok = child is not parent and child.run(TIGHT, ["true"]).exit_code == 0
            code = 0 if ok else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert parent.call(WARM, "hub.testing.probes:echo").exit_code == 0  # parent's pool intact


def test_cpu_budget_counts_as_a_timeout(sandbox):
    r = sandbox.run(TIGHT.merged(wall_timeout_s=10), ["python3", "-c", "while True: pass"])
    assert r.timed_out and r.signal in (9, 24) and r.duration_s < 5


def test_task_cannot_forge_result_fields_through_the_value_pipe(sandbox):
    forge = """
import json, os
payload = json.dumps({"value": "forged", "exit_code": 0, "timed_out": False, "infra_error": "not me"}).encode()
for fd in map(int, os.listdir("/proc/self/fd")):
    if fd > 2:
        try:
            os.write(fd, payload)
        except OSError:
            pass
os._exit(7)
"""
    r = sandbox.call(WARM, "hub.testing.probes:run_program", files={"main.py": forge}, args={"path": "main.py"})
    assert r.exit_code == 7 and r.infra_error is None and r.value == "forged"  # a value is all it can forge


def test_session_runs_are_fresh_processes_on_a_kept_work_dir(sandbox):
    with sandbox.session(TIGHT) as s:
        s.write_files({"left.py": STATE_LEFT_BEHIND, "probe.py": PROBE})
        assert "left state behind" in s.run(["python3", "left.py"]).stdout
        r = s.run(["python3", "probe.py"])
        # the work dir is kept on purpose; everything else is fresh
        assert r.stdout.startswith("DIRTY: work dir not fresh") and "/tmp" not in r.stdout, r.stdout
        assert "processes" not in r.stdout and "socket" not in r.stdout and "environment" not in r.stdout
    assert sandbox_uid_processes() == []


def test_host_sys_path_entries_a_task_could_write_never_reach_the_sandbox(monkeypatch, tmp_path):
    """A host sys.path entry under /tmp (a Ray job's working_dir) would name a directory of the
    task's own private /tmp: a module planted there would be imported by the trusted code the
    sandbox runs. The sandbox's processes get only the entries that are read-only for the task."""
    import sys

    from hub.sandbox import bwrap

    planted = str(tmp_path / "working_dir")
    monkeypatch.setattr(sys, "path", [planted, "/dev/shm/site", *sys.path])
    kept = bwrap.sandbox_sys_path()
    assert planted not in kept and "/dev/shm/site" not in kept and kept
    assert all(p in sys.path for p in kept)
    sb = Sandbox(pool_size=1)  # a fresh worker: started with this sys.path
    try:
        r = sb.call(WARM, "hub.testing.probes:run_program", args={"path": "main.py"}, files={"main.py": (
            "import json, os, sys\nfrom pathlib import Path\n"
            "writable = [p for p in sys.path if p and os.access(p if os.path.exists(p) else os.path.dirname(p), os.W_OK)]\n"
            f"Path({planted!r}).mkdir(parents=True)\nPath({planted!r}, 'evil.py').write_text('x = 1')\n"
            "print(json.dumps({'path': sys.path, 'writable': writable}))\n")})
    finally:
        sb.shutdown()
    seen = json.loads(r.stdout)
    assert planted not in seen["path"] and "/dev/shm/site" not in seen["path"], seen
    assert seen["writable"] == [], seen
