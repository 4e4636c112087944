"""The plugin hooks rlhub calls. Plugins implement them with `@hub.hookimpl`.

A plugin is any module registered under the entry-point group `rlhub` (as llm and datasette
do), plus the core's own built-ins. Each hook receives a `register` callable bound to the
calling plugin, so every environment and verifier knows which distribution it came from.
"""

import pluggy

hookspec = pluggy.HookspecMarker("rlhub")
hookimpl = pluggy.HookimplMarker("rlhub")


@hookspec
def rlhub_register_envs(register):
    """Register environments: `register(id, factory, *, verifier, ...)` once per environment.

    `factory(env_id) -> Environment` is called lazily, the first time the environment is used,
    so registering hundreds of environments costs nothing at start-up.
    """


@hookspec
def rlhub_register_verifiers(register):
    """Register verifiers by name: `register(VerifierClass)` (the class sets `name` and `Config`)."""


@hookspec
def rlhub_register_profiles(register):
    """Register default sandbox profiles: `register(Profile(...))`. registry.yaml may override them."""


@hookspec
def rlhub_register_presets(register):
    """Register dataset presets: `register(name, dataset={...}, verifier=..., verifier_config={...},
    profile=..., tags=[...], prepare=callable, description=...)`.

    A registry `dataset:` entry naming `preset: NAME` starts from these fields (column map,
    templates, verifier and its config, profile, tags); any field the entry sets itself wins
    (mappings are merged key by key). `prepare(row) -> row` may add derived columns before the
    column map and templates apply (e.g. the first of a JSON list of solutions).
    """


@hookspec
def rlhub_register_commands(subparsers):
    """Add sub-commands to the `rlhub` CLI (argparse sub-parsers), as llm's `register_commands`.

    Each parser should `set_defaults(func=callable(args) -> int exit code)`.
    """
