"""`rlhub mcp ENV --seed S`: one episode's tools over stdio, driven by the SDK's own stdio client."""

from __future__ import annotations

import json
import os
import sys

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from .helpers import TOOL_ENVS, check_ended, play_reference, reference_calls


def server_params(env_id: str, seed: int, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "hub.cli", "mcp", env_id, "--seed", str(seed), *extra],
                                 env=dict(os.environ))


@pytest.mark.parametrize("env_id,seed", TOOL_ENVS)
def test_an_episode_over_stdio_to_its_verdict(default_catalog, tmp_path, env_id, seed):
    calls = reference_calls(default_catalog, env_id, seed)
    verdict_file = tmp_path / "verdict.json"
    errlog = open(tmp_path / "stderr.txt", "w+")
    task = default_catalog.task(default_catalog.get(env_id).label(seed))

    async def main():
        async with stdio_client(server_params(env_id, seed, "--verdict-file", str(verdict_file)), errlog=errlog) as (r, w):
            async with ClientSession(r, w) as session:
                init = await session.initialize()
                assert init.instructions == task.prompt_text()  # the prompt comes with the handshake
                result = await play_reference(session, calls)
                verdict = await check_ended(session, calls, result)
                whole = json.loads(verdict_file.read_text())  # the operator's, written when the episode ended
                assert (whole["reward"], whole["passed"]) == (verdict["reward"], verdict["passed"])
                assert set(verdict["details"]) <= {"tools", "episode"} <= set(whole["details"]) | {"tools", "episode"}
                return verdict

    verdict = anyio.run(main)
    errlog.seek(0)
    last = json.loads(errlog.read().strip().splitlines()[-1])  # printed once the client disconnected
    assert last["done"] is True and last["verdict"] == json.loads(verdict_file.read_text()) and last["label"] == json.dumps({"env": env_id, "seed": seed})


def test_a_text_environment_is_refused_before_serving(capsys):
    from hub.cli.main import main

    assert main(["mcp", "arith/guess-v1", "--seed", "0"]) == 2
    assert "not a tool environment" in capsys.readouterr().err
