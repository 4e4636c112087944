"""rlhub hooks: the `mesh_iou` verifier and the `cadquery` sandbox profile."""

from __future__ import annotations

from hub import hookimpl
from hub.sandbox.profile import Profile

from .verifier import MeshIoU

# CadQuery's import takes seconds, so the warm worker preloads it (and the runner, which builds
# nothing at import: forking after any OCC geometry operation deadlocks the child). numpy.random
# too: the sandbox reseeds it in every task, and importing it there costs each task ~12 ms. A bad
# script can eat all memory (CadQuery issue 1665): the memory limit is a cgroup where available.
CADQUERY_PROFILE = Profile(
    name="cadquery",
    wall_timeout_s=20,
    cpu_s=20,
    memory_mb=2048,
    max_procs=64,
    file_size_mb=16,
    tmpfs_mb=64,
    output_bytes=65536,
    preload=("cadquery", "numpy.random", "rlhub_mesh.runner"),
    recycle_after=200,
)


@hookimpl
def rlhub_register_verifiers(register):
    register(MeshIoU)


@hookimpl
def rlhub_register_profiles(register):
    register(CADQUERY_PROFILE)
