"""Sandbox profiles: the limits under which model output runs, named in registry.yaml."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Mount(BaseModel):
    """A host path made visible read-only inside the sandbox; `src` may be a pinned asset URL
    (`s3://bucket/pages.tar#sha256=HEX`), fetched into the asset cache and bound from there."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    src: str
    dst: str

    @field_validator("src")
    @classmethod
    def _pinned(cls, v: str) -> str:
        from ..assets import pinned

        return pinned(v)

    def host_path(self) -> str:
        """`src` on this machine: a pinned URL fetched (verified) into the asset cache."""
        from ..assets import local

        return local(self.src)


class Profile(BaseModel):
    """Limits for one sandboxed run. The network is always off; there is no field to turn it on."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "default"
    wall_timeout_s: float = Field(10.0, gt=0, description="wall-clock limit of one run")
    cpu_s: int = Field(10, gt=0, description="RLIMIT_CPU, seconds")
    memory_mb: int = Field(1024, gt=0, description="address space / cgroup memory limit")
    max_procs: int = Field(64, gt=0, description="processes and threads")
    file_size_mb: int = Field(16, gt=0, description="RLIMIT_FSIZE")
    open_files: int = Field(256, gt=0, description="RLIMIT_NOFILE")
    output_bytes: int = Field(65536, gt=0, description="cap on each of stdout and stderr")
    tmpfs_mb: int = Field(64, gt=0, description="size of every writable filesystem (work dir, /tmp, /dev/shm)")
    mounts: tuple[Mount, ...] = ()
    collect: tuple[str, ...] = Field((), description="work-dir paths (globs) copied out after the run")
    preload: tuple[str, ...] = Field((), description="modules a warm worker imports before forking tasks")
    recycle_after: int = Field(100, gt=0, description="warm worker is replaced after this many tasks")

    def merged(self, **overrides) -> "Profile":
        """A copy with fields overridden (validated), e.g. registry entries that tweak a limit."""
        data = self.model_dump()
        data.update(overrides)
        return Profile.model_validate(data)


DEFAULT_PROFILES: dict[str, Profile] = {
    "default": Profile(name="default"),
    "python": Profile(name="python", wall_timeout_s=10, cpu_s=5, memory_mb=512),
}
