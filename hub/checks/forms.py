"""Accepted forms of a right answer that every environment gets checked with: the reference
written the other ways models write it. Every verifier reads responses through
hub.core.response, so all of these must earn exactly what the reference earns."""

from __future__ import annotations

from ..core.response import fence_for, fenced, read

THINKING = "<think>\nLet me work through the task step by step before answering.\n</think>\n\n"
TAG_ALIASES = {"python": "py", "py": "python", "bash": "sh", "sh": "bash", "sql": "sqlite"}


def generic_forms(reference: str) -> list[tuple[str, str]]:
    """(what, response) pairs: reasoning first; the reference with CRLF line ends; and for a
    reference that is one fenced block, the same block with tildes, a longer fence, the tag's
    alias, and prose around it."""
    forms = [("reasoning in <think> first", THINKING + reference)]
    if "\n" in reference:
        forms.append(("CRLF line ends", reference.replace("\n", "\r\n")))
    blocks = read(reference).blocks
    if len(blocks) == 1 and blocks[0].closed and reference.strip().startswith(("```", "~~~")):
        block = blocks[0]
        body = block.body if block.body.endswith("\n") else block.body + "\n"
        info = block.info
        # each fence longer than any run of its character inside (a diff of a README has its own ```)
        ticks = fence_for(body)
        forms.append(("tilde fence", fenced(body, info, "~")))
        longer = fence_for(body, "`", max(4, len(ticks) + 1))
        forms.append(("longer fence", f"{longer}{info}\n{body}{longer}\n"))
        if block.tag in TAG_ALIASES:
            forms.append((f"tagged {TAG_ALIASES[block.tag]}", f"{ticks}{TAG_ALIASES[block.tag]}{info[len(block.tag):]}\n{body}{ticks}\n"))
        forms.append(("prose around the block", f"Here is my solution.\n\n{ticks}{info}\n{body}{ticks}\n\nThis should do it."))
    return forms

