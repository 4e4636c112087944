"""Tools in the core: schemas from signatures and docstrings, calls validated (every wrong call
an error the model can read, counted, never raised), and the tool front end of an episode on the
core's own tool environment (arith/guess-tools-v1: no sandbox)."""

from __future__ import annotations

import json

import pytest

import hub
from hub.tools import Tool, ToolBox, ToolCall, ToolError, ToolOutput, tool, tools_of
from hub.tools import formats


class Notebook:
    def __init__(self):
        self.secret = "hidden answer"  # episode state: never in a schema

    @tool
    def read_page(self, page: int, lines: int = 40) -> str:
        """Read a page of the document.

        Args:
            page: the page number, from 1.
            lines: how many lines to show,
                at most 200.
        """
        if page < 1:
            raise ToolError("pages start at 1")
        return f"page {page}, {lines} lines"

    @tool(name="look")
    def picture(self, caption: str) -> ToolOutput:
        """Draw the page."""
        return ToolOutput(text=caption, images=[b"\x89PNG"])


def test_schema_comes_from_the_signature_and_the_docstring():
    read, look = (t.schema()["function"] for t in tools_of(Notebook()))
    assert read["name"] == "read_page" and read["description"] == "Read a page of the document."
    params = read["parameters"]
    assert params["required"] == ["page"] and params["additionalProperties"] is False
    assert params["properties"]["page"] == {"type": "integer", "description": "the page number, from 1."}
    assert params["properties"]["lines"]["default"] == 40
    assert params["properties"]["lines"]["description"] == "how many lines to show, at most 200."
    assert "self" not in json.dumps(params) and "secret" not in json.dumps(params)
    assert look["name"] == "look"
    # The class gives the same schemas without an instance (a prompt's tools list).
    assert [t.schema() for t in tools_of(Notebook)] == [t.schema() for t in tools_of(Notebook())]


@pytest.mark.parametrize("call, kind, says", [
    (ToolCall("nope", {}), "unknown_tool", "there is no tool 'nope' (the tools: read_page, look)"),
    (ToolCall("read_page", "{page: 1"), "malformed_arguments", "not a JSON object"),
    (ToolCall("read_page", {}), "bad_arguments", "page: Field required"),
    (ToolCall("read_page", {"page": "one"}), "bad_arguments", "page: Input should be a valid integer"),
    (ToolCall("read_page", {"page": 1, "pages": 2}), "bad_arguments", "pages: unknown argument"),
    (ToolCall("read_page", {"page": 1, "lines": "x" * (1 << 20)}), "bad_arguments", "more than the 262144"),
    (ToolCall("read_page", {"page": 0}), "tool_refused", "pages start at 1"),
])
def test_every_wrong_call_is_an_error_result_that_says_what_was_wrong(call, kind, says):
    box = ToolBox(tools_of(Notebook()))
    result = box.call(call)
    assert result.is_error and result.content.startswith("error: ") and says in result.content
    assert dict(box.errors) == {kind: 1}


def test_calls_past_the_cap_are_answered_not_run():
    ran = []

    class Counter:
        @tool
        def tick(self) -> str:
            """Count."""
            ran.append(1)
            return "ok"

    box = ToolBox(tools_of(Counter()), max_calls=16)
    results = box.run([ToolCall("tick", {}) for _ in range(1000)])
    assert len(results) == 1000 and len(ran) == 16
    assert sum(r.is_error for r in results) == 984 and box.errors["too_many_calls"] == 984


def test_a_tool_may_return_images_and_long_text_is_cut():
    box = ToolBox(tools_of(Notebook()), max_result_chars=10)
    r = box.call(ToolCall("look", {"caption": "a" * 50}))
    assert r.images == [b"\x89PNG"] and r.content.startswith("a" * 10) and "40 more characters" in r.content


LABEL = '{"env": "arith/guess-tools-v1", "seed": 3}'


@pytest.fixture(scope="module")
def cat():
    return hub.load()


def test_a_guess_episode_played_in_each_form_of_turn(cat):
    target = int(cat.task(LABEL).hidden["answer"])
    assert cat.tools(LABEL)[0]["function"]["name"] == "guess"
    forms = [
        formats.render([ToolCall("guess", {"number": target})]),  # raw text, the run's format
        {"role": "assistant", "content": None, "tool_calls": [ToolCall("guess", {"number": target}, "c1").to_openai()]},
        [ToolCall("guess", {"number": target})],
    ]
    for form in forms:
        with cat.episode(LABEL) as ep:
            ep.reset()
            miss = ep.step([ToolCall("guess", {"number": target + 1})])
            assert not miss.done and miss.tool_results[0].content == f"no: the number is lower than {target + 1}"
            end = ep.step(form)
            assert end.done and end.verdict.reward == 1.0 and end.verdict.details["tools"]["calls"] == 2


def test_wrong_turns_are_said_back_and_the_episode_goes_on(cat):
    with cat.episode(LABEL) as ep:
        ep.reset()
        s = ep.step("I think it is 5.")  # no call at all
        assert not s.done and "no tool was called" in s.observation
        s = ep.step('<tool_call>\n{"name": "guess", "arguments": {oops}\n</tool_call>')
        assert not s.done and "not JSON" in s.notes[0]
        s = ep.step([ToolCall("guess", {"number": "many"})])
        assert not s.done and s.tool_results[0].is_error
        for _ in range(5):
            s = ep.step([ToolCall("guess", {"number": 0})])
        assert s.done and s.verdict.reward == 0.0 and s.verdict.error is None
        assert s.verdict.details["tools"]["errors"] == {"bad_arguments": 1}
        after = ep.step([ToolCall("guess", {"number": 1})])  # a call after the end is answered, not run
        assert after.done and after.tool_results[0].is_error and "has ended" in after.tool_results[0].content


def test_a_tool_that_fails_unexpectedly_ends_with_no_verdict(cat):
    with cat.episode(LABEL) as ep:
        ep.reset()
        ep.task.hidden["answer"] = "not a number"  # the environment's own data broken: not the model's fault
        s = ep.step([ToolCall("guess", {"number": 1})])
        assert s.done and s.verdict.error and "ValueError" in s.verdict.error


def test_reasoning_never_calls_a_tool():
    text = "<think><tool_call>\n{\"name\": \"guess\", \"arguments\": {\"number\": 1}}\n</tool_call></think>done"
    assert formats.parse(text).calls == []


def test_guesses_are_as_many_as_the_text_games_turns_however_they_are_spread(cat):
    """Red team: 16 calls a turn let counting up 1..112 in 7 turns find any number."""
    target = int(cat.task(LABEL).hidden["answer"])
    with cat.episode(LABEL) as ep:
        ep.reset()
        scan = [ToolCall("guess", {"number": n}) for n in range(1, 17) if n != target]
        s = ep.step(scan)
        assert s.done and s.verdict.reward == 0.0
        assert sum(not r.is_error for r in s.tool_results) == ep.max_turns  # the rest: after the end


def test_a_text_transcript_says_a_result_came_with_images():
    from hub.trainers.turn_format import PRESETS

    r = ToolBox(tools_of(Notebook())).call(ToolCall("look", {"caption": "the part"}))
    assert r.message()["content"] == "the part\n[1 image(s) returned with this result: not shown in a text transcript]"
    assert "1 image(s) returned" in PRESETS["chatml"].tool_feedback("<tool_call>...</tool_call>", [r])
