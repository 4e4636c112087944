"""The Ray paths with nodes that start with an empty disk: the registry, its dataset and the real
swe project's sdist live only in object storage (moto's S3 server); every node has its own empty
asset cache, sdist folder and HOME, as another machine would. `rlhub check --ray` and the
service's Ray backend must load and grade everything from there, each node fetching for itself."""

from __future__ import annotations

import json
import shutil

import pytest

ray = pytest.importorskip("ray")

from hub.assets.push import push  # noqa: E402
from hub.testing.raycluster import local_cluster  # noqa: E402

DATASET = "remote/qa-v1"
SWE = "swe/real-cachetools-diff-v1"
ROWS = [{"question": f"What is {i} + {i}?", "answer": str(2 * i)} for i in range(4)]


def _hashes(root) -> set[str]:
    """The sha256 of every asset a node's cache holds (ROOT/sha256/ab/HEX)."""
    return {p.name.removesuffix(".d") for p in (root / "sha256").glob("*/*")} if (root / "sha256").is_dir() else set()


@pytest.fixture(scope="module")
def remote(s3, tmp_path_factory):
    """The registry's pin, the pins it needs, and each node's (empty) disk."""
    from rlhub_swe import real

    pin = real.pins()["cachetools"]
    tmp = tmp_path_factory.mktemp("remote")
    (tmp / "qa.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    sdist = tmp / pin.sdist
    shutil.copyfile(real.sdist_file(pin), sdist)  # this machine's verified copy, pushed to the mirror
    [qa, src] = push([str(tmp / "qa.jsonl"), str(sdist)], "s3://rlhub-assets/run")
    assert src["sha256"] == pin.sha256
    registry = tmp / "registry.yaml"
    registry.write_text(
        "version: 1\nenvironments:\n"
        f"  - dataset:\n      id: {DATASET}\n      path: {qa['pin']}\n"
        "      columns: {prompt: question, answer: answer}\n    verifier: exact_match\n"
        f"  - id: {SWE}\n")
    [reg] = push([str(registry)], "s3://rlhub-assets/run")
    disks = []
    for name in ("head", "worker"):
        disk = tmp / name
        for sub in ("assets", "sdists", "home"):
            (disk / sub).mkdir(parents=True)
        disks.append(disk)
    env = [{"RLHUB_ASSET_CACHE": str(d / "assets"), "RLHUB_SWE_SDISTS": str(d / "sdists"), "HOME": str(d / "home"),
            "RLHUB_SWE_SDISTS_URL": "s3://rlhub-assets/run"} for d in disks]
    return {"registry": reg["pin"], "registry_sha": reg["sha256"], "needs": {reg["sha256"], qa["sha256"], pin.sha256}, "disks": disks, "env": env}


@pytest.fixture(scope="module")
def cluster(remote):
    with local_cluster(workers=1, node_env=remote["env"]) as (c, _):
        yield c


def test_check_on_ray_loads_and_grades_from_object_storage_alone(remote, cluster, capsys, tmp_path, monkeypatch):
    from hub.cli.main import main

    monkeypatch.setenv("RLHUB_ASSET_CACHE", str(tmp_path / "driver"))  # the driver's own disk, not the nodes'
    code = main(["check", "--ray", cluster.address, "--registry", remote["registry"], "--seeds", "1", "--json"])
    out = capsys.readouterr()
    summary = json.loads(out.out.strip().splitlines()[-1])
    assert code == 0, out.out[-3000:] + out.err[-3000:]
    assert summary["failed"] == 0 and summary["passed"] > 10, summary
    # Each node fetched the registry, and what its actor checked, into its own cache; no node had
    # the sdist on disk or got it from the package index.
    held = [_hashes(disk / "assets") for disk in remote["disks"]]
    assert all(remote["registry_sha"] in h for h in held) and remote["needs"] <= set().union(*held), held
    assert not any(any((disk / "sdists").iterdir()) for disk in remote["disks"])


def test_the_service_on_ray_grades_from_object_storage_alone(remote, cluster, tmp_path, monkeypatch):
    import requests

    from hub.serve.config import ServeConfig
    from hub.serve.server import BackgroundServer
    from hub.serve.work import load_catalog

    monkeypatch.setenv("RLHUB_ASSET_CACHE", str(tmp_path / "driver"))
    config = ServeConfig.build(registry=remote["registry"], port=0, backend="ray", ray_address=cluster.address,
                               workers=2, retries=1)
    server = BackgroundServer(config, catalog=load_catalog(remote["registry"])).start()
    try:
        cat = server.catalog
        labels = [json.dumps({"env": env, "seed": s}) for env in (DATASET, SWE) for s in (0, 1)]
        prompts = ["<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\n"] * len(labels)
        for answers, want in (([cat.reference(lab) for lab in labels], 1.0), (["wrong"] * len(labels), 0.0)):
            body = {"query": [p + a + "<|im_end|>" for p, a in zip(prompts, answers)], "prompts": prompts,
                    "labels": labels}
            r = requests.post(server.url + "/get_reward", data=json.dumps(body), timeout=120)
            assert r.status_code == 200 and r.json()["rewards"] == [want] * len(labels), r.text[:2000]
        done = requests.get(server.url + "/queue", timeout=10).json()["backend"]["completed_by_node"]
        assert len(done) == 2, done  # both nodes graded, each from its own cache
    finally:
        server.stop()
