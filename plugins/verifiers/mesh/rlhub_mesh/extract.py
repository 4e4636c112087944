"""The script inside a model's response: the last ```python block, else the whole response."""

from __future__ import annotations

import re

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_PYTHON_TAGS = {"python", "py", "python3", "cadquery"}


def extract_script(response: str) -> str:
    """Prefer the last python-tagged fence; then the last untagged one; else the whole text."""
    blocks = [(m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(response)]
    tagged = [body for tag, body in blocks if tag in _PYTHON_TAGS]
    if tagged:
        return tagged[-1].strip()
    untagged = [body for tag, body in blocks if not tag]
    if untagged:
        return untagged[-1].strip()
    return response.strip()
