"""Per-environment duration estimates, learned from the service's own history.

An exponentially weighted mean of observed verification times per environment (and per
verifier, the fallback for an environment not seen yet), optionally kept in a JSON file so a
restarted service schedules well from its first request.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass
class Estimate:
    mean_s: float
    count: int = 0
    max_s: float = 0.0


class DurationEstimates:
    def __init__(self, prior_s: float = 0.5, alpha: float = 0.2, path: str | None = None) -> None:
        self.prior_s = prior_s
        self.alpha = alpha
        self.path = Path(path) if path else None
        self._by_env: dict[str, Estimate] = {}
        self._by_verifier: dict[str, Estimate] = {}
        self._lock = threading.Lock()  # observations come from worker threads and the loop
        if self.path and self.path.exists():
            self.load()

    def estimate(self, env: str, verifier: str = "") -> float:
        with self._lock:
            found = self._by_env.get(env) or self._by_verifier.get(verifier)
            return found.mean_s if found else self.prior_s

    def observe(self, env: str, verifier: str, seconds: float) -> None:
        if not seconds >= 0:  # NaN or negative: ignore
            return
        with self._lock:
            for table, key in ((self._by_env, env), (self._by_verifier, verifier)):
                est = table.get(key)
                if est is None:
                    table[key] = Estimate(seconds, 1, seconds)
                else:
                    # the first few observations count fully, then an exponential average
                    weight = max(self.alpha, 1.0 / (est.count + 1))
                    est.mean_s += weight * (seconds - est.mean_s)
                    est.count += 1
                    est.max_s = max(est.max_s, seconds)

    def snapshot(self) -> dict:
        with self._lock:
            return {"prior_s": self.prior_s,
                    "environments": {k: asdict(v) for k, v in sorted(self._by_env.items())},
                    "verifiers": {k: asdict(v) for k, v in sorted(self._by_verifier.items())}}

    def save(self) -> None:
        if not self.path:
            return
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.snapshot(), indent=1))
        os.replace(tmp, self.path)

    def load(self) -> None:
        assert self.path is not None
        try:
            data = json.loads(self.path.read_text())
            envs = {k: Estimate(**v) for k, v in data.get("environments", {}).items()}
            verifiers = {k: Estimate(**v) for k, v in data.get("verifiers", {}).items()}
        except (OSError, ValueError, TypeError) as exc:
            # a damaged history file only costs the learned estimates, never the service
            import logging

            logging.getLogger("rlhub.serve").warning("ignoring estimates file %s: %s", self.path, exc)
            return
        with self._lock:
            self._by_env, self._by_verifier = envs, verifiers
