"""A second interpreter for the checks that compare against another process.

It starts fresh, with another hash seed and every rlhub cache off (RLHUB_CACHE=off), and
answers requests for the rest of the run: the task digests (`"digests"`) or the reference's
verdicts (`"references"`) of a batch of labels (the pytest plugin asks once per environment and
check). Whatever the checking process leaves behind (a warm cache, a hash seed, an import order)
cannot make the two agree by accident. Each process that runs checks (an xdist worker, a Ray
actor) keeps its own, for the environments it checks.

    python -m hub.checks.other_process REGISTRY   # JSON lines: {"what", "labels"} in, results out
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile


class OtherProcessError(RuntimeError):
    pass


class OtherProcess:
    """The checking process's side: starts the interpreter on first need (again after a crash)."""

    def __init__(self, registry: str, seconds_per_label: float = 600) -> None:
        self.registry = registry
        self.seconds_per_label = seconds_per_label
        self.proc: subprocess.Popen | None = None

    def ask(self, what: str, labels: list[str]) -> dict:
        """{label: result} for `what` ("digests" or "references"); a label whose task could not
        be made there maps to {"error": ...}."""
        if not labels:
            return {}
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps({"what": what, "labels": labels}).encode() + b"\n")
            self.proc.stdin.flush()
            line = self._readline(timeout=60 + self.seconds_per_label * len(labels))
        except (OSError, TimeoutError) as exc:
            raise self._failed(f"{type(exc).__name__}: {exc}") from None
        if not line:
            raise self._failed("it exited")
        return json.loads(line)

    def _start(self) -> None:
        env = {**os.environ, "PYTHONHASHSEED": "12345", "RLHUB_CACHE": "off"}
        self._stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-m", "hub.checks.other_process", self.registry],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, env=env)
        self._buffer = b""

    def _readline(self, timeout: float) -> bytes:
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                raise TimeoutError(f"no answer in {timeout:.0f} s")
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b""
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def _failed(self, why: str) -> OtherProcessError:
        self.close()
        self._stderr.seek(0)
        tail = self._stderr.read()[-2000:].decode(errors="replace")
        return OtherProcessError(f"the second interpreter failed ({why}):\n{tail}")

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.proc = None


class EnvAnswers:
    """What an environment's other-process checks need, asked of this process's second
    interpreter once per (what, environment), for the labels its planned checks use."""

    def __init__(self, registry: str, seeds: int) -> None:
        self.registry, self.seeds = registry, seeds
        self._other: OtherProcess | None = None
        self._answers: dict[tuple[str, str], dict] = {}

    def get(self, renv, what: str) -> dict:
        from .library import OTHER_PROCESS, CheckFailed, planned

        key = (what, renv.id)
        if key not in self._answers:
            labels = sorted({renv.label(i).to_json() for check, i in planned(renv, self.seeds)
                             if OTHER_PROCESS.get(check) == what})
            self._other = self._other or OtherProcess(self.registry)
            try:
                self._answers[key] = self._other.ask(what, labels)
            except OtherProcessError as exc:
                raise CheckFailed(f"the {what} of {renv.id}'s tasks could not be computed in another process: {exc}") from None
        return self._answers[key]

    def close(self) -> None:
        if self._other is not None:
            self._other.close()


def _answer(cat, what: str, labels: list[str]) -> dict:
    from .library import task_digest

    cat.prepare(labels)
    out: dict = {}
    for label in labels:
        try:
            if what == "digests":
                out[label] = {"digest": task_digest(cat.task(label))}
            else:
                v = cat.verify(label, cat.reference(label))
                out[label] = {"reward": v.reward, "passed": v.passed, "error": v.error, "details": str(v.details)[:500]}
        except Exception as exc:  # the environment's bug, reported by the check that asked
            out[label] = {"error": f"{type(exc).__name__}: {exc}"}
    return out


def _serve(registry: str) -> None:
    from ..config.catalog import Catalog

    out = os.fdopen(os.dup(1), "w")  # answers on their own channel: anything printed goes to stderr
    os.dup2(2, 1)
    cat = Catalog.load(registry)
    for line in sys.stdin:
        request = json.loads(line)
        out.write(json.dumps(_answer(cat, request["what"], request["labels"])) + "\n")
        out.flush()


if __name__ == "__main__":
    _serve(sys.argv[1])
