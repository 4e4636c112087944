"""`rlhub check` on every core (pytest-xdist) and on a Ray cluster: the same verdicts, failures and
exit code as the serial run, progress on stderr, the slowest environments in the summary."""

import json
import os
import re

import pytest
from rlhub_cli_helpers import make_plugin_dist, run_rlhub
from test_checks import BROKEN

# a passing environment, one whose prompt leaks its answer, one that differs only in another
# process (its tasks depend on the hash seed), and a built-in one
REGISTRY = ("environments:\n  - id: 'bad/good-v1'\n  - id: 'bad/leaky-v1'\n  - id: 'bad/hashseeded-v1'\n"
            "  - id: 'arith/add-v1'\n")


def checked(out):
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    failures = sorted((f["check"], f["message"]) for f in summary["failures"])
    return out.returncode, {k: summary[k] for k in ("passed", "failed", "skipped")}, failures, summary


@pytest.fixture
def registry(plugin_dir, tmp_path):
    make_plugin_dist(plugin_dir, "rlhub-bad", "rlhub_bad", BROKEN)
    (tmp_path / "registry.yaml").write_text(REGISTRY)
    return tmp_path


def test_workers_find_what_the_serial_run_finds(registry, plugin_dir):
    serial = run_rlhub("check", "-n", "0", "--json", cwd=registry, pythonpath=plugin_dir, timeout=300)
    parallel = run_rlhub("check", "-n", "2", "--json", cwd=registry, pythonpath=plugin_dir, timeout=300)
    code, counts, failures, summary = checked(parallel)
    assert (code, counts, failures) == checked(serial)[:3]
    assert code == 1 and summary["workers"] == 2 and counts["failed"] >= 3
    failed = {(c.split("::")[1], c.split("::")[2].split("[")[0]) for c, _ in failures}
    assert failed == {("bad/leaky-v1", "no_leak"), ("bad/hashseeded-v1", "generation_deterministic")}
    assert all("another process (other hash seed) generated a different task" in m
               for c, m in failures if "hashseeded" in c)
    # progress on stderr (a line per tenth off a terminal), no dot per check, the slowest named
    assert "rlhub check: 4/4 environments, " in parallel.stderr and "failed checks" in parallel.stderr
    assert "slowest 4 environments" in parallel.stdout and "bad/leaky-v1  (20 checks, 2 failed)" in parallel.stdout
    assert {row["env"] for row in summary["slowest"]} == {"bad/good-v1", "bad/leaky-v1", "bad/hashseeded-v1", "arith/add-v1"}
    assert "....." not in parallel.stdout


def test_pytest_n_keeps_each_environment_on_one_worker(registry, plugin_dir):
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(plugin_dir)}
    out = subprocess.run([sys.executable, "-m", "pytest", "registry.yaml", "-n", "2", "-v", "-p", "no:cacheprovider"],
                         cwd=registry, env=env, capture_output=True, text=True, timeout=300)
    assert "scheduling tests via LoadScopeScheduling" in out.stdout
    workers_by_env: dict[str, set[str]] = {}
    for line in out.stdout.splitlines():
        if line.startswith("[gw") and "registry.yaml::" in line:
            env_id = line.split("registry.yaml::", 1)[1].split("::")[0]
            workers_by_env.setdefault(env_id, set()).add(line.split("]", 1)[0])
    assert len(workers_by_env) == 4 and all(len(w) == 1 for w in workers_by_env.values()), workers_by_env
    assert re.search(r"\b4 failed, 68 passed, 8 skipped\b", out.stdout)  # leaky and hashseeded, 2 seeds each


def test_worker_count_follows_cores_and_environments():
    from hub.checks.runner import worker_count

    assert worker_count("auto", 1) == 0  # a single environment: in process, no workers to start
    assert worker_count("auto", 1000) == len(os.sched_getaffinity(0)) or len(os.sched_getaffinity(0)) == 1
    assert worker_count(8, 3) == 3 and worker_count(0, 50) == 0


def test_bad_worker_count_is_refused_with_the_reason(capsys):
    from hub.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["check", "-n", "many"])
    assert exc.value.code == 2 and "expected 'auto' or a number of worker processes" in capsys.readouterr().err


def test_ray_cluster_finds_what_the_serial_run_finds(registry, plugin_dir, monkeypatch, capsys):
    """`rlhub check --ray` against a real two-node cluster on this machine: every environment
    checked by actors on both nodes, with the serial run's results and exit code."""
    pytest.importorskip("ray")
    from hub.cli import main
    from hub.testing.plugins import plugin_installed
    from hub.testing.raycluster import local_cluster

    monkeypatch.chdir(registry)
    monkeypatch.setenv("PYTHONPATH", str(plugin_dir))  # the cluster's processes find the plugin as installed
    with plugin_installed(plugin_dir, "rlhub-bad", "rlhub_bad", BROKEN), \
            local_cluster(workers=1, connect=False) as (cluster, _):
        assert main(["check", "-n", "0", "--json"]) == 1
        serial = capsys.readouterr()
        code = main(["check", "--ray", cluster.address, "--json"])
        on_ray = capsys.readouterr()

    class Out:  # the shape `checked` reads
        def __init__(self, captured, returncode):
            self.stdout, self.returncode = captured.out, returncode

    got, want = checked(Out(on_ray, code)), checked(Out(serial, 1))
    assert got[:3] == want[:3]
    assert got[3]["workers"] == 2  # one actor per CPU of each of the two nodes
    assert "rlhub check: 4/4 environments" in on_ray.err and "slowest 4 environments" in on_ray.out


def test_quick_tier_checks_one_seed_without_determinism_and_says_it_proves_less(registry, plugin_dir):
    out = run_rlhub("check", "--quick", "-n", "0", "--json", cwd=registry, pythonpath=plugin_dir, timeout=300)
    code, counts, failures, summary = checked(out)
    assert summary["quick"] is True and "proves less" in out.stderr
    # 4 environments x 7 checks x 1 seed: the determinism and fresh-process checks are left out
    assert sum(counts.values()) == 28
    assert not any(name in c for c, _ in failures for name in
                   ("verifier_deterministic", "generation_deterministic", "reference_fresh_process"))
    # it still catches what this process sees (the leak), and, by design, not what needs another
    # process: hashseeded's tasks differ only under another hash seed, so it passes here
    failed = {(c.split("::")[1], c.split("::")[2]) for c, _ in failures}
    assert code == 1 and failed == {("bad/leaky-v1", "no_leak[0]")}
    full = checked(run_rlhub("check", "-n", "0", "--json", cwd=registry, pythonpath=plugin_dir, timeout=300))
    assert full[3]["quick"] is False and any("hashseeded" in c for c, _ in full[2])
    refused = run_rlhub("check", "--quick", "--seeds", "2", cwd=registry, pythonpath=plugin_dir, timeout=120)
    assert refused.returncode == 2 and "--quick checks one seed" in refused.stderr
