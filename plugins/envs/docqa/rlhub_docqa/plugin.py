"""Registers the docqa environments: every world x question kind, page-image variants, long variants.

Ids: docqa/<world>-<kind>-v1 (about 3k tokens), docqa/<world>-<kind>-vision-v1 (PNG pages),
docqa/<world>-<kind>-<length>-v1 (128k or 1m tokens of realistic distractors around the evidence).
"""

from __future__ import annotations

from hub import hookimpl

from .questions import KINDS
from .worlds import BUILDERS

# CAGR over temperatures or test runs means nothing: those worlds skip it.
NO_GROWTH = {"datasheet", "testreport"}
VISION_KINDS = ("lookup", "arithmetic")
LONG = {"128k": 128_000, "1m": 1_000_000}
LONG_ENVS = [("financials", "percent-change", "128k"), ("contract", "date", "128k"), ("invoices", "list", "128k"),
             ("financials", "arithmetic", "1m")]


def env_ids() -> list[tuple[str, dict]]:
    out = []
    for world in BUILDERS:
        for kind in KINDS:
            if kind == "cagr" and world in NO_GROWTH:
                continue
            out.append((f"docqa/{world}-{kind}-v1", {"world": world, "kind": kind}))
        for kind in VISION_KINDS:
            out.append((f"docqa/{world}-{kind}-vision-v1", {"world": world, "kind": kind, "vision": True}))
    for world, kind, length in LONG_ENVS:
        out.append((f"docqa/{world}-{kind}-{length}-v1", {"world": world, "kind": kind, "target_tokens": LONG[length]}))
    return out


def _factory(params: dict):
    def make(env_id: str, **env_config):
        """env_config (from registry.yaml) overrides, e.g. `env_config: {target_tokens: 32000}`."""
        from .env import DocQA  # imported on first use: registering costs nothing

        return DocQA(env_id, **{**params, **env_config})

    return make


@hookimpl
def rlhub_register_envs(register):
    for env_id, params in env_ids():
        tags = ("docqa", "long-context" if "target_tokens" in params else "", "vision" if params.get("vision") else "")
        register(env_id, _factory(params), verifier="answer_match", domain="docqa",
                 tags=tuple(t for t in tags if t),
                 description=f"{params['kind']} question over a generated {params['world']} document")
