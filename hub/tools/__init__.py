"""Tool calling: typed tools an episode offers (schema), the formats models write calls in
(formats), the episode front end that runs them (episode), and the MCP server (mcp_server)."""

from .schema import (MAX_CALLS_PER_TURN, Tool, ToolBox, ToolCall, ToolError, ToolOutput, ToolResult,
                     tool, tools_of)

__all__ = ["MAX_CALLS_PER_TURN", "Tool", "ToolBox", "ToolCall", "ToolError", "ToolOutput", "ToolResult",
           "tool", "tools_of"]
