"""`rlhub check --ray ADDRESS`: the checks of each environment on a Ray cluster.

One actor per CPU of every live node, pinned to its node as the reward service's Ray backend
pins its verifiers (`hub.serve.ray_backend`), each with its own catalog, warm sandbox pool,
verdict memo and second interpreter for the other-process checks. The driver hands out one
environment at a time to whichever actor is free; an actor checks all of that environment's
tasks, so its checks share verdicts as they do on one xdist worker.

The actors call the checks library directly (`library.planned` and `library.run_check`: the same
checks, in the same order, with the same failure messages as the pytest items) rather than
running pytest inside each actor: a long-lived actor keeps its catalog, sandbox pool and second
interpreter across every environment it checks, and sends back one small result per check,
where a pytest session per batch would rebuild them each time. The results, the JSON summary
and the exit code are those of the serial run (`rlhub check -n 0`): failures are reported in
the registry's order whatever order the actors finish in. An actor lost with its node has its
environment checked again on another actor.

Every node needs rlhub and the plugins. The registry is either a file at the same path on every
node, or a pinned URL (`--registry s3://bucket/registry.yaml#sha256=HEX`), which each actor
fetches into its own node's asset cache with whatever the registry names by URL: a worker that
starts with an empty disk needs nothing else.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

from .library import CheckFailed, CheckSkipped, planned, run_check
from .other_process import EnvAnswers
from .progress import Board
from .summary import Summary


class CheckWorker:
    """The body of one Ray actor: checks whole environments on request."""

    def __init__(self, registry: str, seeds: int, quick: bool = False) -> None:
        from .. import tracing
        from ..config.catalog import Catalog

        tracing.setup("rlhub-check-worker")
        self.catalog = Catalog.load(registry)
        self.name = file_name(registry)
        self.seeds, self.quick = seeds, quick
        self.answers = EnvAnswers(registry, seeds)

    def check_env(self, env_id: str, trace: dict | None = None) -> list[dict]:
        """One result per check of `env_id`: node id, outcome, message, seconds. `trace`: the
        driver's W3C context (hub.tracing.inject), continued here."""
        from .. import tracing

        with tracing.span("rlhub.check_env", {"rlhub.env": env_id}, context=tracing.extract(trace)):
            return self._check_env(env_id)

    def _check_env(self, env_id: str) -> list[dict]:
        renv = self.catalog.get(env_id)
        results = []
        for check, index in planned(renv, self.seeds, self.quick):
            start = time.perf_counter()
            outcome, message = "passed", ""
            try:
                run_check(self.catalog, renv, check, index, lambda what: self.answers.get(renv, what))
            except CheckSkipped as exc:
                outcome, message = "skipped", str(exc)
            except CheckFailed as exc:
                outcome, message = "failed", f"{check} failed: {exc}"
            except Exception:  # a bug in the environment or verifier: reported with its traceback, as pytest would
                outcome, message = "failed", traceback.format_exc()
            results.append({"check": f"{self.name}::{env_id}::{check}[{index}]", "outcome": outcome,
                            "message": message, "seconds": time.perf_counter() - start})
        return results

    def close(self) -> None:
        from .. import tracing

        self.answers.close()
        tracing.flush()  # the actor is killed next: export what it has batched


def file_name(registry: str | None) -> str:
    """How check ids name the registry: its file name (a URL's without the pin)."""
    if not registry:
        return "registry.yaml"
    return Path(registry.split("#", 1)[0]).name


def run_on_ray(address: str, registry: str | None, select: str | None, seeds: int, fail_fast: bool = False,
               verbose: bool = False, quick: bool = False) -> Summary:
    import ray
    from ray.exceptions import RayError

    from .. import tracing
    from ..config.catalog import Catalog
    from ..serve.ray_backend import alive_nodes, connect, pinned

    from ..assets import is_url

    if registry and not is_url(registry):
        registry = os.path.abspath(registry)  # None: the default registry, on every node
    cat = Catalog.load(registry)
    envs = [renv.id for renv in cat.select(select)]
    board = Board(show=not verbose)
    board.expect(Counter({env: len(planned(cat.get(env), seeds, quick)) for env in envs}))
    started = connect(address, log_to_driver=False)
    tracing.setup("rlhub-check")
    run_span = tracing.start("rlhub.checks", attributes={"rlhub.envs": len(envs), "rlhub.seeds": seeds})
    carrier = tracing.inject(run_span)
    extra = {"runtime_env": {"env_vars": tracing.otel_env()}} if tracing.exporting() else {}
    remote_cls = ray.remote(CheckWorker)
    actors = [pinned(remote_cls, node["NodeID"], num_cpus=1, **extra).remote(registry, seeds, quick)
              for node in alive_nodes() for _ in range(max(1, int(node["Resources"].get("CPU", 1))))]
    summary = Summary(workers=len(actors), quick=quick)
    results: dict[str, list[dict]] = {}
    todo, running, retried = list(reversed(envs)), {}, set()  # running: future -> (actor, env)
    begin = time.monotonic()

    def hand_out() -> None:
        busy = {id(a) for a, _ in running.values()}
        for actor in [a for a in actors if id(a) not in busy]:
            if not todo or (fail_fast and summary_failed(results)):
                return
            env = todo.pop()
            running[actor.check_env.remote(env, carrier)] = (actor, env)

    try:
        hand_out()
        while running:
            [done], _ = ray.wait(list(running), num_returns=1)
            actor, env = running.pop(done)
            try:
                results[env] = ray.get(done)
            except RayError as exc:  # the actor (or its node) is gone: once more elsewhere, then a failure
                actors.remove(actor)
                if env in retried or not actors:
                    results[env] = [{"check": f"{file_name(registry)}::{env}::(all checks)", "outcome": "failed",
                                     "message": f"the Ray actor checking it was lost: {type(exc).__name__}: {exc}",
                                     "seconds": 0.0}]
                else:
                    retried.add(env)
                    todo.append(env)
            for r in results.get(env, []):
                board.add(env, r["seconds"], r["outcome"] == "failed", finished=True)
                if verbose:
                    print(f"{r['outcome'].upper():8s} {r['check']}", flush=True)
            hand_out()
    finally:
        board.close()
        for actor in actors:
            try:
                ray.get(actor.close.remote(), timeout=30)
                ray.kill(actor)
            except Exception:  # gone with its node
                pass
        tracing.end(run_span)
        if started:
            ray.shutdown()
    for env in envs:  # in the registry's order, as the serial run reports them
        for r in results.get(env, []):
            summary.record(r["check"], r["outcome"], r["message"])
    summary.slowest = board.slowest()
    summary.exit_code = 1 if summary.counts["failed"] else 0
    _print(summary, board, time.monotonic() - begin)
    return summary


def summary_failed(results: dict[str, list[dict]]) -> bool:
    return any(r["outcome"] == "failed" for rs in results.values() for r in rs)


def _print(summary: Summary, board: Board, seconds: float) -> None:
    """pytest's closing lines, for the same run on Ray: failures, the slowest environments, counts."""
    out = sys.stdout
    for failure in summary.failures:
        print(f"FAILED {failure['check']} - {failure['message'].splitlines()[0] if failure['message'] else ''}", file=out)
    for line in board.slowest_lines():
        print(line, file=out)
    counts = ", ".join(f"{n} {k}" for k, n in summary.counts.items() if n)
    print(f"{counts or 'no checks ran'} in {seconds:.2f}s (Ray, {summary.workers} actors)", file=out, flush=True)
