"""A prompt as a person reads it in a terminal: images marked (`[image 1: 640x480 PNG]`), long
documents trimmed, and the images saved to files on request.

Images come from a task's `images` (PNG bytes, in prompt order) or, where a message part carries
one itself, from its data URL; text parts are joined as `Task.prompt_text` joins them.
"""

from __future__ import annotations

import base64
import binascii
import json
import struct
from pathlib import Path
from typing import Any

from ..core.errors import UserError
from ..core.files import atomic_write
from ..core.task import Task

IMAGE_PARTS = ("image", "image_url", "input_image")


def image_size(data: bytes) -> str:
    """'640x480 PNG' from a PNG's header; other bytes are described by their length."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return f"{width}x{height} PNG"
    return f"{len(data)} bytes, not PNG"


def _data_url(part: dict[str, Any]) -> bytes | None:
    url = part.get("image_url")
    url = url.get("url") if isinstance(url, dict) else url
    if isinstance(url, str) and url.startswith("data:") and "," in url:
        try:
            return base64.b64decode(url.split(",", 1)[1], validate=False)
        except (binascii.Error, ValueError):
            return None
    return None


def images(task: Task) -> list[bytes]:
    """The task's images in prompt order: `task.images`, else those embedded in its messages."""
    if task.images:
        return list(task.images)
    found = []
    for message in task.prompt if isinstance(task.prompt, list) else []:
        content = message.get("content")
        for part in content if isinstance(content, list) else []:
            if isinstance(part, dict) and part.get("type") in IMAGE_PARTS:
                data = _data_url(part)
                if data is not None:
                    found.append(data)
    return found


def trim(text: str, max_chars: int) -> str:
    """`text`, or its start and end with a marker saying how much was cut (max_chars 0: all)."""
    if not max_chars or len(text) <= max_chars:
        return text
    head, tail = text[: max_chars * 2 // 3], text[-(max_chars // 3):]
    return f"{head}\n[... {len(text) - len(head) - len(tail):,} characters cut; --max-chars 0 shows all ...]\n{tail}"


def render(task: Task, max_chars: int = 0) -> str:
    """The prompt for a terminal: chat roles, text, and a marker per image."""
    pictures = images(task)
    if isinstance(task.prompt, str):
        return trim(task.prompt, max_chars)
    count = 0
    out = []
    for message in task.prompt:
        content = message.get("content", "")
        parts = content if isinstance(content, list) else [{"type": "text", "text": str(content)}]
        shown = []
        for part in parts:
            if isinstance(part, dict) and part.get("type") in IMAGE_PARTS:
                count += 1
                data = pictures[count - 1] if count <= len(pictures) else _data_url(part)
                shown.append(f"[image {count}: {image_size(data) if data else 'not embedded'}]")
            elif isinstance(part, dict):
                shown.append(trim(str(part.get("text", "")), max_chars))
        out.append(f"[{message.get('role', 'user')}]\n" + "\n".join(shown))
    return "\n\n".join(out)


def save_images(task: Task, folder: str | Path, stem: str) -> list[Path]:
    """Write the task's images as `<stem>-image-<k>.png` in `folder`; returns their paths."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{folder}: is a file; --save-images expects a folder")
    paths = []
    for k, data in enumerate(images(task), 1):
        path = folder / f"{stem}-image-{k}.png"
        atomic_write(path, lambda fh, data=data: fh.write(data), mode="wb")
        paths.append(path)
    return paths


def render_tools(tools: list[dict[str, Any]]) -> str:
    """A prompt's tools for a terminal: each as `name(arg: type, arg?: type = default)` with its
    description and each argument's (the schema itself is in --json)."""
    lines = []
    for entry in tools:
        fn = entry.get("function", entry) if isinstance(entry, dict) else {}
        params = fn.get("parameters") or {}
        props, required = params.get("properties") or {}, set(params.get("required") or [])
        args = []
        for name, prop in props.items():
            kind = prop.get("type") or "|".join(str(o.get("type", "?")) for o in prop.get("anyOf", [])) or "any"
            default = f" = {json.dumps(prop['default'])}" if "default" in prop else ""
            args.append(f"{name}{'' if name in required else '?'}: {kind}{default}")
        lines.append(f"{fn.get('name', '?')}({', '.join(args)})" + (f": {fn['description']}" if fn.get("description") else ""))
        lines += [f"    {name}: {prop['description']}" for name, prop in props.items() if prop.get("description")]
    return "\n".join(lines)
