"""The code a response submits, read with rlhub's one response parser (hub.core.response)."""

from __future__ import annotations

from typing import Callable

from hub.core.response import LANGUAGE_TAGS, CodeMode as Mode, python_parses, read

__all__ = ["LANGUAGE_TAGS", "Mode", "extract_code", "python_parses"]


def extract_code(response: str, language: str = "python", mode: Mode = "auto",
                 parses: Callable[[str], bool] | None = None, prefer: Callable[[str], bool] | None = None) -> str | None:
    """See `hub.core.response.Response.code`."""
    return read(response).code(language, mode, parses, prefer)
