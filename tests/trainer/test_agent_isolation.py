"""Samples cannot cost each other anything, and a deadline frees everything.

- the three reward paths (service, reward file, agent) give every kind of outcome without a
  verdict the same reward and the same flags;
- 200 terminal episodes whose step overruns its deadline leave no uid, lock fd, cgroup, thread
  or sandbox process behind (real bwrap);
- slow episodes beside correct ones, on few slots: the correct ones earn 1, none is `bad_label`.
"""

from __future__ import annotations

import asyncio
from collections import Counter
import json
import math
import os
import subprocess
import threading
import time

import pytest
import requests
from openrlhf_harness import ScriptedEngine, sampling_params

from hub import Environment, Task, Verdict, Verifier, VerifierConfig, VerifierError, hookimpl
from hub.config.catalog import Catalog
from hub.config.registry import load as load_registry
from hub.plugins.manager import collect
from hub.rewards import FLAGS, log_key
from hub.sandbox import cgroup as cgroup_module
from hub.sandbox.uids import UidLease
from hub.serve.config import ServeConfig
from hub.serve.server import BackgroundServer
from hub.trainers.openrlhf import agent as agent_module
from hub.trainers.openrlhf import reward as openrlhf_reward

DEADLINE_S = 0.6


class KindVerifier(Verifier):
    """Exact match; the task says how it goes wrong: a verifier failure, or a slow verification."""

    name = "kind_match"
    Config = VerifierConfig

    def verify(self, task, response, ctx) -> Verdict:
        if task.hidden["how"] == "fails":
            raise VerifierError("the verifier's tool crashed")
        if task.hidden["how"] == "slow":
            time.sleep(3)
        ok = response.strip() == "7"
        return Verdict(reward=float(ok), passed=ok)


class Kinds(Environment):
    HOW = ("ok", "fails", "slow")

    def generate(self, rng, index):
        return Task(prompt=f"Kind task {index}: reply 7.", hidden={"how": self.HOW[index % 3]}, reference="7")


class KindsPlugin:
    @hookimpl
    def rlhub_register_envs(self, register):
        register("kinds/match-v1", Kinds, verifier="kind_match")

    @hookimpl
    def rlhub_register_verifiers(self, register):
        register(KindVerifier)


# label -> the kind every path must report for it
CASES = {json.dumps({"env": "kinds/match-v1", "seed": 0}): "ok",
         json.dumps({"env": "kinds/match-v1", "seed": 1}): "no_verdict",
         json.dumps({"env": "kinds/match-v1", "seed": 2}): "timeout",
         json.dumps({"env": "kinds/nowhere-v1", "seed": 0}): "bad_label",
         "not json at all": "bad_label"}


def kinds_catalog(tmp_path):
    reg = tmp_path / "registry.yaml"
    reg.write_text("version: 1\nenvironments:\n  - id: 'kinds/*'\n")
    return Catalog(load_registry(reg), collect([("kinds", KindsPlugin())]))


def _same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


