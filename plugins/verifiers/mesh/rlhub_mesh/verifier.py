"""`mesh_iou`: grade a model's CadQuery script against the task's reference part.

Task contract: `MeshHidden` (task.hidden): `reference_script` (a trusted CadQuery script leaving
the part in `result`), `grading` (the tolerance the prompt implies: grading.py), `options`
({"invariance": ...}) and `features` (hints; "teeth" asks for tooth counting). The response's script is the last ```python block,
else the whole text. See README.md for the reward, with a worked example.

1. Gate: no code, a forbidden construct, a syntax error, a timeout (the script's, or measuring
   a part too costly to measure in the time left), running out of memory or a crash: 0. The script raised or left no `result`: `error_reward` (0.01). `result` is not one
   valid, closed, non-degenerate solid (or is absurdly complex): `invalid_reward` (0.02).
   A solid more than `wrong_size_factor` times too large or too small: `valid_floor` (0.05).
2. Measured from the B-rep in a process the model's code never ran in (runner.py), compared
   in mm (compare.py). Everything the task requires within tolerance: exactly 1.0, passed.
   Otherwise valid_floor + (fail_cap - valid_floor) * (weighted mean of iou, form, features):
   at most 0.5, lower the larger the error; a bare body with no features stays under 0.3.
"""

from __future__ import annotations

import hashlib

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hub import Verdict, Verifier, VerifierConfig, VerifierError
from hub.core.verifier import HiddenData

from . import cache, grading, policy
from .extract import extract_script
from .grading import Grading

if TYPE_CHECKING:
    from hub import Variant

    from .meshes import PartMesh

# Geometry (trimesh, manifold3d, scipy) is imported where a part is graded, not here: this module
# is imported whenever the plugin registers, and `rlhub list` must not pay ~0.3 s for it.
INVARIANCE_MODES = ("none", "rotation", "scale", "rotation+scale")  # rlhub_mesh.align.MODES

RUNNER = "rlhub_mesh.runner:build"
RUNNER_VERSION = 9  # must match rlhub_mesh.runner.RUNNER_VERSION (not imported: it pulls in OCC)
MEASURING_MARK = "rlhub-mesh: measuring the part"  # runner.MEASURING_MARK
_REFERENCES = cache.LRU(size=128)
GATE_STAGES = ("policy", "error", "result", "invalid", "too_complex", "timeout", "memory", "crash")


