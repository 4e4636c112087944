"""rlhub hooks: the `unit_tests` verifier and the `pytest` sandbox profile."""

from hub import hookimpl
from hub.sandbox.profile import Profile

from .verifier import UnitTests

PYTEST_PROFILE = Profile(
    name="pytest",
    wall_timeout_s=20.0,      # the harness keeps ~15% of it to report; a hung test costs 40% at most
    cpu_s=15,
    memory_mb=1024,
    max_procs=64,             # per-test children, plus what bash/sql tests start
    file_size_mb=16,
    open_files=256,
    output_bytes=65536,
    tmpfs_mb=64,
    preload=("pytest", "_pytest.assertion.rewrite", "msgpack", "rlhub_unittest.harness", "rlhub_unittest.warm"),
    recycle_after=200,
)


@hookimpl
def rlhub_register_verifiers(register):
    register(UnitTests)


@hookimpl
def rlhub_register_profiles(register):
    register(PYTEST_PROFILE)


@hookimpl
def rlhub_register_presets(register):
    from .presets import register_all

    register_all(register)
