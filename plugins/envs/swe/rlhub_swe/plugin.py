"""rlhub hooks: the `swe/*` environments, the `swe_tests` verifier, the `swe` sandbox profile and
the `swebench` dataset preset."""

from __future__ import annotations

from hub import hookimpl
from hub.sandbox.profile import Profile

SWE_PROFILE = Profile(
    name="swe",
    wall_timeout_s=20.0,    # the harness keeps ~15% to report; a test that hangs costs 40% at most
    cpu_s=20,
    memory_mb=1024,
    max_procs=64,
    file_size_mb=16,
    open_files=256,
    output_bytes=65536,
    tmpfs_mb=128,           # a repository of a few MB, its caches, what the model's session writes
    preload=("pytest", "_pytest.assertion.rewrite", "msgpack", "rlhub_unittest.harness", "rlhub_unittest.warm"),
    recycle_after=200,
)


@hookimpl
def rlhub_register_verifiers(register):
    from .verifier import SweTests

    register(SweTests)


@hookimpl
def rlhub_register_profiles(register):
    register(SWE_PROFILE)


@hookimpl
def rlhub_register_envs(register):
    from .envs import register_all

    register_all(register)


@hookimpl
def rlhub_register_presets(register):
    from .swebench import register_preset

    register_preset(register)


@hookimpl
def rlhub_register_commands(subparsers):
    from .cli import register

    register(subparsers)