class Weights(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    iou: float = Field(0.2, ge=0, description="volumetric overlap (mesh boolean)")
    form: float = Field(0.3, ge=0, description="overall dimensions, volume, the body's faces")
    features: float = Field(0.5, ge=0, description="holes, slots, fillets, bores, teeth")


class MeshIoUConfig(VerifierConfig):
    weights: Weights = Weights()
    error_reward: float = Field(0.01, ge=0, description="script raised or left no `result`")
    invalid_reward: float = Field(0.02, ge=0, description="`result` is not one valid solid")
    valid_floor: float = Field(0.05, gt=0, lt=1, description="the least any valid part earns")
    fail_cap: float = Field(0.5, gt=0, lt=1, description="the most a part that fails the task's tolerances earns")
    wrong_size_factor: float = Field(5.0, gt=1, description="a part this many times too large or small earns valid_floor")
    invariance: Literal["none", "rotation", "scale", "rotation+scale"] = "none"
    linear_tolerance: float = Field(3e-3, gt=0, le=0.05, description="tessellation deflection / part size (IoU and drawings only)")
    angular_tolerance: float = Field(0.5, gt=0, le=1.0)
    max_triangles: int = Field(200_000, ge=1000)
    max_faces: int = Field(5000, ge=10, description="more faces than this is a hostile part")
    max_brep_bytes: int = Field(8 << 20, ge=1 << 16, description="cap on the B-rep the model's process hands over")
    measure_reserve_s: float = Field(3.0, ge=0.5, description="of the profile's wall clock, kept for measuring")
    max_response_chars: int = Field(60_000, gt=0)

    @model_validator(mode="after")
    def _ordered(self) -> "MeshIoUConfig":
        if not self.error_reward <= self.invalid_reward < self.valid_floor < self.fail_cap:
            raise ValueError("need error_reward <= invalid_reward < valid_floor < fail_cap (the gate ordering)")
        if self.weights.iou + self.weights.form + self.weights.features <= 0:
            raise ValueError("at least one weight must be positive")
        return self


@dataclass
class Part:
    """A built, validated part: the runner's measurements and its checked mesh."""

    built: dict
    mesh: "PartMesh"
    timing: dict = field(default_factory=dict)

    @property
    def props(self) -> dict:
        return self.built["props"]


class GateFailure(Exception):
    def __init__(self, stage: str, reason: str) -> None:
        super().__init__(reason)
        self.stage, self.reason = stage, reason


def _extents(props: dict) -> list[float]:
    return [hi - lo for lo, hi in zip(*props["bbox"])]


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    invariance: Optional[Literal["none", "rotation", "scale", "rotation+scale"]] = None  # default: the config's


class MeshHidden(HiddenData):
    """What `mesh_iou` reads from task.hidden (checked when a task is made)."""

    reference_script: str = Field(min_length=1)  # a trusted CadQuery script leaving the part in `result`
    options: Options = Options()
    features: tuple[Literal["holes", "fillets", "face_types", "teeth"], ...] = ()  # "teeth": count teeth too
    grading: Grading = Grading()  # tolerances by task kind (grading.py)


class MeshIoU(Verifier):
    name = "mesh_iou"
    Hidden = MeshHidden
    Config = MeshIoUConfig

    # -- building parts in the sandbox --------------------------------------------------------
    def _settings(self, ctx, teeth: bool) -> dict[str, Any]:
        c = self.config
        return {"linear_tolerance": c.linear_tolerance, "angular_tolerance": c.angular_tolerance,
                "max_triangles": c.max_triangles, "max_faces": c.max_faces, "max_brep_bytes": c.max_brep_bytes,
                "script_timeout_s": max(1.0, ctx.profile.wall_timeout_s - c.measure_reserve_s), "teeth": teeth}

    def _run(self, ctx, script: str, teeth: bool) -> dict:
        """The runner's output for one script; GateFailure for what the script did wrong."""
        return self._run_timed(ctx, script, teeth)[0]

    def _run_timed(self, ctx, script: str, teeth: bool) -> tuple[dict, dict]:
        """`_run`, and the sandbox's own step times (RunResult.timings)."""
        r = ctx.sandbox.call(ctx.profile, RUNNER, args={"script": script, **self._settings(ctx, teeth)})
        if r.infra_error:
            raise VerifierError(f"sandbox failed: {r.infra_error}")
        value = r.value
        measuring = MEASURING_MARK in r.stderr
        if r.oom:
            raise GateFailure("memory", f"the script ran out of memory ({ctx.profile.memory_mb} MB limit)")
        if not isinstance(value, dict) or not isinstance(value.get("ok"), bool):
            how = f"signal {r.signal}" if r.signal else f"exit code {r.exit_code}"
            # The model's process was gone: its part outlasted or broke the measuring process.
            # Killed for time (or by SIGKILL, which only the limits send): the part is too costly
            # to measure, graded as a script past its time limit (0), not as an invalid solid.
            if measuring and (r.timed_out or r.signal == 9):
                limit = f"the {ctx.profile.wall_timeout_s:g} s limit" if r.timed_out else f"its time or memory limit ({how})"
                raise GateFailure("timeout", f"measuring the part ran past {limit}: the script's own part is too costly "
                                  "to measure (far more faces or edges than the task needs)")
            if measuring:
                raise GateFailure("invalid", f"the part's B-rep crashed the measurement ({how}); a valid solid does not")
            if r.timed_out:
                raise GateFailure("timeout", f"the script ran past the {ctx.profile.wall_timeout_s:g} s limit")
            raise GateFailure("crash", f"the script killed its process ({how}): {r.stderr[-300:].strip()}")
        if not value["ok"]:
            stage = value.get("stage")
            raise GateFailure(stage if stage in GATE_STAGES else "crash", str(value.get("reason", ""))[:500])
        return value, r.timings

    def _part(self, built: dict) -> Part:
        from .meshes import BadMesh, decode

        if not isinstance(built.get("props"), dict) or not isinstance(built.get("features"), list):
            raise GateFailure("invalid", "the runner returned no measurements")
        try:
            return Part(built, decode(built.get("mesh"), self.config.max_triangles))
        except BadMesh as exc:
            raise GateFailure("invalid", f"the part's mesh is unusable: {exc}") from None

    def reference(self, task, ctx) -> Part:
        script = self.hidden(task).reference_script
        teeth = "teeth" in self._hints(task)
        settings = {k: v for k, v in self._settings(ctx, teeth).items() if k != "script_timeout_s"}
        key = cache.key_for(script, {**settings, "runner": RUNNER_VERSION})

        def make() -> Part:
            built = cache.read_disk(key)
            if built is None:
                try:
                    built = self._run(ctx, script, teeth)
                except GateFailure as exc:
                    raise VerifierError(f"the reference script does not build a valid part ({exc.stage}): {exc.reason}") from None
                cache.write_disk(key, built)
            try:
                return self._part(built)
            except GateFailure as exc:
                raise VerifierError(f"the reference part is unusable: {exc.reason}") from None

        return _REFERENCES.get_or_make(key, make)

    # -- task options ---------------------------------------------------------------------------
    def _hints(self, task) -> tuple[str, ...]:
        return self.hidden(task).features

    def _options(self, task) -> tuple[str, grading.Grading]:
        hidden = self.hidden(task)
        return hidden.options.invariance or self.config.invariance, hidden.grading

    # -- grading --------------------------------------------------------------------------------
    def _gate(self, stage: str, reason: str, **details: Any) -> Verdict:
        c = self.config
        reward = {"error": c.error_reward, "result": c.error_reward, "invalid": c.invalid_reward,
                  "too_complex": c.invalid_reward}.get(stage, 0.0)
        return Verdict(reward, False, components={"gate": 0.0}, details={"stage": stage, "reason": reason, **details})

    def candidate(self, task, response: str, ctx) -> Part | Verdict:
        """The response's part, or the gate verdict that stops it."""
        c = self.config
        if not isinstance(response, str) or not response.strip():
            return self._gate("no_code", "the response is empty")
        if len(response) > c.max_response_chars:
            return self._gate("no_code", f"the response is longer than {c.max_response_chars} characters")
        script = extract_script(response)
        if not script:
            return self._gate("no_code", "the response holds no code")
        try:  # vetted here first so forbidden scripts never cost a sandbox run
            tree = policy.check_script(script)
        except SyntaxError as exc:
            return self._gate("syntax", f"SyntaxError: {exc.msg} (line {exc.lineno})")
        except (policy.PolicyViolation, ValueError) as exc:
            return self._gate("policy", str(exc))
        if not policy.assigns_result(tree):
            return self._gate("result", "the script never assigns a variable named `result`")
        try:
            t = time.perf_counter()
            built, steps = self._run_timed(ctx, script, "teeth" in self._hints(task))
            t1 = time.perf_counter()
            part = self._part(built)
        except GateFailure as exc:
            return self._gate(exc.stage, exc.reason)
        part.timing = {"sandbox": round(t1 - t, 4), "decode": round(time.perf_counter() - t1, 4), "sandbox_steps": steps}
        return part

    def verify(self, task, response: str, ctx) -> Verdict:
        return self._verify(task, response, ctx)[0]

    def response_key(self, task, response: str) -> str | None:
        """The verdict depends on the script alone (within the size limit)."""
        if not isinstance(response, str) or len(response) > self.config.max_response_chars:
            return None
        return "script:" + hashlib.sha256(extract_script(response).encode("utf-8", "surrogatepass")).hexdigest()

    def _verify(self, task, response: str, ctx) -> tuple[Verdict, Part | None, Part | None]:
        """The verdict, with the parts it was read from (for pictures)."""
        mode, grade = self._options(task)
        t0 = time.perf_counter()
        cand = self.candidate(task, response, ctx)
        if isinstance(cand, Verdict):
            return cand, None, None
        t1 = time.perf_counter()
        ref = self.reference(task, ctx)
        t2 = time.perf_counter()
        verdict = self.grade(ref, cand, mode, grade)
        verdict.details["timing_s"] = {"build": round(t1 - t0, 4), **cand.timing, "reference": round(t2 - t1, 4),
                                       "compare": round(time.perf_counter() - t2, 4),
                                       "runner": cand.built.get("timings", {})}
        return verdict, ref, cand

    def grade(self, ref: Part, cand: Part, mode: str = "none", grade: grading.Grading | None = None) -> Verdict:
        """The verdict on a built candidate against the reference (both runner outputs)."""
        from . import compare as cmp

        c = self.config
        grade = grade or grading.Grading()
        ratios = [x / y for x, y in zip(_extents(cand.props), _extents(ref.props)) if y > 0 and x > 0]
        if mode == "none" and ratios and (max(ratios) > c.wrong_size_factor or min(ratios) < 1 / c.wrong_size_factor):
            return Verdict(c.valid_floor, False, components={"gate": 1.0, "iou": 0.0, "form": 0.0, "features": 0.0},
                           details={"stage": "wrong_size", "reason": (
                               f"the part is {' x '.join(cmp.n(e) for e in _extents(cand.props))} mm; the task's is "
                               f"{' x '.join(cmp.n(e) for e in _extents(ref.props))} mm (more than {c.wrong_size_factor:g} times off)")})
        if mode == "none" and (grade.symmetries or grade.spin):
            result, placed, moved_mesh = self._placed(ref, cand, grade)
            iou = self._iou(ref, moved_mesh)
        else:
            moved, record, iou = self._aligned(ref, cand, mode)
            if mode != "none" and grade.mode == "absolute":  # a free frame: the tessellation sets the floor
                grade = grade.model_copy(update={"tol_rel": max(grade.tol_rel, 2 * c.linear_tolerance)})
            result, placed = cmp.compare(ref.built, record, grade), None
        components = {"gate": 1.0, "iou": iou, "form": result.form, "features": result.features}
        if result.passed:
            reward = 1.0
        else:
            w = c.weights
            score = (w.iou * iou + w.form * result.form + w.features * result.features) / (w.iou + w.form + w.features)
            reward = c.valid_floor + (c.fail_cap - c.valid_floor) * score
        required = [m for m in result.mismatches if m.required]
        details = {
            "stage": "graded", "mode": grade.mode, "invariance": mode,
            "tolerance_mm": round(cmp.Scales(grade, ref.props).tol, 4),
            "verdict": "the part matches the task" if result.passed else
            f"{len(required)} difference(s) beyond tolerance: " + "; ".join(m.text for m in required[:3]),
            "mismatches": [m.text for m in result.mismatches[:40]],
            "mismatch_data": [m.to_dict() for m in result.mismatches[:40]],
            "features": result.counts,
            "size_mm": [round(e, 4) for e in _extents(cand.props)],
            "reference_size_mm": [round(e, 4) for e in _extents(ref.props)],
            "volume": round(cand.props["volume"], 4), "reference_volume": round(ref.props["volume"], 4),
            "voids": cand.props.get("voids", 0), "reference_voids": ref.props.get("voids", 0),
        }
        if placed is not None:
            details["placement"] = placed
        return Verdict(reward, result.passed, components={k: float(round(v, 6)) for k, v in components.items()},
                       details=details)

    def _placed(self, ref: Part, cand: Part, grade: grading.Grading):
        """The comparison at the best of the placements the prompt leaves free (placement.py):
        (comparison, the placement in words, the candidate's mesh moved there). The overall box,
        volume and voids are compared as built: a free placement maps the stated box onto itself."""
        from . import compare as cmp
        from . import placement

        size = max(_extents(ref.props))
        best = None
        for matrix, words in placement.candidates(ref.built, cand.built, grade, size):
            record = cand.built if words == "as built" else {**cmp.transformed(cand.built, matrix, 1.0), "props": cand.props}
            result = cmp.compare(ref.built, record, grade)
            rank = (result.passed, 0.3 * result.form + 0.5 * result.features)
            if best is None or rank[0] > best[0][0] or (rank[0] == best[0][0] and rank[1] > best[0][1] + 1e-9):  # ties: the first
                best = (rank, result, matrix, words)
        _, result, matrix, words = best
        mesh = cand.mesh if words == "as built" else cand.mesh.transformed(matrix)
        placed = {"how": words, "matrix": [round(float(v), 6) + 0.0 for v in matrix.reshape(-1)]}
        return result, placed, mesh

    def _iou(self, ref: Part, mesh) -> float:
        from . import metrics

        return metrics.iou(ref.mesh, mesh)

    def _aligned(self, ref: Part, cand: Part, mode: str):
        """The candidate in the reference's frame: (mesh, runner record, IoU)."""
        from . import align as align_mod
        from . import metrics
        from .compare import transformed

        moved, scale, matrix = align_mod.align(ref.mesh, cand.mesh, mode)
        record = cand.built
        if mode != "none":
            record = {**transformed(cand.built, matrix, scale), "props": _mesh_props(moved, cand.props, scale)}
        return moved, record, metrics.iou(ref.mesh, moved)

    # -- the checks' hacks, and pictures ----------------------------------------------------------
    def hacks(self, task) -> list["Variant"]:
        from .hacks import hacks_for

        return hacks_for(task, self.config)

    def render(self, task, response: str, path: str, ctx) -> Verdict:
        """Grade the response and write a PNG to `path`: reference and candidate side by side from
        the same views, the mismatched features marked. Returns the verdict the picture shows."""
        from .render import render_pair

        verdict, ref, cand = self._verify(task, response, ctx)
        render_pair(ref if ref is not None else self.reference(task, ctx), cand, verdict, path)
        return verdict

    def explain_reward(self, verdict: dict) -> str | None:
        """The gate's fixed reward, or the graded formula with this verdict's components in it."""
        c, d = self.config, verdict.get("details") or {}
        comp = verdict.get("components") or {}
        stage = d.get("stage")
        if verdict.get("error") or stage is None:
            return None
        if stage == "wrong_size":
            return f"{c.valid_floor:g} (valid_floor): a valid part of the wrong size earns the least a valid part earns"
        if stage != "graded":
            return f"{float(verdict.get('reward') or 0):.4g}: the part stopped at the {stage} gate, which pays a fixed reward"
        if verdict.get("passed"):
            return "1: every feature the task states is within tolerance"
        w = c.weights
        total = w.iou + w.form + w.features
        score = (w.iou * comp.get("iou", 0) + w.form * comp.get("form", 0) + w.features * comp.get("features", 0)) / total
        return (f"valid_floor + (fail_cap - valid_floor) x score = {c.valid_floor:g} + {c.fail_cap - c.valid_floor:g} x "
                f"{score:.4g} = {c.valid_floor + (c.fail_cap - c.valid_floor) * score:.4g}, where score = "
                f"({w.iou:g} iou {comp.get('iou', 0):.4g} + {w.form:g} form {comp.get('form', 0):.4g} + {w.features:g} "
                f"features {comp.get('features', 0):.4g}) / {total:g}: a part outside the tolerances earns at most "
                f"fail_cap {c.fail_cap:g}")

    def drawings(self, task, response: str, ctx) -> dict:
        """The reference and (if it builds) the candidate for a report: each part's views in a row,
        both in `render`'s one shared frame, so a part twice the size is drawn twice the size."""
        from hub.core.verifier import Drawing

        from .render import drawing, mm_per_pixel, shared_frame

        verdict, ref, cand = self._verify(task, response, ctx)
        parts = {"reference": (ref if ref is not None else self.reference(task, ctx), "ref_at")}
        if cand is not None:
            parts["candidate"] = (cand, "cand_at")
        centre, half = shared_frame([part for part, _ in parts.values()])
        return {name: Drawing(drawing(name, part, verdict, centre, half, key), mm_per_pixel(half))
                for name, (part, key) in parts.items()}


def _mesh_props(mesh: "PartMesh", props: dict, scale: float) -> dict:
    v = mesh.vertices
    return {**props, "bbox": [v.min(axis=0).tolist(), v.max(axis=0).tolist()], "volume": props["volume"] * scale**3,
            "area": props["area"] * scale**2}
