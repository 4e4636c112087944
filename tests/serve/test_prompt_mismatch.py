"""A query that does not contain its prompt (a chat-template mismatch does it to every sample) is
flagged, warned about and counted, and graded on what follows the last assistant turn marker;
the reward file and the service agree. Bad labels are warnings."""

from __future__ import annotations

import logging

import pytest

from hub.rewards import RewardPolicy, cut, score_batch

from .helpers import label, metric, post, reference

LLAMA3_PROMPT = "<|start_header_id|>user<|end_header_id|>\n\nQ<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
CHATML_PROMPT = "<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\n"


@pytest.mark.parametrize("query, prompt, response, mismatch", [
    (CHATML_PROMPT + "42<|im_end|>", CHATML_PROMPT, "42", False),
    ("<s>" + CHATML_PROMPT + "42<|im_end|>", CHATML_PROMPT, "42", False),  # a BOS token before the prompt
    (LLAMA3_PROMPT + "42<|eot_id|>", CHATML_PROMPT, "42", True),  # rendered with another template
    ("<|im_start|>system\nS<|im_end|>\n" + CHATML_PROMPT + "42<|im_end|>", "user: Q", "42", True),
    ("[INST] Q [/INST] 42</s>", "Q?", "42", True),
    ("no marker at all 42", "Q", "no marker at all 42", True),
    ("42", "", "42", False),  # no prompt sent: the query is the response
])
def test_cut_finds_the_response_and_flags_a_missing_prompt(query, prompt, response, mismatch):
    assert cut(query, prompt) == (cut(query, prompt).__class__(response, mismatch))


def test_the_reward_file_flags_and_warns(caplog, monkeypatch):
    from hub import load
    from hub.rewards import query

    monkeypatch.setattr(query, "MISMATCHES", query.Throttle())  # this test's first mismatch is warned about

    cat = load()
    answer = cat.reference(label("arith/add-v1", 5))
    queries = [CHATML_PROMPT + answer + "<|im_end|>", LLAMA3_PROMPT + answer + "<|eot_id|>", "x"]
    with caplog.at_level(logging.WARNING, logger="rlhub.rewards"):
        out = score_batch(cat, queries, [CHATML_PROMPT, CHATML_PROMPT, ""],
                          [label("arith/add-v1", 5), label("arith/add-v1", 5), '{"env": "nowhere/x-v1", "seed": 1}'],
                          RewardPolicy())
    assert out["rewards"] == [1.0, 1.0, 0.0]  # graded on the assistant turn, not on the whole text
    assert out["extra_logs"]["rlhub/prompt_mismatch"] == [0.0, 1.0, 0.0]
    assert out["extra_logs"]["rlhub/bad_label"] == [0.0, 0.0, 1.0]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("rlhub/prompt_mismatch: a query did not contain its prompt" in w for w in warnings), warnings
    assert any("1 sample(s) with a bad label" in w and "nowhere/x-v1" in w for w in warnings), warnings


def test_mismatch_warnings_are_throttled():
    from hub.rewards.query import Throttle

    throttle = Throttle()
    assert [n for n in (throttle.tick() for _ in range(1200)) if n] == [1, 10, 100, 1000]


def test_the_service_flags_counts_and_warns(serve, caplog):
    server = serve()
    answer = reference(server, "arith/mul-v1", 3)
    body = {"query": [CHATML_PROMPT + answer + "<|im_end|>", LLAMA3_PROMPT + answer + "<|eot_id|>",
                      LLAMA3_PROMPT + "7<|eot_id|>", "x"],
            "prompts": [CHATML_PROMPT] * 3 + [""],
            "labels": [label("arith/mul-v1", 3)] * 3 + ['{"env": "arith/mul-v1"}']}
    service_log = logging.getLogger("rlhub.serve")  # `rlhub serve` stops it propagating (JSON lines of its own)
    service_log.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.WARNING, logger="rlhub.serve"):
            out = post(server, body).json()
    finally:
        service_log.removeHandler(caplog.handler)
    assert out["rewards"] == [1.0, 1.0, 0.0, 0.0]
    assert out["extra_logs"]["rlhub/prompt_mismatch"] == [0.0, 1.0, 1.0, 0.0]
    assert metric(server, "rlhub_serve_prompt_mismatch_total", env="arith/mul-v1") == 2.0
    assert metric(server, "rlhub_serve_bad_labels_total") == 1.0
    events = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "request.prompt_mismatch" in events and "request.bad_labels" in events
