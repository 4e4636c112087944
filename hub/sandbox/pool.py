"""Warm workers: sandboxes that have already imported a profile's `preload` and fork per task.

Workers are keyed by what they must have imported and mounted, so one profile's limits can
change per call without restarting anything (each task sets its own). A worker is replaced
after `recycle_after` tasks or as soon as it misbehaves (infra error, died).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any

from .process import SandboxProcess
from .profile import Profile
from .result import RunResult, SandboxUnavailable


def _key(profile: Profile, func: str | None) -> tuple:
    module = func.partition(":")[0] if func else ""
    return (profile.preload, profile.mounts, module)


class WarmPool:
    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._cond = threading.Condition()
        self._idle: dict[tuple, list[SandboxProcess]] = defaultdict(list)
        self._count: dict[tuple, int] = defaultdict(int)
        self._closed = False

    def _spawn(self, profile: Profile, func: str | None) -> SandboxProcess:
        module = (func.partition(":")[0],) if func else ()
        return SandboxProcess(profile, preload=profile.preload, extra_modules=module)

    def _acquire(self, key: tuple, profile: Profile, func: str | None) -> SandboxProcess:
        with self._cond:
            while True:
                if self._closed:
                    raise SandboxUnavailable("the sandbox has been shut down")
                while self._idle[key]:
                    worker = self._idle[key].pop()
                    if worker.alive:
                        return worker
                    self._count[key] -= 1  # died while idle: replace it
                    worker.close()
                if self._count[key] < self.size:
                    self._count[key] += 1
                    break
                self._cond.wait()
        try:
            return self._spawn(profile, func)
        except BaseException:
            with self._cond:
                self._count[key] -= 1
                self._cond.notify()
            raise

    def _release(self, key: tuple, worker: SandboxProcess, retire: bool, profile: Profile | None = None,
                 func: str | None = None) -> None:
        if retire or self._closed or not worker.alive:
            worker.close()
            if profile is not None and not self._closed:
                # Replace it in the background: a CadQuery preload takes seconds, and the next
                # task should not wait for it in line. The slot stays counted meanwhile.
                threading.Thread(target=self._replace, args=(key, profile, func), daemon=True).start()
                return
            with self._cond:
                self._count[key] -= 1
                self._cond.notify()
            return
        with self._cond:
            self._idle[key].append(worker)
            self._cond.notify()

    def _replace(self, key: tuple, profile: Profile, func: str | None) -> None:
        try:
            worker = self._spawn(profile, func)
        except BaseException:
            with self._cond:
                self._count[key] -= 1
                self._cond.notify()
            return
        self._release(key, worker, retire=False)

    def call(self, profile: Profile, func: str, **task: Any) -> RunResult:
        key = _key(profile, func)
        worker = self._acquire(key, profile, func)
        retire = True
        try:
            result = worker.run_task(profile, func=func, **task)
            retire = result.infra_error is not None or worker.tasks_done >= profile.recycle_after
            return result
        finally:
            self._release(key, worker, retire, profile, func)

    def prewarm(self, profile: Profile, func: str | None = None) -> None:
        key = _key(profile, func)
        with self._cond:
            missing = self.size - self._count[key]
            self._count[key] += max(0, missing)
        errors: list[BaseException] = []

        def start() -> None:
            try:
                worker = self._spawn(profile, func)
            except BaseException as exc:  # reported below, after every thread is done
                errors.append(exc)
                with self._cond:
                    self._count[key] -= 1
                return
            self._release(key, worker, retire=False)

        threads = [threading.Thread(target=start) for _ in range(max(0, missing))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]

    def shutdown(self) -> None:
        with self._cond:
            self._closed = True
            workers = [w for ws in self._idle.values() for w in ws]
            self._idle.clear()
            self._cond.notify_all()
        for w in workers:
            w.close()
