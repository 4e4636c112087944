"""A rubric as written (registry entry or plugin default) resolved into a `Rubric` verifier:
every component's verifier known and its config valid, gates and `pass` naming components,
no gate cycle. Errors name the registry's file and line and suggest close matches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.errors import RegistryError
from ..core.rubric import Rubric, RubricSpec
from ..core.rubric_parts import Part
from ..core.verifier import VerifierIdentity

if TYPE_CHECKING:
    from ..plugins.specs import EnvSpec
    from .catalog import Catalog


def resolve_rubric(cat: "Catalog", rubric: RubricSpec, env: "EnvSpec", index: int, *, written: bool,
                   refine: dict[str, Any] | None = None) -> tuple[Rubric, VerifierIdentity]:
    """The rubric of registry entry `index`: `written` there, or the environment's own default
    (from its plugin). `refine`: the entry's `verifier_config`, for the environment's main verifier."""
    at_entry = ("environments", index)
    field = f"environments[{index}]" if written else f"environments[{index}]: the rubric of {env.id} ({env.distribution})"

    def loc(*rest: Any) -> tuple:
        return (*at_entry, *rest) if written else at_entry

    problems = rubric.problems()
    if problems:
        raise RegistryError("\n".join(f"{cat.registry.where(*loc(*rel))}: {field}.{text}" for rel, text in problems))
    if refine and env.verifier not in {c.verifier for c in rubric.components}:
        raise RegistryError(f"{cat.registry.where(*at_entry)}: {field}: verifier_config refines {env.verifier!r}, "
                            "which is not in the rubric: write a `rubric:` with each component's config instead")
    parts = []
    for j, comp in enumerate(rubric.components):
        # A component of the environment's main verifier starts from the environment's config for it.
        config = {**(env.verifier_config if comp.verifier == env.verifier else {}), **comp.config}
        if refine and comp.verifier == env.verifier:
            config.update(refine)
        verifier, identity = cat.verifier_for(env, comp.verifier, config, loc("rubric", j, "verifier"),
                                              loc("rubric", j, "config"), f"{field}.rubric[{j}].verifier",
                                              f"{field}.rubric[{j}].config")
        profile = None
        if comp.profile is not None:
            profile = cat.profile_named(comp.profile, loc("rubric", j, "profile"), f"{field}.rubric[{j}].profile")
        parts.append(Part(comp.key, verifier, identity, comp.weight, comp.gates, profile))
    resolved = rubric.model_copy(update={"components": [
        c.model_copy(update={"config": p.verifier.config.model_dump(mode="json")}) for c, p in zip(rubric.components, parts)]})
    composite = Rubric(resolved, parts)
    return composite, composite.identity
