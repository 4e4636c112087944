"""`rlhub reference --turns DIR` writes the reference as the turns a model plays, and the `rlhub
play` command it prints plays them to the reference's reward: for a tool environment, a text
session (its file written, then SUBMIT) and a single-turn environment."""

from __future__ import annotations

import json
import shlex

import pytest

from hub.cli import main


@pytest.mark.parametrize("env", ["arith/guess-tools-v1", "terminal/session-word-frequency-v1", "arith/add-v1"])
def test_reference_turns_play_to_full_reward(env, tmp_path, capsys):
    label = json.dumps({"env": env, "seed": 0})
    assert main(["reference", "--label", label, "--turns", str(tmp_path / "ref"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["turns"] and all((tmp_path / "ref" / f"turn-{i}.txt").exists() for i in range(1, len(out["turns"]) + 1))
    play = shlex.split(out["play"])
    assert play[:2] == ["rlhub", "play"]
    capsys.readouterr()
    main([*play[1:], "--json"])
    played = json.loads(capsys.readouterr().out)
    assert played["verdict"]["reward"] == 1.0 and played["verdict"]["passed"]


def test_an_unwritable_turns_folder_is_named(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    rc = main(["reference", "--label", '{"env": "arith/add-v1", "seed": 0}', "--turns", str(tmp_path / "file" / "sub")])
    assert rc == 2 and "--turns" in capsys.readouterr().err
