"""rlhub hooks: the `ruff`, `mypy`, `bandit` and `shellcheck` verifiers and the `static` profile."""

from hub import hookimpl
from hub.sandbox.profile import Profile

from .bandit import Bandit
from .mypy import Mypy
from .ruff import Ruff
from .shellcheck import ShellCheck

# The analysers never run the model's code, but the code decides how long they take and how much
# they print: these limits bound both (a hang or a flood is a named verdict, not a stuck worker).
STATIC_PROFILE = Profile(
    name="static",
    wall_timeout_s=30.0,
    cpu_s=30,
    memory_mb=1024,
    max_procs=64,           # ruff analyses in threads
    file_size_mb=16,
    open_files=256,
    output_bytes=1 << 20,   # reports are JSON: a big module's findings fit, a flood does not
    tmpfs_mb=64,
)


@hookimpl
def rlhub_register_verifiers(register):
    for cls in (Ruff, Mypy, Bandit, ShellCheck):
        register(cls)


@hookimpl
def rlhub_register_profiles(register):
    register(STATIC_PROFILE)
