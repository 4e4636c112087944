"""`rlhub mcp`: one episode's tools over stdio. The episode lives as long as the client's
connection: when the client disconnects (stdin closes) the episode is closed (its sandbox
freed) and the verdict is printed as one JSON line on stderr (and written to `verdict_file`,
as soon as the episode ends)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp.server.stdio import stdio_server

from ..core.errors import UserError
from .tools import EpisodeTools, episode_server


def tool_episode(catalog: Any, label: Any):
    """The label's episode, reset; UserError if its environment offers no tools."""
    episode = catalog.episode(label)
    if not hasattr(episode, "tool_schemas"):
        episode.close()
        raise UserError(f"{label.env} is not a tool environment (its episode declares no tools): "
                        "MCP serves tool environments, e.g. arith/guess-tools-v1")
    try:
        prompt = episode.reset()
        return episode, prompt
    except BaseException:
        episode.close()
        raise


def serve_stdio(catalog: Any, label: Any, verdict_file: str | None = None) -> dict[str, Any]:
    """Serve the episode until the client disconnects; the verdict's summary (or {"done": false})."""
    episode, prompt = tool_episode(catalog, label)
    ended: dict[str, Any] = {}

    def on_end(summary: dict[str, Any] | None) -> None:
        ended["verdict"] = summary
        if verdict_file:
            try:
                Path(verdict_file).write_text(json.dumps(summary) + "\n")
            except OSError as exc:  # the client still gets its verdict; the operator reads stderr
                print(f"rlhub: warning: --verdict-file {verdict_file}: {exc}", file=sys.stderr, flush=True)

    tools = EpisodeTools(label=label.to_json(), prompt=prompt, schemas=episode.tool_schemas(),
                         step=episode.step, on_end=on_end)
    server = episode_server(tools)

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        episode.close()
    summary = ended.get("verdict") if ended else None
    out = {"label": label.to_json(), "done": bool(ended), "calls": tools.calls, "verdict": summary}
    print(json.dumps(out), file=sys.stderr, flush=True)
    return out
