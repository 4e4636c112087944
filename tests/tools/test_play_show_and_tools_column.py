"""The command line with a tool environment: `rlhub play` reads calls in each format and prints
each result; `rlhub show` prints the tools; prompt files carry a `tools` column that `datasets`
loads when text and tool environments are mixed."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from hub.cli.main import main
from hub.tools import ToolCall, formats

ENV = "arith/guess-tools-v1"


@pytest.fixture
def run_rlhub(capsys, monkeypatch):
    """The CLI in this process (a subprocess per call would cost a second of imports each)."""
    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        rc = main(list(args))
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, rc, out.out, out.err)
    return run


@pytest.mark.parametrize("fmt", formats.known_formats())
def test_play_reads_calls_in_each_format_and_prints_each_result(run_rlhub, tmp_path, fmt):
    import hub

    answer = int(hub.load().task(json.dumps({"env": ENV, "seed": 1})).hidden["answer"])
    low, right = tmp_path / "t1.txt", tmp_path / "t2.txt"
    low.write_text(formats.render([ToolCall("guess", {"number": answer + 1}), ToolCall("nope", {})], fmt))
    right.write_text(formats.render([ToolCall("guess", {"number": answer})], fmt))
    out = run_rlhub("play", ENV, "--seed", "1", "--tool-format", fmt, "--turn", str(low), "--turn", str(right))
    assert out.returncode == 0, out.stderr
    assert f"calls read as {fmt}" in out.stdout and "guess(number: integer)" in out.stdout
    assert f"=== turn 1, call 1: guess ===\nno: the number is lower than {answer + 1}" in out.stdout
    assert "=== turn 1, call 2: nope (error) ===\nerror: there is no tool 'nope'" in out.stdout
    assert f"=== turn 2, call 1: guess ===\n{answer} is right" in out.stdout and "PASSED" in out.stdout


def test_play_says_what_to_write_for_an_unreadable_call_and_refuses_a_format_for_a_text_env(run_rlhub, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text('[TOOL_CALLS] [{"name": "guess", "arguments": {oops}}]')
    out = run_rlhub("play", ENV, "--tool-format", "mistral", "--json", "--turn", str(bad), stdin="")
    assert out.returncode == 2 and "turn 1: notes" in out.stderr and "write [TOOL_CALLS]" in out.stderr
    text_env = run_rlhub("play", "arith/guess-v1", "--tool-format", "hermes", stdin="")
    assert text_env.returncode == 2 and "offers no tools" in text_env.stderr


def test_show_prints_the_tools(run_rlhub):
    out = run_rlhub("show", ENV, "--json")
    tools = json.loads(out.stdout)["example"]["tools"]
    assert tools[0]["function"]["name"] == "guess"
    text = run_rlhub("show", ENV).stdout
    assert "tools (1; the prompt's `tools` column):\nguess(number: integer): Guess the number." in text
    assert "tools (" not in run_rlhub("show", "arith/guess-v1").stdout


def test_a_mixed_prompt_file_loads_with_datasets(run_rlhub, tmp_path):
    import datasets

    import hub
    from hub.mixture import splits

    out = tmp_path / "p.jsonl"
    assert run_rlhub("sample", "--n", "30", "arith/guess*", "--out", str(out)).returncode == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {bool(r["tools"]) for r in rows} == {True, False}
    assert all(r["tools"] == [] for r in rows if not r["datasource"].startswith("arith/guess-tools"))
    loaded = datasets.load_dataset("json", data_files=str(out), split="train")
    assert [r["tools"] for r in loaded] == [r["tools"] for r in rows]
    cat = hub.load()
    labels = [r["label"] for r in rows]
    for fmt in splits.FORMATS:
        written = splits.write(cat, {"train": labels}, tmp_path / fmt, fmt=fmt)
        back = datasets.load_dataset("json" if fmt == "jsonl" else "parquet", data_files=str(written["train"]["path"]),
                                     split="train")
        assert [r["tools"] for r in back] == [r["tools"] for r in rows], fmt
