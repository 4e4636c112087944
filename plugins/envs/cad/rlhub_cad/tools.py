"""CAD tool environments, `cad/<family>-<kind>-tools-v1`: the text task's part, built through tools.

The model calls `build(script)` as often as it likes: the script is built in the sandbox, by the
same sandboxed build the verifier grades with (rlhub_mesh's runner, through `MeshIoU.candidate`),
and what comes back is what the runner measured of the model's own part (bounding box, volume,
surface area, the features it recognised) with a drawing of it, in the views the image tasks'
drawings use. Nothing in it is compared with the task's part: the reference never leaves the
grader. A script that does not build answers with its error, as the tool's text, and the episode
goes on. `submit(script)` (or `submit()`, for the last script built) grades with the text twin's
verifier, exactly as the twin grades a reply with that script, and ends the episode.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hub import Task, Variant, Verdict
from hub.tools import ToolCall, ToolError, ToolOutput, tool
from hub.tools import formats
from hub.tools.episode import TOOL_INSTRUCTIONS, ToolEpisode
from rlhub_mesh.extract import extract_script

from .env import CadEnvironment
from .fmt import fence
from .kinds import RULES
from .plugin import TOOL_KINDS  # noqa: F401  (the kinds with a tool version)

MAX_TURNS = 8
MAX_BUILDS = 12  # per episode: each build is a sandbox run of up to the profile's wall clock
MAX_LISTED = 16  # features listed per kind (the rest counted)
_REPLY = "Reply with the script in a single ```python code block."
_DROPPED = {"kind", "foot", "sections", "lobes", "entry"}  # the runner's bookkeeping, not measurements
_RENAMED = {"cbore": "counterbore", "csk": "countersink"}


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 3) + 0.0  # + 0.0: no -0.0
    if isinstance(value, dict):
        return {_RENAMED.get(k, k): _rounded(v) for k, v in value.items() if k not in _DROPPED and v is not None}
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    return value


def measurements(built: dict) -> dict[str, Any]:
    """What the runner measured of a part, as the model reads it: its box, mass properties,
    topology and features (holes, slots, fillets, bosses, cones, teeth...), rounded to 0.001."""
    props = built["props"]
    lo, hi = props["bbox"]
    out: dict[str, Any] = {
        "bounding_box_mm": {"min": _rounded(lo), "max": _rounded(hi), "size": _rounded([b - a for a, b in zip(lo, hi)])},
        "volume_mm3": _rounded(props["volume"]), "surface_area_mm2": _rounded(props["area"]),
        "centre_of_mass_mm": _rounded(props["center"]),
        "faces": props["n_faces"], "edges": props["n_edges"], "sealed_voids": props.get("voids", 0),
    }
    records = [*built.get("features", []), *(f for f in built.get("form", []) if f.get("kind") not in ("plane", "surface"))]
    by_kind: dict[str, list] = {}
    for record in records:
        by_kind.setdefault(str(record.get("kind")), []).append(record)
    out["feature_counts"] = {kind: len(found) for kind, found in by_kind.items()}
    flat = [f for f in built.get("form", []) if f.get("kind") == "plane"]
    free = [f for f in built.get("form", []) if f.get("kind") == "surface"]
    out["feature_counts"].update({k: v for k, v in (("flat_face_group", len(flat)), ("freeform_face", len(free))) if v})
    out["features"] = {}
    for kind, found in by_kind.items():
        listed = [_rounded(f) for f in found[:MAX_LISTED]]
        if len(found) > MAX_LISTED:
            listed.append(f"... and {len(found) - MAX_LISTED} more")
        out["features"][kind + "s"] = listed
    return out


def as_reply(script: str) -> str:
    """A tool's script argument as the text twin's reply with it: fenced, unless the model fenced
    it itself (the twin reads the last python block, else a bare script it recognises as code)."""
    return script if "```" in script or not script.strip() else fence(script)


class CadToolEpisode(ToolEpisode):
    """One CAD task through `build` and `submit` (hidden: the task, the verifier, the sandbox)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not hasattr(self.verifier, "candidate"):
            raise TypeError(f"the CAD tools build with the mesh verifier's sandboxed build; "
                            f"{type(self.verifier).__name__} has none")
        self.last_script: str | None = None
        self.builds = 0

    def reset(self) -> str:
        self.last_script, self.builds = None, 0
        return super().reset()

    @tool
    def build(self, script: str) -> ToolOutput | str:
        """Build a CadQuery script in the sandbox and measure the part it leaves in `result`: its
        bounding box, volume, surface area, faces and the features found (holes, slots, fillets,
        bosses...), with a drawing (top view, isometric view; hidden edges dotted). The
        measurements are of your part only: they do not say how it compares with the task's.

        Args:
            script: the whole CadQuery script (units mm; import only cadquery as cq and math; the finished part, one solid, in `result`).
        """
        if self.builds >= MAX_BUILDS:
            raise ToolError(f"build: this task allows {MAX_BUILDS} builds and they are used up; submit a script")
        self.builds += 1
        self.last_script = script
        part = self.verifier.candidate(self.task, as_reply(script), self.ctx)  # the sandbox; VerifierError: infra (no verdict)
        if isinstance(part, Verdict):  # the build's gate: the script's own error, said back to the model
            d = part.details
            return (f"build failed ({d.get('stage', 'error')}): {d.get('reason', '')}\n"
                    "Fix the script and build again, or submit.")
        text = json.dumps({"built": "one valid solid", **measurements(part.built)}, ensure_ascii=False)
        png = self._drawing(script)
        if png is None:
            return text + "\n(no drawing could be made of this part)"
        return ToolOutput(text=text + "\n(the drawing of the part is attached)", images=[png])

    def _drawing(self, script: str) -> bytes | None:
        from .render import draw_candidate

        return draw_candidate(extract_script(as_reply(script)), self.ctx)  # drawn in the sandbox, checked to be a PNG

    @tool
    def submit(self, script: str = "") -> str:
        """Hand in the part for grading; this ends the task.

        Args:
            script: the CadQuery script to grade; leave it out to grade the last script you built.
        """
        if script.strip():
            chosen, source = script, "the submitted script"
        elif self.last_script is not None:
            chosen, source = self.last_script, "the last script built"
        else:
            chosen, source = "", "nothing (no script was built or submitted)"
        verdict = self.grade(as_reply(chosen))
        verdict.details["graded"] = source
        self.conclude(verdict, note=f"submitted: {source}")
        return f"submitted {source}; the task is over"

    def last_turn(self) -> Verdict:
        """The turns ran out without a submission: the last script built is graded, as it stands."""
        verdict = self.grade(as_reply(self.last_script or ""))
        verdict.details["graded"] = "the last script built (no submission)" if self.last_script else "nothing"
        return verdict


