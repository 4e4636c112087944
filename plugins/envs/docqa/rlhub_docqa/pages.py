"""Page images (PNG, Pillow) of a plain-text document, for vision-language models.

Plain-text tables are column-aligned, so a monospaced font keeps them readable; DejaVu Sans Mono
(Debian fonts-dejavu-core) is used when present, else Pillow's built-in font.
"""

from __future__ import annotations

import io
import textwrap
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

PAGE_W, PAGE_H, MARGIN, FONT_SIZE, LINE_H = 1240, 1754, 60, 18, 24  # A4 at 150 dpi
COLS = (PAGE_W - 2 * MARGIN) // 11  # characters per line at this font size
ROWS = (PAGE_H - 2 * MARGIN) // LINE_H
_FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "DejaVuSansMono.ttf")


@lru_cache(maxsize=1)
def font() -> ImageFont.ImageFont:
    for path in _FONTS:
        try:
            return ImageFont.truetype(path, FONT_SIZE)
        except OSError:
            continue
    return ImageFont.load_default(FONT_SIZE)


def layout(text: str) -> list[list[str]]:
    lines: list[str] = []
    for line in text.splitlines():
        lines += textwrap.wrap(line, COLS, replace_whitespace=False, drop_whitespace=False) or [""]
    return [lines[i:i + ROWS] for i in range(0, len(lines), ROWS)] or [[]]


def render_pages(text: str, max_pages: int = 8) -> list[bytes]:
    pages = []
    for number, lines in enumerate(layout(text)[:max_pages], 1):
        img = Image.new("L", (PAGE_W, PAGE_H), 255)
        draw = ImageDraw.Draw(img)
        for i, line in enumerate(lines):
            draw.text((MARGIN, MARGIN + i * LINE_H), line, fill=0, font=font())
        draw.text((PAGE_W // 2 - 20, PAGE_H - MARGIN // 2 - 10), f"- {number} -", fill=96, font=font())
        buf = io.BytesIO()
        img.save(buf, "PNG", optimize=False)
        pages.append(buf.getvalue())
    return pages
