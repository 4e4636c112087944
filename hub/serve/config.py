"""Every setting of the reward service, validated; from CLI flags and/or a YAML file."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..config.yamlfile import load_yaml, one_line
from ..core.errors import UserError
from ..rewards import RewardPolicy
from ..rewards.policy import REMOVED_SETTINGS, REMOVED_WHY


class ServeConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535)
    registry: str | None = None
    plugins: list[str] = Field(default_factory=list, description="extra plugin modules to load (import paths)")

    # answering
    deadline_s: float = Field(150.0, gt=0, description="every request is answered within this (OpenRLHF gives up at 180 s)")
    # (what a sample without a verdict earns is not a setting: hub/rewards/policy.py)
    retries: int = Field(1, ge=0, le=5, description="re-runs of a sample that got no verdict or lost its worker")

    # scheduling
    workers: int = Field(4, ge=1, le=1024, description="samples verified at once")
    queue_limit: int = Field(4096, ge=1, description="samples waiting at most; beyond it requests get 503")
    long_task_s: float = Field(1.0, gt=0, description="a sample expected to take this long is 'long'")
    reserved_short_workers: int = Field(1, ge=0, description="workers long samples may not take (when workers > this)")
    ageing: float = Field(4.0, ge=0, description="a sample waits at most ageing x its estimate behind shorter ones")
    max_delay_s: float = Field(30.0, ge=0, description="... and never more than this")
    prior_s: float = Field(0.5, gt=0, description="duration assumed for an environment never seen")
    estimates_file: str | None = Field(None, description="JSON file the duration estimates are loaded from and saved to")
    max_body_mb: float = Field(64.0, gt=0)

    # episodes (the HTTP episode API and streamable-HTTP MCP share these)
    episode_cap: int = Field(256, ge=1, description="episodes open at once at most; beyond it opening one gets 503")
    episode_ttl_s: float = Field(600.0, gt=0, description="an episode with no request for this long is closed (its sandbox freed)")
    episode_threads: int = Field(32, ge=1, le=1024, description="episode steps run at once (each in a thread: they block on sandboxes)")

    # scale-out
    backend: Literal["local", "ray"] = "local"
    ray_address: str | None = Field(None, description="Ray cluster to join (None: start a local one)")
    ray_actors_per_node: int = Field(1, ge=1, description="actors per verifier kind per node")
    ray_actor_concurrency: int = Field(4, ge=1, description="samples one actor verifies at once")
    ray_actor_cpus: float = Field(0.0, ge=0)

    # /metrics: the per-environment and per-domain reward series label this many values, the rest "other"
    metrics_env_labels: int = Field(64, ge=1, le=10000, description="environments with their own reward series in /metrics")
    metrics_domain_labels: int = Field(32, ge=1, le=1000, description="domains with their own reward series in /metrics")

    log_level: Literal["debug", "info", "warning", "error"] = "info"
    log_buffer_lines: int = Field(10_000, ge=1, description="log lines held while stderr is slow; beyond them lines "
                                  "are dropped (rlhub_serve_log_lines_dropped_total), never waited for")

    def policy(self) -> RewardPolicy:
        """The reward policy every backend applies: the reward file's and the agent's, with this
        service's deadline and workers."""
        return RewardPolicy(deadline_s=self.deadline_s, max_workers=self.workers)

    @model_validator(mode="before")
    @classmethod
    def _removed(cls, data):
        if isinstance(data, dict):
            for key in REMOVED_SETTINGS:
                if key in data:
                    raise ValueError(f"{key}: {REMOVED_WHY}")
        return data

    @property
    def long_worker_limit(self) -> int:
        """How many workers may run long samples at once (the rest stay free for short ones)."""
        if self.workers > self.reserved_short_workers:
            return self.workers - self.reserved_short_workers
        return self.workers

    @classmethod
    def build(cls, file: str | None = None, **overrides) -> "ServeConfig":
        flags = {k: v for k, v in overrides.items() if v is not None}
        if not file:
            try:
                return cls.model_validate(flags)
            except ValidationError as exc:
                raise UserError(f"serve options: {one_line(exc)}") from None
        doc = load_yaml(file, "serve config")
        at = ("serve",) if isinstance(doc.data.get("serve"), dict) else ()
        return doc.validate(cls, {**(doc.data["serve"] if at else doc.data), **flags}, at=at)
