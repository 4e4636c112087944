"""Playing a tool environment's reference through an MCP client session (the SDK's own client)."""

from __future__ import annotations

import json
from typing import Any

# The tool environments every MCP test plays to a verdict, over both transports. Adding one (a CAD,
# a swe tool environment) is one entry here.
TOOL_ENVS = [("arith/guess-tools-v1", 3), ("cad/plate-holes-dimensioned-tools-v1", 0), ("swe/cli-bug-off-by-one-session-tools-v1", 0)]


def reference_calls(catalog: Any, env_id: str, seed: int) -> list[Any]:
    """The reference's tool calls, turn after turn, flattened (each MCP call is one turn)."""
    renv = catalog.get(env_id)
    task = catalog.task(renv.label(seed))
    return [call for turn in renv.env.tool_turns(task) for call in turn]


def verdict_of(result: Any) -> dict[str, Any] | None:
    return (result.structured_content or {}).get("verdict")


async def play_reference(session: Any, calls: list[Any]) -> Any:
    """Call each reference call; the last result (the one carrying the verdict)."""
    tools = {t.name for t in (await session.list_tools()).tools}
    result = None
    for call in calls:
        assert call.name in tools
        result = await session.call_tool(call.name, call.arguments)
        assert not result.is_error, result.content
        if verdict_of(result) is not None:
            break
    return result


async def check_ended(session: Any, calls: list[Any], result: Any) -> dict[str, Any]:
    """The verdict came with the last call (full reward), reads back at rlhub://verdict, and a
    call after the end is an error that runs nothing."""
    verdict = verdict_of(result)
    assert verdict is not None and verdict["reward"] == 1.0 and verdict["passed"] is True, result.content
    # The client sees the reward and its tool counts, never what it was compared against.
    assert set(verdict["details"]) <= {"tools", "episode"}, verdict["details"]
    assert any(c.text.startswith("verdict: ") for c in result.content if c.type == "text")
    read = await session.read_resource("rlhub://verdict")
    assert json.loads(read.contents[0].text) == verdict
    again = await session.call_tool(calls[-1].name, calls[-1].arguments)
    assert again.is_error and "has ended" in again.content[0].text
    return verdict
