"""Runs several programs at once inside ONE sandboxed task, each with its own wall clock, its
output in a file of the work dir. Standard library only: `WorkDir.run_all` starts it as
`python -I -S -c <this source> <spec JSON>` in the sandbox and collects the files.

    spec: {"jobs": {name: argv}, "timeout_s": float, "dir": "relative/out/dir"}
    prints: {name: {"exit_code", "signal", "timed_out", "duration_s", "error"}}

Every job runs in its own process group and is killed, group and all, when the shared deadline
passes. The sandbox's own limits (memory, processes, file size, its wall clock) still bound the
whole task; this driver only lets the jobs overlap and keeps their reports apart.
"""

import json
import os
import signal
import subprocess
import sys
import time


def main():
    spec = json.loads(sys.argv[1])
    out_dir = spec["dir"]
    os.makedirs(out_dir, exist_ok=True)
    deadline = time.monotonic() + float(spec["timeout_s"])
    running, status = {}, {}
    for name, argv in spec["jobs"].items():
        with open(os.path.join(out_dir, name + ".out"), "wb") as out, open(os.path.join(out_dir, name + ".err"), "wb") as err:
            try:
                proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
            except OSError as exc:
                status[name] = {"exit_code": None, "signal": None, "timed_out": False, "duration_s": 0.0,
                                "error": f"{type(exc).__name__}: {exc}"}
                continue
        running[name] = (proc, time.monotonic())
    for name, (proc, started) in running.items():
        timed_out = False
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
            proc.wait()
        code = proc.returncode
        status[name] = {"exit_code": code if code >= 0 else None, "signal": -code if code < 0 else None,
                        "timed_out": timed_out, "duration_s": round(time.monotonic() - started, 4), "error": None}
    sys.stdout.write(json.dumps(status))


if __name__ == "__main__":
    main()
