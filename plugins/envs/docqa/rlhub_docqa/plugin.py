"""Registers the docqa environments: every world x question kind, page-image variants, long variants.

Ids: docqa/<world>-<kind>-v1 (about 3k tokens), docqa/<world>-<kind>-vision-v1 (PNG pages),
docqa/<world>-<kind>-<length>-v1 (128k or 1m tokens of realistic distractors around the evidence),
and the tool versions of the text and long ones, docqa/<world>-<kind>[-<length>]-tools-v1 (search, read a
page or a section, answer: rlhub_docqa.tools_env).
"""

from __future__ import annotations

from hub import hookimpl
from hub.core.family import register_families

from .questions import KINDS
from .worlds import BUILDERS

# CAGR over temperatures or test runs means nothing, and a contract's fees grow at the escalation its
# terms state (a lookup: a constant 2.5% farmed its CAGR and percent change): those skip them. A loan's tables hold 3-7
# items, too few for a list whose items are at most half of them; a contract's rate card is ordered by
# seniority, so its top rows are a list a positional guess finds. Rankings are over five (lists six)
# rows or more whose names and order vary by document (a growing row's top two periods are its last
# two; a statement of operations ranks the same lines every year): a loan, a datasheet and a set of
# financial statements have none (and an SLA report's five services are too few for a list).
SKIP = {("datasheet", "cagr"), ("testreport", "cagr"), ("contract", "cagr"), ("contract", "percent-change"),
        ("loan", "list"), ("contract", "list"), ("loan", "argmax"), ("financials", "argmax"), ("financials", "list"),
        ("datasheet", "argmax"), ("datasheet", "list"), ("sla", "list")}
VISION_KINDS = ("lookup", "arithmetic")
LONG = {"128k": 128_000, "1m": 1_000_000}
LONG_ENVS = [("financials", "percent-change", "128k"), ("contract", "date", "128k"), ("invoices", "list", "128k"),
             ("financials", "arithmetic", "1m")]


def families():
    """(id format, task kind, families, tags): the text, vision and long-document environments."""
    from .env import DocQAFamily  # the worlds and questions are imported on first use

    text = [DocQAFamily(w, k) for w in BUILDERS for k in KINDS if (w, k) not in SKIP]
    vision = [DocQAFamily(w, k) for w in BUILDERS for k in VISION_KINDS]
    long = {length: [DocQAFamily(w, k, LONG[length]) for w, k, n in LONG_ENVS if n == length] for length in LONG}
    return [("{domain}/{family}-v1", "text", text, ()), ("{domain}/{family}-vision-v1", "vision", vision, ("vision",)),
            *[(f"{{domain}}/{{family}}-{length}-v1", "text", fams, ("long-context",)) for length, fams in long.items()]]


def tool_families():
    """The tool versions: every text and long-document environment's families, the id with
    `-tools` before the version (each the tool twin of the id without it)."""
    return [(id_format.replace("-v1", "-tools-v1"), kind, fams, (*tags, "tools", "multi-turn"))
            for id_format, kind, fams, tags in families() if kind == "text"]


def env_ids(tools: bool = False) -> list[str]:
    ids: list[str] = []
    for id_format, kind, fams, _ in (tool_families() if tools else families()):
        ids += [id_format.format(domain="docqa", family=f.name, kind=kind) for f in fams]
    return ids


@hookimpl
def rlhub_register_envs(register):
    from .tools_env import MAX_TURNS, DocQAToolEnvironment

    for id_format, kind, fams, tags in families():
        register_families(register, fams, domain="docqa", verifier="answer_match", id_format=id_format, kinds=[kind],
                          tags=("docqa", *tags))
    for id_format, kind, fams, tags in tool_families():
        register_families(register, fams, domain="docqa", verifier="answer_match", id_format=id_format, kinds=[kind],
                          tags=("docqa", *tags), environment=DocQAToolEnvironment, max_turns=MAX_TURNS,
                          per_family=lambda fam, kind: {"description": f"{fam.description}, through tools "
                                                        "(search, read a page or section, answer)"})
