"""/metrics through the real service: the reward series a training run watches (per environment
and per domain, with a bounded label set) and the verification latency histogram per verifier."""

from __future__ import annotations

import json

import requests

from .helpers import label, metric, post, reference


def _body(server, samples: list[tuple[str, int, bool]]) -> dict:
    """(env, seed, right answer?) per sample; an env without a slash is a label naming no task."""
    prompts = [f"<|im_start|>user\nQ{i}<|im_end|>\n<|im_start|>assistant\n" for i in range(len(samples))]
    answers = [reference(server, e, s) if right else "wrong" for e, s, right in samples]
    return {"query": [p + a + "<|im_end|>" for p, a in zip(prompts, answers)], "prompts": prompts,
            "labels": [label(e, s) for e, s, _ in samples]}


def test_reward_and_pass_counts_per_env_and_domain_with_a_bounded_label_set(serve):
    server = serve(workers=4, deadline_s=1.0, metrics_env_labels=2)
    # a label naming no task before the capped environments: it must not take one of their places
    first = _body(server, [("arith/add-v1", 1, True), ("arith/add-v1", 2, True), ("synthetic/medium-v1", 1, True)])
    first["query"].insert(1, "anything")
    first["prompts"].insert(1, "")
    first["labels"].insert(1, json.dumps({"env": "nope/x-v1", "seed": 1}))
    assert post(server, first).json()["rewards"] == [1.0, 0.0, 1.0, 1.0]
    # a wrong answer, an environment past the label cap, a sample past the deadline
    second = post(server, _body(server, [("arith/add-v1", 3, False), ("arith/mul-v1", 1, True),
                                         ("synthetic/slow-v1", 1, True)])).json()
    assert second["rewards"] == [0.0, 1.0, 0.0] and second["extra_logs"]["rlhub/timeout"] == [0, 0, 1]

    def m(name, **labels):
        return metric(server, name, **labels)

    # arith/add-v1: 3 samples, all graded, 2 passed; synthetic/medium-v1: 1 of 1
    assert m("rlhub_serve_env_samples_total", env="arith/add-v1") == 3
    assert m("rlhub_serve_env_reward_count", env="arith/add-v1") == 3
    assert m("rlhub_serve_env_reward_sum", env="arith/add-v1") == 2.0
    assert m("rlhub_serve_env_passed_total", env="arith/add-v1") == 2
    assert m("rlhub_serve_env_reward_sum", env="synthetic/medium-v1") == 1.0
    assert m("rlhub_serve_env_passed_total", env="synthetic/medium-v1") == 1
    # past the cap of 2: arith/mul-v1 (passed) and synthetic/slow-v1 (timed out: counted, not graded)
    text = requests.get(server.url + "/metrics", timeout=10).text
    assert 'env="arith/mul-v1"' not in text.split("# HELP rlhub_serve_env_reward ")[1].split("# HELP rlhub_serve_verifier")[0]
    assert m("rlhub_serve_env_samples_total", env="other") == 2
    assert m("rlhub_serve_env_reward_count", env="other") == 1
    assert m("rlhub_serve_env_reward_sum", env="other") == 1.0
    assert m("rlhub_serve_env_passed_total", env="other") == 1
    # the label naming no task: its own value, outside the cap, never graded
    assert m("rlhub_serve_env_samples_total", env="(unknown)") == 1
    assert m("rlhub_serve_env_reward_count", env="(unknown)") == 0
    # domains: everything of arith/* together, also what was folded into "other" per environment
    assert m("rlhub_serve_domain_samples_total", domain="arith") == 4
    assert m("rlhub_serve_domain_reward_count", domain="arith") == 4
    assert m("rlhub_serve_domain_reward_sum", domain="arith") == 3.0
    assert m("rlhub_serve_domain_passed_total", domain="arith") == 3
    assert m("rlhub_serve_domain_samples_total", domain="synthetic") == 2
    assert m("rlhub_serve_domain_reward_count", domain="synthetic") == 1
    assert m("rlhub_serve_domain_samples_total", domain="(unknown)") == 1


def test_verification_latency_histogram_per_verifier(serve):
    server = serve(workers=4)
    assert post(server, _body(server, [("arith/add-v1", 1, True), ("arith/mul-v1", 2, False),
                                       ("synthetic/medium-v1", 1, True)])).json()["rewards"] == [1.0, 0.0, 1.0]
    # synthetic_timed sleeps 0.2 s: in no bucket below that, in every one from 0.25 s (the 2 cores are
    # shared, so only the buckets up to 1 s are asserted for it)
    for le, want in (("0.1", 0), ("0.25", None), ("1.0", 1), ("+Inf", 1)):
        got = metric(server, "rlhub_serve_verifier_seconds_bucket", verifier="synthetic_timed", le=le)
        assert want is None or got == want, (le, got)
    assert metric(server, "rlhub_serve_verifier_seconds_count", verifier="synthetic_timed") == 1
    assert metric(server, "rlhub_serve_verifier_seconds_sum", verifier="synthetic_timed") >= 0.2
    # exact_match graded both arith samples, the right and the wrong one
    assert metric(server, "rlhub_serve_verifier_seconds_count", verifier="exact_match") == 2
    assert metric(server, "rlhub_serve_verifier_seconds_bucket", verifier="exact_match", le="+Inf") == 2
    text = requests.get(server.url + "/metrics", timeout=10).text
    assert "# TYPE rlhub_serve_verifier_seconds histogram" in text
    assert all("env=" not in line for line in text.splitlines() if line.startswith("rlhub_serve_verifier_seconds"))
