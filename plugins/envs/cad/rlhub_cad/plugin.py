"""Hook implementations: one environment per (family, kind), `cad/<family>-<kind>-v1`, and the
tool versions of the text kinds, `cad/<family>-<kind>-tools-v1` (tools.py)."""

from __future__ import annotations

from hub import hookimpl

from .families import FAMILIES
from .kinds import KINDS

LEVEL_TAGS = {"abstract": "text2cad", "dimensioned": "text2cad", "steps": "text2cad",
              "edit": "cad-edit", "repair": "cad-repair", "image": "image2cad"}
TOOL_KINDS = ("dimensioned", "abstract")  # tools.TOOL_KINDS (not imported: registering stays free)


def env_ids() -> list[str]:
    return [f"cad/{fam.name}-{kind}-v1" for fam in FAMILIES for kind in KINDS]


def tool_env_ids() -> list[str]:
    return [f"cad/{fam.name}-{kind}-tools-v1" for fam in FAMILIES for kind in TOOL_KINDS]


@hookimpl
def rlhub_register_envs(register):
    for fam in FAMILIES:
        for kind in KINDS:
            def factory(env_id, fam=fam, kind=kind):
                from .env import CadEnvironment  # imported on first use: registering stays free
                return CadEnvironment(env_id, fam, kind)

            register(f"cad/{fam.name}-{kind}-v1", factory, verifier="mesh_iou", profile="cadquery", domain="cad",
                     tags=("cad", LEVEL_TAGS[kind], *(("vision",) if kind == "image" else ())),
                     description=f"{fam.noun}: {kind}")
        for kind in TOOL_KINDS:
            def tool_factory(env_id, fam=fam, kind=kind):
                from .tools import CadToolEnvironment
                return CadToolEnvironment(env_id, fam, kind)

            register(f"cad/{fam.name}-{kind}-tools-v1", tool_factory, verifier="mesh_iou", profile="cadquery",
                     domain="cad", max_turns=8, tags=("cad", LEVEL_TAGS[kind], "multi-turn", "tools"),
                     description=f"{fam.noun}: {kind}, built through tools (build, submit)")
