"""The script inside a model's response, read with rlhub's one response parser: the last python
block, else the last untagged one, else a bare script (reasoning in <think> never counts)."""

from __future__ import annotations

from hub.core.response import read


def extract_script(response: str) -> str:
    return (read(response).code("python") or "").strip()