def test_service_reward_file_and_agent_give_every_kind_the_same_reward_and_flags(tmp_path, tokenizer, monkeypatch):
    from test_openrlhf_executors import load_agent_executor, templated

    catalog = kinds_catalog(tmp_path)
    labels = list(CASES)
    prompts = [f"Kind task {i}: reply 7." for i in range(len(labels))]
    # the service
    server = BackgroundServer(ServeConfig.build(port=0, deadline_s=DEADLINE_S), catalog=catalog).start()
    try:
        served = requests.post(server.url + "/get_reward", json={"query": ["7"] * len(labels), "prompts": [""] * len(labels),
                                                                 "labels": labels}, timeout=30).json()
    finally:
        server.stop()
    # the reward file
    monkeypatch.setenv("RLHUB_REWARD_DEADLINE_S", str(DEADLINE_S))
    openrlhf_reward._state["catalog"] = catalog
    filed = openrlhf_reward.reward_func(["7"] * len(labels), [""] * len(labels), labels)
    # the agent, through OpenRLHF's own executor
    monkeypatch.setenv("RLHUB_STEP_TIMEOUT_S", str(DEADLINE_S))
    executor = load_agent_executor()
    engine = ScriptedEngine(tokenizer, {p: ["7"] for p in prompts})

    async def agent_all():
        return await asyncio.gather(*(executor.execute(templated(tokenizer, p), label, sampling_params(), 512, tokenizer, engine)
                                      for p, label in zip(prompts, labels)))

    agents = asyncio.run(agent_all())

    for i, (label, kind) in enumerate(CASES.items()):
        flags = {log_key(k): float(kind == k) for k in FLAGS} | {log_key("substituted"): float(kind != "ok"),
                                                                 log_key("passed"): float(kind == "ok")}
        reward = 1.0 if kind == "ok" else 0.0
        score = reward if kind == "ok" else math.nan
        for path, r, s, logs in (("service", served["rewards"][i], served["scores"][i], {k: v[i] for k, v in served["extra_logs"].items()}),
                                 ("reward file", filed["rewards"][i], filed["scores"][i], {k: v[i] for k, v in filed["extra_logs"].items()}),
                                 ("agent", agents[i]["reward"], float(agents[i]["scores"]), agents[i]["extra_logs"])):
            assert r == reward and _same(s, score), (path, kind, r, s)
            assert {k: float(logs[k]) for k in flags} == flags, (path, kind, logs)


# -- a deadline frees everything --------------------------------------------------------------------

SESSION = "terminal/session-bugfix-binary-search-v1"


def _our_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _uid_lock_fds() -> int:
    n = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            n += "rlhub-sandbox-uids" in os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            pass
    return n


def _sandbox_children() -> list[str]:
    out = subprocess.run(["pgrep", "-P", str(os.getpid())], capture_output=True, text=True).stdout.split()
    return [p for p in out if "bwrap" in open(f"/proc/{p}/cmdline", "rb").read().decode(errors="replace")
            or "sh" in open(f"/proc/{p}/comm").read()]


def _drain_agent_threads(timeout: float = 30.0) -> bool:
    """Shut the agent's thread pool down, waiting for every thread it started; False if one hangs."""
    pool, agent_module._pool = agent_module._pool, None
    if pool is None:
        return True
    done = threading.Event()
    threading.Thread(target=lambda: (pool.shutdown(wait=True), done.set()), daemon=True).start()
    return done.wait(timeout)


def test_200_episodes_that_overrun_their_deadline_leave_nothing_behind(monkeypatch):
    monkeypatch.setenv("RLHUB_STEP_TIMEOUT_S", "0.4")
    monkeypatch.setenv("RLHUB_AGENT_WORKERS", "8")
    monkeypatch.setattr(agent_module, "TURN_SHARE", None)  # no turn budget: the step itself overruns
    made: list[str] = []
    real_create = cgroup_module.MemoryCgroup.create.__func__

    def create(cls):  # the real cgroup, with its path noted to look for it afterwards
        group = real_create(cls)
        if group is not None:
            made.append(group.path)
        return group

    monkeypatch.setattr(cgroup_module.MemoryCgroup, "create", classmethod(create))
    slow = "```bash\nsleep 30 & sleep 30\n```\n```bash\nsleep 30\n```"

    async def one(i: int) -> dict:
        a = agent_module.RlhubAgent()
        await a.reset({"label": json.dumps({"env": SESSION, "seed": i % 7}), "observation": ""})
        start = time.monotonic()
        out = await a.step({"action_text": slow, "label": "", "sampling_params": None})
        out["took"] = time.monotonic() - start
        return out

    async def many(n: int) -> list[dict]:
        sem = asyncio.Semaphore(16)

        async def bounded(i):
            async with sem:
                return await one(i)

        return await asyncio.gather(*(bounded(i) for i in range(n)))

    asyncio.run(many(2))  # warm: the catalog, the sandbox's spawner thread
    assert _drain_agent_threads()
    threads, fds, uid_fds, children = threading.active_count(), _our_fds(), _uid_lock_fds(), _sandbox_children()
    uids = set(UidLease._local_held)  # other tests in this worker process may keep warm sandboxes (and their uids)
    made.clear()
    start = time.monotonic()
    outs = asyncio.run(many(200))
    elapsed = time.monotonic() - start
    kinds = Counter(next((k for k, v in o["extra_logs"].items() if v == 1.0 and k != "rlhub/turns"), "none")
                    + f" reward={float(o['rewards']):g}" for o in outs)
    assert kinds == {"rlhub/timeout reward=0": 200}, kinds
    assert max(o["took"] for o in outs) < 0.4 + 10  # the step returned at its deadline (plus closing it)
    assert _drain_agent_threads(), "a step's thread is still running after its episode was closed"
    leaks = {"threads": max(0, threading.active_count() - threads),  # (other tests' threads may end meanwhile)
             "step threads": sum(t.name.startswith("rlhub-env") for t in threading.enumerate()),
             "fds": _our_fds() - fds, "uid lock fds": _uid_lock_fds() - uid_fds,
             "uids held": len(UidLease._local_held - uids), "cgroups": sum(os.path.exists(p) for p in made),
             "sandbox processes": len(_sandbox_children()) - len(children)}
    print(f"200 overrunning episodes in {elapsed:.1f} s; left behind: {leaks}; cgroups made: {len(made)}")
    assert leaks == dict.fromkeys(leaks, 0)


