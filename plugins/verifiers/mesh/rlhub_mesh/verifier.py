"""`mesh_iou`: grade a model's CadQuery script against the task's reference part.

Task contract (task.hidden): `reference_script` (a trusted CadQuery script leaving the part in
`result`), optional `options` ({"invariance": "none" | "rotation" | "scale" |
"rotation+scale"}) and optional `features` (which feature checks matter: holes, fillets,
face_types, teeth). The response's script is the last ```python block, else the whole text.

Reward:
1. Hard gate. No code, a forbidden construct, a syntax error, a timeout, running out of
   memory or a crash: 0.0. The script raised or left no `result`: `error_reward` (0.01).
   `result` is not one valid, watertight, non-degenerate solid: `invalid_reward` (0.02).
2. A valid part earns valid_floor + (1 - valid_floor) * composite, valid_floor = 0.05, where
   composite is the weighted mean of iou (0.4), features (0.3), dims (0.15) and chamfer (0.15);
   features is the mean of the task's feature checks (see features.py, metrics.py).
The reference's own script earns exactly 1.0. `passed` is reward >= pass_threshold (0.99: the same part, up to tessellation).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hub import Verdict, Verifier, VerifierConfig, VerifierError

from . import cache, features, policy
from .extract import extract_script

if TYPE_CHECKING:
    from . import metrics
    from .meshes import PartMesh

# Geometry (trimesh, manifold3d, scipy) is imported where a part is graded, not here: this module
# is imported whenever the plugin registers, and `rlhub list` must not pay ~0.3 s for it.
INVARIANCE_MODES = ("none", "rotation", "scale", "rotation+scale")  # rlhub_mesh.align.MODES

RUNNER = "rlhub_mesh.runner:build"
RUNNER_VERSION = 2  # must match rlhub_mesh.runner.RUNNER_VERSION (not imported: it pulls in OCC)
_REFERENCES = cache.LRU(size=128)


class Weights(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    iou: float = Field(0.4, ge=0)
    features: float = Field(0.3, ge=0)
    dims: float = Field(0.15, ge=0)
    chamfer: float = Field(0.15, ge=0)


class MeshIoUConfig(VerifierConfig):
    weights: Weights = Weights()
    error_reward: float = Field(0.01, ge=0, description="script raised or left no `result`")
    invalid_reward: float = Field(0.02, ge=0, description="`result` is not one valid solid")
    valid_floor: float = Field(0.05, gt=0, lt=1, description="the least any valid part earns")
    pass_threshold: float = Field(0.99, gt=0, le=1, description="reward needed to count as the right part")
    invariance: Literal["none", "rotation", "scale", "rotation+scale"] = "none"
    features: tuple[str, ...] | None = None  # default checks when the task names none
    chamfer_points: int = Field(4096, ge=256, description="seeded query points per surface")
    chamfer_target_points: int = Field(16384, ge=1024, description="dense points each surface is queried against")
    chamfer_tau: float = Field(0.02, gt=0, description="Chamfer distance (per unit of size) scoring 1/e")
    linear_tolerance: float = Field(1e-3, gt=0, le=0.05, description="tessellation deflection / part size")
    angular_tolerance: float = Field(0.2, gt=0, le=1.0)
    max_triangles: int = Field(200_000, ge=1000)
    max_response_chars: int = Field(60_000, gt=0)

    @model_validator(mode="after")
    def _ordered(self) -> "MeshIoUConfig":
        if not self.error_reward <= self.invalid_reward < self.valid_floor:
            raise ValueError("need error_reward <= invalid_reward < valid_floor (the gate ordering)")
        if self.weights.iou + self.weights.features + self.weights.dims + self.weights.chamfer <= 0:
            raise ValueError("at least one weight must be positive")
        for name in self.features or ():
            if name not in features.KNOWN_CHECKS:
                raise ValueError(f"unknown feature check {name!r}; known: {', '.join(features.KNOWN_CHECKS)}")
        return self


@dataclass
class Part:
    """A built, validated part: the runner's measurements plus its checked mesh."""

    built: dict
    mesh: "PartMesh"
    _sample: "metrics.SurfaceSample | None" = field(default=None, repr=False)
    _lobes: int | None = None

    @property
    def props(self) -> dict:
        return self.built["props"]

    @property
    def feats(self) -> dict:
        return self.built["features"]

    def sample(self, n_query: int, n_target: int) -> "metrics.SurfaceSample":
        from . import metrics

        if self._sample is None:
            self._sample = metrics.SurfaceSample(self.mesh, n_query, n_target)
        return self._sample

    def lobes(self) -> int:
        if self._lobes is None:
            self._lobes = features.count_lobes(self.mesh.vertices, self.mesh.faces)
        return self._lobes


