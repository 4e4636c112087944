"""Accepted forms of a right answer that every environment gets checked with: the reference
written the other ways models write it. Every verifier reads responses through
hub.core.response, so all of these must earn exactly what the reference earns."""

from __future__ import annotations

from ..core.response import read

THINKING = "<think>\nLet me work through the task step by step before answering.\n</think>\n\n"
TAG_ALIASES = {"python": "py", "py": "python", "bash": "sh", "sh": "bash", "sql": "sqlite"}


def generic_forms(reference: str) -> list[tuple[str, str]]:
    """(what, response) pairs: reasoning first; and for a reference that is one fenced block,
    the same block with tildes, a longer fence, the tag's alias, and prose around it."""
    forms = [("reasoning in <think> first", THINKING + reference)]
    blocks = read(reference).blocks
    if len(blocks) == 1 and blocks[0].closed and reference.strip().startswith(("```", "~~~")):
        block = blocks[0]
        body = block.body if block.body.endswith("\n") else block.body + "\n"
        info = block.info
        forms.append(("tilde fence", f"~~~{info}\n{body}~~~\n"))
        forms.append(("four-backtick fence", f"````{info}\n{body}````\n"))
        if block.tag in TAG_ALIASES:
            forms.append((f"tagged {TAG_ALIASES[block.tag]}", f"```{TAG_ALIASES[block.tag]}{info[len(block.tag):]}\n{body}```\n"))
        forms.append(("prose around the block", f"Here is my solution.\n\n```{info}\n{body}```\n\nThis should do it."))
    return forms
