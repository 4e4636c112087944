"""The CAD tool environments played as a model plays them: tool calls written in the hermes format,
builds answered with the model's own part measured (and drawn) in the sandbox, errors said back."""

from __future__ import annotations

import json
import struct

import pytest

from hub.tools import ToolCall, formats

ENV = "cad/plate-slots-dimensioned-tools-v1"


def turn(*calls: ToolCall) -> str:
    return formats.render(list(calls), formats.DEFAULT_FORMAT)


def measured(result) -> dict:
    """The JSON a successful build returns (its first line)."""
    return json.loads(result.content.split("\n", 1)[0])


def png_size(png: bytes) -> tuple[int, int]:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return struct.unpack(">II", png[16:24])


def test_an_episode_with_a_broken_build_then_the_reference_earns_full_reward(catalog):
    label = {"env": ENV, "seed": 0}
    task = catalog.task(label)
    reference = task.hidden["reference_script"]
    with catalog.episode(label) as episode:
        episode.reset()
        broken = episode.step(turn(ToolCall("build", {"script": reference + "\nresult = result.faces('>Z').no_such_op()\n"}),
                                   ToolCall("build", {"script": "import os\nresult = os.getcwd()"}),
                                   ToolCall("build", {"script": "result = (\n"})))
        assert not broken.done
        runtime, forbidden, syntax = broken.tool_results
        assert "build failed (error): AttributeError" in runtime.content and "no_such_op" in runtime.content
        assert "build failed (policy)" in forbidden.content and "os" in forbidden.content
        assert "build failed (syntax)" in syntax.content
        assert not any(r.is_error or r.images for r in broken.tool_results)  # the script's error, not a misused tool

        built = episode.step(turn(ToolCall("build", {"script": reference})))
        assert not built.done
        result = built.tool_results[0]
        facts = measured(result)
        expected = task.metadata["bbox"]  # [xmin, ymin, zmin, xmax, ymax, zmax], as the prompt states it
        assert facts["bounding_box_mm"]["min"] + facts["bounding_box_mm"]["max"] == pytest.approx(expected, abs=1e-3)
        params = task.metadata["params"]
        assert facts["feature_counts"]["slot"] == params["slots"]
        assert {(s["width"], s["length"]) for s in facts["features"]["slots"]} == {(params["slot_w"], params["slot_len"])}
        assert facts["volume_mm3"] > 0 and facts["surface_area_mm2"] > 0
        assert len(result.images) == 1 and png_size(result.images[0]) == (640, 480)

        done = episode.step(turn(ToolCall("submit", {})))
    assert done.done and done.verdict.reward == 1.0 and done.verdict.passed
    assert done.verdict.details["graded"] == "the last script built"
    assert done.verdict.details["tools"]["calls"] == 5


def test_build_reports_the_script_alone_never_the_task(catalog):
    """The same wrong script built in two tasks with different reference parts: the same
    measurements, word for word (nothing of the hidden part reaches the model)."""
    wrong = "import cadquery as cq\nresult = cq.Workplane('XY').box(40, 30, 5).faces('>Z').workplane().hole(6)\n"
    outputs = []
    for seed in (0, 1):
        label = {"env": ENV, "seed": seed}
        with catalog.episode(label) as episode:
            episode.reset()
            outputs.append(episode.step(turn(ToolCall("build", {"script": wrong}))).tool_results[0])
    assert catalog.task({"env": ENV, "seed": 0}).hidden != catalog.task({"env": ENV, "seed": 1}).hidden
    assert outputs[0].content == outputs[1].content
    facts = measured(outputs[0])
    assert facts["bounding_box_mm"]["size"] == [40.0, 30.0, 5.0]
    assert facts["feature_counts"]["hole"] == 1 and facts["features"]["holes"][0]["d"] == 6.0


def test_builds_are_capped_and_the_turns_running_out_grade_the_last_build(catalog, monkeypatch):
    from rlhub_cad import tools

    monkeypatch.setattr(tools, "MAX_BUILDS", 3)
    label = {"env": ENV, "seed": 0}
    with catalog.episode(label) as episode:
        episode.reset()
        episode.max_turns = 2
        first = episode.step(turn(*[ToolCall("build", {"script": "import os\nresult = 1"})] * 4))  # policy: no sandbox run
        assert [r.is_error for r in first.tool_results] == [False, False, False, True]
        assert "builds and they are used up" in first.tool_results[3].content
        last = episode.step("I am done.")
    assert last.done and last.verdict.reward == 0.0 and last.verdict.details["stage"] == "policy"
    assert last.verdict.details["graded"] == "the last script built (no submission)"
