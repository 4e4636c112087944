"""MCP front ends of episodes (the official `mcp` SDK): one episode's tools over stdio
(`rlhub mcp ENV --seed S`) and streamable HTTP in `rlhub serve` (one MCP session per episode)."""