def _tool_prompt(prompt: Any) -> Any:
    """The text task's prompt, asking for tool calls where it asked for a fenced reply."""
    ask = (TOOL_INSTRUCTIONS.format(finish="submit the part with `submit` when it is right (that ends the task)",
                                    turns=MAX_TURNS, calls=CadToolEpisode.max_calls_per_turn)
           + f" `build` runs your script and measures the part it made, with a drawing ({MAX_BUILDS} builds at most).")
    rules = RULES.replace(_REPLY, "").rstrip()
    if isinstance(prompt, str):
        return prompt.replace(RULES, f"{rules}\n\n{ask}")
    return [{**m, "content": [{**c, "text": _tool_prompt(c["text"])} if c.get("type") == "text" else c
                              for c in m["content"]]} for m in prompt]


class CadToolEnvironment(CadEnvironment):
    """The tool version of `cad/<family>-<kind>-v1` (its text twin): the same tasks, drawn from the
    twin's seeds, graded by the same verifier; only the way the model acts differs."""

    max_turns = MAX_TURNS

    def __init__(self, env_id: str, family, kind: str) -> None:
        super().__init__(env_id, family, kind)
        self.text_twin = env_id.removesuffix("-tools-v1") + "-v1"

    def generate(self, rng: random.Random, index: int) -> Task:
        task = super().generate(rng, index)
        task.prompt = _tool_prompt(task.prompt)
        return task

    tool_episode = CadToolEpisode  # its @tool methods are the prompt's tools

    def episode(self, task, verifier, ctx):
        return CadToolEpisode(task, verifier, ctx, max_turns=self.max_turns)

    def tool_turns(self, task: Task) -> list[list[ToolCall]]:
        """Build the reference script, then submit what was built."""
        return [[ToolCall("build", {"script": task.hidden["reference_script"]})], [ToolCall("submit", {})]]

    def episode_probes(self, task: Task) -> tuple[list[Variant], list[Variant]]:
        """Wrong plays: submitting before building anything; building a wrong part (the twin's
        first wrong answer) and submitting it; submitting a script that fails to build."""
        ref = task.hidden["reference_script"]
        first = self.wrong_answers(task)[0]
        wrong = extract_script(first.response)
        broken = ref.rstrip("\n") + "\nresult = result.no_such_operation()\n"

        def play(*turns: list[ToolCall]) -> tuple[str, ...]:
            return tuple(formats.render(t, formats.DEFAULT_FORMAT) for t in turns)

        return [
            Variant("submit_unbuilt", "", note="submit() before any build: nothing to grade",
                    turns=play([ToolCall("submit", {})])),
            Variant("wrong_part_built", wrong, note=f"built and submitted a wrong part ({first.kind}: {first.note})",
                    turns=play([ToolCall("build", {"script": wrong})], [ToolCall("submit", {})])),
            Variant("broken_script", broken, note="submitted a script that raises (AttributeError)", max_reward=0.05,
                    turns=play([ToolCall("submit", {"script": broken})])),
        ], []