# -- slow samples beside correct ones -----------------------------------------------------------------

@pytest.mark.parametrize("turn_budget", [True, False], ids=["turn-budget", "deadline-only"])
def test_slow_samples_cannot_cost_correct_ones_their_reward(tokenizer, monkeypatch, turn_budget):
    from test_openrlhf_executors import load_agent_executor, templated

    from hub.core.response import fenced, read

    monkeypatch.setenv("RLHUB_STEP_TIMEOUT_S", "6")
    monkeypatch.setenv("RLHUB_AGENT_WORKERS", "3")  # fewer slots than slow samples
    if not turn_budget:
        monkeypatch.setattr(agent_module, "TURN_SHARE", None)
    cat = openrlhf_reward.catalog()
    executor = load_agent_executor()
    slow_turn = "```bash\nsleep 20\n```\n" * 8  # the turn: 8 x sleep 20
    labels, script, correct = [], {}, set()
    for seed in range(12):
        label = json.dumps({"env": SESSION, "seed": seed})
        task = cat.task(label)
        prompt = f"[sample {seed}:] " + task.prompt_text()  # the engine tells samples apart by this mark
        if seed % 2:
            script[f"[sample {seed}:]"] = [fenced(read(task.reference).code("python"), "python file=solution.py") + "SUBMIT\n"]
            correct.add(label)
        else:
            script[f"[sample {seed}:]"] = [slow_turn, slow_turn, "SUBMIT\n"]
        labels.append((label, prompt))
    engine = ScriptedEngine(tokenizer, script)

    async def timed(label, prompt):
        start = time.monotonic()
        out = await executor.execute(templated(tokenizer, prompt), label, sampling_params(), 200_000, tokenizer, engine)
        return out, time.monotonic() - start

    async def main():
        return await asyncio.gather(*(timed(label, prompt) for label, prompt in labels))

    results = asyncio.run(main())
    took = sorted(t for (label, _), (_, t) in zip(labels, results) if label in correct)
    rewards = [out["reward"] for (label, _), (out, _) in zip(labels, results) if label in correct]
    print(f"slow+correct mix ({'turn budget' if turn_budget else 'deadline only'}): correct rewards {rewards}, "
          f"their episode latency p50 {took[len(took) // 2]:.1f} s, max (p99) {took[-1]:.1f} s")
    for (label, _), (out, took) in zip(labels, results):
        assert out["extra_logs"]["rlhub/bad_label"] == 0.0, label  # a wait is never the label's fault
        if label in correct:
            assert out["reward"] == 1.0 and out["extra_logs"]["rlhub/passed"] == 1.0, (label, out["extra_logs"])
    assert _drain_agent_threads()
