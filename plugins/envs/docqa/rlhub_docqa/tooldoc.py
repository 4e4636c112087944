"""A long document as the tool kinds show it: pages to read, titled sections, and a keyword search.

The document is the text kind's sections in order, cut into pages of about PAGE_CHARS characters
(a section that starts late on a page starts a new one, as a typeset report's would; a page that
starts inside a section carries a running header naming it). The search is BM25 (`bm25s`) over
the document's lines, each indexed with its section's title, so that a query naming a table and a
row finds that row of that table and not the same row of another company's. Every answer is
bounded (results, characters) and deterministic: ties rank in document order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from hub.tools import ToolError

from .render import Section

PAGE_CHARS = 3000
NEW_PAGE_AT = 0.7  # a section starting past this share of a page starts on the next one
SEARCH_RESULTS = 8
SEARCH_LINE_CHARS = 240
MAX_QUERY_CHARS = 1000
MAX_QUERY_WORDS = 64
MAX_SECTION_CHARS = 6000
SECTION_CHOICES = 10  # titles listed when a name matches several

_TAG = re.compile(r"<[^>]{0,200}>")
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    """Lower-case runs of letters and digits, HTML tags left out ("6,746" is "6" and "746")."""
    return _WORD.findall(_TAG.sub(" ", text).casefold())


def _norm(name: str) -> str:
    return " ".join(name.casefold().strip().strip("\"'`").split())


@dataclass(frozen=True)
class Line:
    text: str
    page: int  # from 1
    section: int  # index into ToolDocument.sections


class ToolDocument:
    """Pages, sections and a search over one document (immutable: episodes share it)."""

    def __init__(self, sections: list[Section], style: str, page_chars: int = PAGE_CHARS) -> None:
        self.sections = list(sections)
        self.lines: list[Line] = []
        self.pages: list[list[Line]] = [[]]
        used = 0
        for i, section in enumerate(self.sections):
            if used > page_chars * NEW_PAGE_AT:
                self.pages.append([])
                used = 0
            for raw in section.text(style).split("\n"):
                for piece in [raw[k:k + page_chars] for k in range(0, len(raw), page_chars)] or [""]:
                    if used and used + len(piece) + 1 > page_chars:
                        self.pages.append([])
                        used = 0
                    line = Line(piece, len(self.pages), i)
                    self.pages[-1].append(line)
                    self.lines.append(line)
                    used += len(piece) + 1
        self.section_pages = [(0, 0)] * len(self.sections)
        for line in self.lines:
            first, _ = self.section_pages[line.section]
            self.section_pages[line.section] = (first or line.page, line.page)

    @property
    def page_count(self) -> int:
        return len(self.pages)

    @property
    def chars(self) -> int:
        return sum(len(line.text) + 1 for line in self.lines)

    def pages_of(self, section: int) -> list[int]:
        first, last = self.section_pages[section]
        return list(range(first, last + 1))

    # -- reading --------------------------------------------------------------------------------
    def read_page(self, page: int) -> str:
        if not 1 <= page <= self.page_count:
            raise ToolError(f"there is no page {page}: the pages are numbered 1 to {self.page_count}")
        lines = self.pages[page - 1]
        head = f"[page {page} of {self.page_count}]"
        if lines and self.section_pages[lines[0].section][0] < page:
            head += f"\n({self.sections[lines[0].section].title}, continued)"
        return head + "\n" + "\n".join(line.text for line in lines).strip("\n") + f"\n[end of page {page}]"

    def find_sections(self, name: str) -> list[int]:
        """The sections titled `name` (case and spacing aside), else those whose title contains it."""
        want = _norm(name)
        if not want:
            raise ToolError("the section name is empty: give a section's title, as search results show it")
        titles = [_norm(s.title) for s in self.sections]
        exact = [i for i, t in enumerate(titles) if t == want]
        return exact or [i for i, t in enumerate(titles) if want in t]

    def read_section(self, name: str) -> str:
        found = self.find_sections(name)
        if not found:
            raise ToolError(f"no section is titled {name[:120]!r} or has it in its title: search for words of it "
                            "(each search result names its section)")
        titles = list(dict.fromkeys(self.sections[i].title for i in found))
        if len(titles) > 1:
            shown = "; ".join(f"{t!r}" for t in titles[:SECTION_CHOICES])
            more = f" and {len(titles) - SECTION_CHOICES} more" if len(titles) > SECTION_CHOICES else ""
            raise ToolError(f"{len(titles)} sections have {name[:120]!r} in their title: {shown}{more}; "
                            "give one title in full")
        parts, left = [], MAX_SECTION_CHARS
        for n, i in enumerate(found):
            pages = self.pages_of(i)
            where = f"page {pages[0]}" if len(pages) == 1 else f"pages {pages[0]}-{pages[-1]}"
            body = "\n".join(line.text for line in self.lines if line.section == i).strip("\n")
            text = f"[section {self.sections[i].title!r}, {where}]\n{body}"
            if len(text) > left:
                parts.append(text[:left] + f"\n[... cut: read {where} for the rest"
                             + (f"; {len(found) - n - 1} more section(s) of this title follow" if n + 1 < len(found) else "")
                             + "]")
                break
            parts.append(text)
            left -= len(text)
        return "\n\n".join(parts)

    # -- search ---------------------------------------------------------------------------------
    @cached_property
    def _index(self):
        """(the BM25 index, the line each of its entries is): lines with words only."""
        import bm25s  # imported on the first search: registering and prompting stay cheap

        titles = [words(s.title) for s in self.sections]
        tokens = [(k, words(line.text)) for k, line in enumerate(self.lines)]
        tokens = [(k, ws) for k, ws in tokens if ws]
        index = bm25s.BM25()
        index.index([titles[self.lines[k].section] + ws for k, ws in tokens], show_progress=False)
        return index, [k for k, _ in tokens]

    def search(self, query: str, results: int = SEARCH_RESULTS) -> str:
        if len(query) > MAX_QUERY_CHARS:
            raise ToolError(f"the query is {len(query)} characters; a query has at most {MAX_QUERY_CHARS} characters")
        terms = words(query)
        if not terms:
            raise ToolError("the query has no words to search for: give a few keywords (a table's title, a row's name)")
        if len(terms) > MAX_QUERY_WORDS:
            raise ToolError(f"the query has {len(terms)} words; a query has at most {MAX_QUERY_WORDS} words")
        index, searchable = self._index
        scores = index.get_scores(list(dict.fromkeys(terms)))
        # rounded, so that ties (the same line printed twice) rank in document order on any machine
        ranked = sorted((-round(float(s), 4), k) for k, s in zip(searchable, scores) if s > 0)
        if not ranked:
            return f"no line matches {query[:120]!r}: try other words"
        lines = [self.lines[k] for _, k in ranked[:results]]
        out = [f"{len(ranked)} matching line(s) for {query[:120]!r}, best first"
               + (f" (the first {results} shown)" if len(ranked) > results else "") + ":"]
        for line in lines:
            text = line.text.strip()
            text = text if len(text) <= SEARCH_LINE_CHARS else text[:SEARCH_LINE_CHARS] + " [...]"
            out.append(f"p. {line.page} [{self.sections[line.section].title}] {text}")
        return "\n".join(out)