class GateFailure(Exception):
    def __init__(self, stage: str, reason: str) -> None:
        super().__init__(reason)
        self.stage, self.reason = stage, reason


class MeshIoU(Verifier):
    name = "mesh_iou"
    Config = MeshIoUConfig

    # -- building parts in the sandbox --------------------------------------------------------
    def _settings(self) -> dict[str, Any]:
        c = self.config
        return {"linear_tolerance": c.linear_tolerance, "angular_tolerance": c.angular_tolerance,
                "max_triangles": c.max_triangles}

    def _run(self, ctx, script: str) -> dict:
        """The runner's output for one script; GateFailure for what the script did wrong."""
        r = ctx.sandbox.call(ctx.profile, RUNNER, args={"script": script, **self._settings()})
        if r.infra_error:
            raise VerifierError(f"sandbox failed: {r.infra_error}")
        if r.timed_out:
            raise GateFailure("timeout", f"the script ran past the {ctx.profile.wall_timeout_s:g} s limit")
        if r.oom:
            raise GateFailure("memory", f"the script ran out of memory ({ctx.profile.memory_mb} MB limit)")
        value = r.value
        if not isinstance(value, dict) or not isinstance(value.get("ok"), bool):
            how = f"signal {r.signal}" if r.signal else f"exit code {r.exit_code}"
            raise GateFailure("crash", f"the script killed its process ({how}): {r.stderr[-300:].strip()}")
        if not value["ok"]:
            stage = value.get("stage")
            raise GateFailure(stage if stage in {"policy", "error", "result", "invalid"} else "crash",
                              str(value.get("reason", ""))[:500])
        return value

    def _part(self, built: dict) -> Part:
        from .meshes import BadMesh, decode

        if not isinstance(built.get("props"), dict) or not isinstance(built.get("features"), dict):
            raise GateFailure("invalid", "the runner returned no measurements")
        try:
            return Part(built, decode(built.get("mesh"), self.config.max_triangles))
        except BadMesh as exc:
            raise GateFailure("invalid", f"the part's mesh is unusable: {exc}") from None

    def reference(self, task, ctx) -> Part:
        script = task.hidden.get("reference_script")
        if not isinstance(script, str) or not script.strip():
            raise VerifierError("task.hidden['reference_script'] is missing: mesh_iou needs the reference CadQuery script")
        key = cache.key_for(script, {**self._settings(), "runner": RUNNER_VERSION})

        def make() -> Part:
            built = cache.read_disk(key)
            if built is None:
                try:
                    built = self._run(ctx, script)
                except GateFailure as exc:
                    raise VerifierError(f"the reference script does not build a valid part ({exc.stage}): {exc.reason}") from None
                cache.write_disk(key, built)
            try:
                return self._part(built)
            except GateFailure as exc:
                raise VerifierError(f"the reference part is unusable: {exc.reason}") from None

        return _REFERENCES.get_or_make(key, make)

    # -- task options ---------------------------------------------------------------------------
    def _options(self, task) -> tuple[str, tuple[str, ...]]:
        options = task.hidden.get("options") or {}
        if not isinstance(options, dict):
            raise VerifierError(f"task.hidden['options'] must be a dict, got {type(options).__name__}")
        unknown = set(options) - {"invariance"}
        if unknown:
            raise VerifierError(f"task.hidden['options']: unknown key(s) {sorted(unknown)}; known: ['invariance']")
        mode = options.get("invariance", self.config.invariance)
        if mode not in INVARIANCE_MODES:
            raise VerifierError(f"task.hidden['options']['invariance'] = {mode!r}; expected one of {INVARIANCE_MODES}")
        hinted = task.hidden.get("features")
        if hinted is not None and (isinstance(hinted, str) or not all(isinstance(h, str) for h in hinted)):
            raise VerifierError(f"task.hidden['features'] must be a list of names, got {hinted!r}")
        # hints pick the specific checks; the face-type histogram always applies
        checks = (*hinted, "face_types") if hinted else (self.config.features or features.DEFAULT_CHECKS)
        bad = [c for c in checks if c not in features.KNOWN_CHECKS]
        if bad:
            raise VerifierError(f"task.hidden['features']: unknown check(s) {bad}; known: {list(features.KNOWN_CHECKS)}")
        return mode, tuple(dict.fromkeys(checks))

    # -- grading --------------------------------------------------------------------------------
    def _gate(self, stage: str, reason: str, **details: Any) -> Verdict:
        c = self.config
        reward = {"error": c.error_reward, "result": c.error_reward, "invalid": c.invalid_reward}.get(stage, 0.0)
        return Verdict(reward, False, components={"gate": 0.0}, details={"stage": stage, "reason": reason, **details})

    def verify(self, task, response: str, ctx) -> Verdict:
        c = self.config
        mode, checks = self._options(task)
        if not isinstance(response, str) or not response.strip():
            return self._gate("no_code", "the response is empty")
        if len(response) > c.max_response_chars:
            return self._gate("no_code", f"the response is longer than {c.max_response_chars} characters")
        script = extract_script(response)
        if not script:
            return self._gate("no_code", "the response holds no code")
        try:  # vetted here first so forbidden scripts never cost a sandbox run
            policy.check_script(script)
        except SyntaxError as exc:
            return self._gate("syntax", f"SyntaxError: {exc.msg} (line {exc.lineno})")
        except (policy.PolicyViolation, ValueError) as exc:
            return self._gate("policy", str(exc))
        t0 = time.perf_counter()
        try:
            cand = self._part(self._run(ctx, script))
        except GateFailure as exc:
            return self._gate(exc.stage, exc.reason)
        t1 = time.perf_counter()
        ref = self.reference(task, ctx)
        t2 = time.perf_counter()
        components = self.compare(ref, cand, mode, checks)
        t3 = time.perf_counter()
        score = self.composite(components)
        reward = 1.0 if score >= 1.0 else c.valid_floor + (1.0 - c.valid_floor) * score
        details = {
            "stage": "graded", "invariance": mode, "checks": list(checks),
            "volume": round(cand.props["volume"], 6), "reference_volume": round(ref.props["volume"], 6),
            "triangles": cand.mesh.faces.shape[0], "holes": cand.feats.get("holes", []),
            "reference_holes": ref.feats.get("holes", []),
            "timing_s": {"build": round(t1 - t0, 4), "reference": round(t2 - t1, 4), "compare": round(t3 - t2, 4)},
        }
        return Verdict(reward, reward >= c.pass_threshold, components=components, details=details)

    def composite(self, components: dict[str, float]) -> float:
        w = self.config.weights
        pairs = [(w.iou, components["iou"]), (w.features, components["features"]),
                 (w.dims, components["dims"]), (w.chamfer, components["chamfer"])]
        total = sum(weight for weight, _ in pairs)
        return min(1.0, sum(weight * value for weight, value in pairs) / total)

    def compare(self, ref: Part, cand: Part, mode: str, checks: tuple[str, ...]) -> dict[str, float]:
        """Every component by name, in [0, 1]; all exactly 1.0 for the reference's own build."""
        from . import align as align_mod
        from . import metrics

        c = self.config
        moved, scale = align_mod.align(ref.mesh, cand.mesh, mode)
        same = moved.digest == ref.mesh.digest
        iou = metrics.iou(ref.mesh, moved)
        if same:
            chamfer = 1.0
        else:
            cand_part = cand if moved is cand.mesh else Part(cand.built, moved)
            distance = metrics.chamfer_distance(
                ref.sample(c.chamfer_points, c.chamfer_target_points),
                cand_part.sample(c.chamfer_points, c.chamfer_target_points),
            )
            chamfer = metrics.chamfer_score(distance, ref.props["diag"], c.chamfer_tau)
        if mode == "none":
            dims = metrics.dims(ref.props, cand.props)
        else:  # extents only mean something in a shared frame: measure both meshes as aligned
            dims = metrics.dims(_mesh_props(ref.mesh), _mesh_props(moved))
        teeth = (ref.lobes(), Part(cand.built, moved).lobes()) if "teeth" in checks else None
        checks_scores = features.score(checks, ref.feats, cand.feats, ref.props["diag"], scale, teeth)
        feature_score = sum(checks_scores.values()) / len(checks_scores) if checks_scores else 1.0
        out = {"gate": 1.0, "iou": iou, "chamfer": chamfer, "dims": dims, "features": feature_score, **checks_scores}
        return {k: float(round(v, 6)) for k, v in out.items()}


def _mesh_props(mesh: "PartMesh") -> dict:
    v = mesh.vertices
    return {"bbox": [v.min(axis=0).tolist(), v.max(axis=0).tolist()], "volume": mesh.volume,
            "area": float(mesh.manifold.surface_area())}
