"""One episode's tools as an MCP server (the SDK's low-level `Server`: tools are per episode).

`tools/list` lists the episode's ToolBox schemas; `tools/call` runs one step with that one call
(`episode.step([ToolCall(...)])`: each MCP call is one turn of the episode, so the environment's
turn budget applies) and answers its result as MCP content (text, images as ImageContent; a call
the model got wrong as an `isError` result that says what was wrong). The call that ends the
episode also carries the verdict (a text block `verdict: {...}` and `structuredContent.verdict`);
every call after it is an error. The task's prompt is the server's `instructions` and the
resource `rlhub://task`; the verdict is the resource `rlhub://verdict` (for the operator, or a
client that wants it again). Steps block (sandboxes), so they run in a worker thread, one at a
time per episode.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any, Callable

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server

from ..core.env import Step
from ..tools.schema import ToolCall

VERDICT_URI = "rlhub://verdict"
TASK_URI = "rlhub://task"


def verdict_summary(step: Step | None) -> dict[str, Any] | None:
    """The verdict as the MCP client sees it (hub.serve.episodes.client_verdict: reward, passed,
    error, tool counts; never what it was compared against)."""
    from ..serve.episodes import client_verdict

    if step is None or step.verdict is None:
        return None
    return client_verdict(step.verdict)


def operator_verdict(step: Step | None) -> dict[str, Any] | None:
    """The whole verdict, details included, for the operator (`rlhub mcp --verdict-file`, its stderr)."""
    if step is None or step.verdict is None:
        return None
    v = step.verdict.to_dict()
    out = {"reward": v["reward"], "passed": v["passed"], "details": v["details"]}
    if v.get("error"):
        out["error"] = v["error"]
    return json.loads(json.dumps(out, default=str))


@dataclass
class EpisodeTools:
    """What an MCP server needs of an episode: its prompt and schemas, and a blocking `step(calls)`
    (the episode's own, or the service's EpisodeHost's for it). `on_end(summary)` is called once,
    when the episode ends with its verdict."""

    label: str
    prompt: str
    schemas: list[dict[str, Any]]
    step: Callable[[list[ToolCall]], Step]
    on_end: Callable[[dict[str, Any] | None], None] = lambda summary: None
    final: Step | None = None
    calls: int = 0
    _lock: anyio.Lock = field(default_factory=anyio.Lock)

    def mcp_tools(self) -> list[types.Tool]:
        tools = []
        for schema in self.schemas:
            fn = schema["function"]
            tools.append(types.Tool(name=fn["name"], description=fn.get("description") or None,
                                    input_schema=fn.get("parameters") or {"type": "object", "properties": {}}))
        return tools

    async def call(self, name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        async with self._lock:  # one step at a time: calls a client sends at once run in turn
            if self.final is not None:
                return error_result("the episode has ended (its verdict was given with the call that ended it, "
                                    f"and is at {VERDICT_URI}); this call was not run")
            self.calls += 1
            call = ToolCall(name=name, arguments=arguments if arguments is not None else {}, id=f"call_{self.calls}")
            try:
                step = await anyio.to_thread.run_sync(self.step, [call])
            except Exception as exc:  # noqa: BLE001 - the host's refusal (episode reaped), said to the client
                return error_result(str(exc))
            if step.done:
                self.final = step
                self.on_end(operator_verdict(step))  # the operator's: whole
            return call_result(step)

    def read(self, uri: str) -> str:
        if uri == TASK_URI:
            return self.prompt
        if uri == VERDICT_URI:
            summary = verdict_summary(self.final)
            return json.dumps(summary if summary is not None else {"done": False, "calls": self.calls})
        raise ValueError(f"no resource {uri[:200]!r} (there are {TASK_URI} and {VERDICT_URI})")


def error_result(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"error: {message}")], is_error=True)


def call_result(step: Step) -> types.CallToolResult:
    """One step of one call as MCP content: the call's result, and the verdict when the step ended it."""
    content: list[Any] = []
    is_error = False
    for r in step.tool_results:
        content.append(types.TextContent(type="text", text=r.content))
        content += [types.ImageContent(type="image", data=base64.b64encode(png).decode("ascii"), mime_type="image/png")
                    for png in r.images]
        is_error = is_error or r.is_error
    for note in step.notes:
        content.append(types.TextContent(type="text", text=note))
    if not content:
        content.append(types.TextContent(type="text", text=step.observation or "(no result)"))
    structured = None
    summary = verdict_summary(step) if step.done else None
    if summary is not None:
        if summary.get("error"):
            content.append(types.TextContent(type="text", text=f"the episode ended without a verdict: {summary['error']}"))
            is_error = True
        else:
            content.append(types.TextContent(type="text", text="verdict: " + json.dumps(summary)))
        structured = {"verdict": summary}
    return types.CallToolResult(content=content, is_error=is_error, structured_content=structured)


def episode_server(tools: EpisodeTools) -> Server:
    """The MCP server of one episode."""

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools.mcp_tools())

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await tools.call(params.name, params.arguments)

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[
            types.Resource(name="task", uri=TASK_URI, mime_type="text/plain", description="the task's prompt"),
            types.Resource(name="verdict", uri=VERDICT_URI, mime_type="application/json",
                           description="the episode's verdict once it has ended (reward, passed, details)")])

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        mime = "text/plain" if uri == TASK_URI else "application/json"
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=tools.read(uri))])

    return Server(f"rlhub {tools.label}", version=_version(), instructions=tools.prompt,
                  on_list_tools=list_tools, on_call_tool=call_tool,
                  on_list_resources=list_resources, on_read_resource=read_resource)


def _version() -> str:
    from ..core import __version__

    return __version__
