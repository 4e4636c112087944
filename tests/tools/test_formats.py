"""Tool-call formats: each format's documented examples read as documented (conformance), render
and parse round-trip on hostile names and values (or the renderer refuses), every unreadable call
is a problem that says what to write, and 1 MB of hostile text parses in bounded time."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.tools import ToolCall, formats
from hub.tools.formats import ToolFormatError

FORMATS = formats.known_formats()

# -- documented examples ---------------------------------------------------------------------------
# hermes: Qwen's function-calling guide (qwen.readthedocs.io, "Function Calling", Hermes-style tool use).
HERMES_DOC = """<tool_call>
{"name": "get_current_temperature", "arguments": {"location": "San Francisco, CA, USA"}}
</tool_call>
<tool_call>
{"name": "get_temperature_date", "arguments": {"location": "San Francisco, CA, USA", "date": "2024-10-01"}}
</tool_call>"""
# qwen3_coder: the format the Qwen3-Coder chat template's system prompt states (Qwen/Qwen3-Coder-480B-A35B-Instruct).
QWEN3_CODER_DOC = """<tool_call>
<function=example_function_name>
<parameter=example_parameter_1>
value_1
</parameter>
<parameter=example_parameter_2>
This is the value for the second parameter
that can span
multiple lines
</parameter>
</function>
</tool_call>"""
# llama3_json: Llama 3.1 model card and prompt formats (llama.com, "JSON based tool calling"; meta-llama/llama-models
# models/llama3_1/prompt_format.md): the reply is the call; with `Environment: ipython` it follows <|python_tag|>.
LLAMA3_DOC = '{"name": "get_current_conditions", "parameters": {"location": "San Francisco, CA", "unit": "Fahrenheit"}}'
LLAMA3_TAG_DOC = '<|python_tag|>{"name": "get_current_conditions", "parameters": {"location": "San Francisco, CA", "unit": "Fahrenheit"}}<|eom_id|>'
# mistral: Mistral 7B Instruct v0.3 model card (function calling), and mistral-common's v11 tokenizer form.
MISTRAL_DOC = '[TOOL_CALLS] [{"name": "get_current_weather", "arguments": {"location": "Paris, France", "format": "celsius"}}]</s>'
MISTRAL_V11_DOC = '[TOOL_CALLS]get_current_weather[ARGS]{"location": "Paris, France", "format": "celsius"}</s>'
# harmony: OpenAI cookbook, "OpenAI harmony response format" (articles/openai-harmony.md), "Receiving tool calls"
# and "Preambles".
HARMONY_DOC = ('<|channel|>analysis<|message|>Need to use function get_weather.<|end|><|start|>assistant<|channel|>'
               'commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"San Francisco"}<|call|>')
HARMONY_PREAMBLE_DOC = ('<|channel|>analysis<|message|>{long chain of thought}<|end|><|start|>assistant<|channel|>'
                        'commentary<|message|>**Action plan**:\n1. Generate an HTML file\n2. Generate a JavaScript for '
                        'the Node.js server\n3. Start the server\n---\nWill start executing the plan step by step<|end|>'
                        '<|start|>assistant<|channel|>commentary to=functions.generate_file<|constrain|>json<|message|>'
                        '{"template": "basic_html", "path": "index.html"}<|call|>')
HARMONY_FINAL_DOC = ('<|channel|>analysis<|message|>User asks: "What is 2 + 2?" Simple arithmetic. Provide answer.<|end|>\n'
                     '<|start|>assistant<|channel|>final<|message|>2 + 2 = 4.<|return|>')

SF = {"location": "San Francisco, CA", "unit": "Fahrenheit"}
PARIS = {"location": "Paris, France", "format": "celsius"}
DOCUMENTED = [
    ("hermes", HERMES_DOC, [("get_current_temperature", {"location": "San Francisco, CA, USA"}),
                            ("get_temperature_date", {"location": "San Francisco, CA, USA", "date": "2024-10-01"})], ""),
    ("qwen3_coder", QWEN3_CODER_DOC, [("example_function_name", {
        "example_parameter_1": "value_1",
        "example_parameter_2": "This is the value for the second parameter\nthat can span\nmultiple lines"})], ""),
    ("llama3_json", LLAMA3_DOC, [("get_current_conditions", SF)], ""),
    ("llama3_json", LLAMA3_TAG_DOC, [("get_current_conditions", SF)], ""),
    ("mistral", MISTRAL_DOC, [("get_current_weather", PARIS)], ""),
    ("mistral", MISTRAL_V11_DOC, [("get_current_weather", PARIS)], ""),
    ("harmony", HARMONY_DOC, [("get_weather", {"location": "San Francisco"})], ""),
    ("harmony", HARMONY_PREAMBLE_DOC, [("generate_file", {"template": "basic_html", "path": "index.html"})],
     "**Action plan**:\n1. Generate an HTML file"),
    ("harmony", HARMONY_FINAL_DOC, [], "2 + 2 = 4."),
]


@pytest.mark.parametrize("fmt,text,calls,shown", DOCUMENTED, ids=[f"{d[0]}-{i}" for i, d in enumerate(DOCUMENTED)])
def test_documented_examples_read_as_documented(fmt, text, calls, shown):
    turn = formats.parse(text, fmt)
    assert [(c.name, c.arguments) for c in turn.calls] == calls
    assert not turn.problems
    assert turn.text.startswith(shown) and "analysis" not in turn.text and "chain of thought" not in turn.text


def test_each_format_reads_only_its_own_writing():
    call = [ToolCall("get_weather", {"location": "Paris"})]
    for fmt in FORMATS:
        for other in FORMATS:
            if other not in (fmt, "hermes") and {fmt, other} != {"hermes", "qwen3_coder"}:
                assert formats.parse(formats.render(call, other), fmt).calls == [], (fmt, other)


def test_qwen3_coder_values_take_the_schema_type():
    schema = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
        "code": {"type": "string"}, "n": {"type": "integer"}, "flag": {"type": "boolean"}, "xs": {"type": "array"}}}}}]
    text = ("<tool_call>\n<function=f>\n<parameter=code>\n42\n</parameter>\n<parameter=n>\n42\n</parameter>\n"
            "<parameter=flag>\nTrue\n</parameter>\n<parameter=xs>\n[1, 2]\n</parameter>\n</function>\n</tool_call>")
    assert formats.parse(text, "qwen3_coder", schemas=schema).calls[0].arguments == {
        "code": "42", "n": 42, "flag": True, "xs": [1, 2]}
    assert formats.parse(text, "qwen3_coder").calls[0].arguments["code"] == 42  # no schema: JSON when it reads as JSON
    with pytest.raises(ToolFormatError, match="markup"):
        formats.render([ToolCall("f", {"code": "a </parameter> b"})], "qwen3_coder", schemas=schema)
    assert formats.render([ToolCall("f", {"code": "42"})], "qwen3_coder", schemas=schema).count("\n42\n") == 1


def test_reasoning_never_calls_in_any_format():
    call = [ToolCall("guess", {"number": 1})]
    for fmt in FORMATS:
        assert formats.parse(f"<think>{formats.render(call, fmt)}</think>done", fmt).calls == [], fmt
    analysis = '<|channel|>analysis to=functions.guess<|message|>{"number": 1}<|call|>'
    turn = formats.parse(analysis, "harmony")
    assert turn.calls == [] and "commentary channel" in turn.problems[0]


# -- round trip --------------------------------------------------------------------------------------
MARKUP = ["</tool_call>", "<tool_call>", "</parameter>", "<parameter=x>", "</function>", "<|call|>", "<|end|>",
          "<|python_tag|>", "<|eot_id|>", "[TOOL_CALLS]", "[ARGS]", "</s>", "<think>", "</think>", "<|start|>"]
text_values = st.one_of(st.text(max_size=30), st.sampled_from(MARKUP), st.sampled_from(["42", "true", "null", "\n", " x ", '"q"', "[1]"]),
                        st.lists(st.sampled_from(MARKUP + ["a", "\n", '"', "\\", "é", "😀", "{", "}"]), max_size=8).map("".join))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=False, allow_infinity=False), text_values)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
names = st.one_of(st.from_regex(r"[A-Za-z_][A-Za-z0-9_-]{0,20}", fullmatch=True), st.text(min_size=1, max_size=12))
arguments = st.dictionaries(st.one_of(st.from_regex(r"[a-z_][a-z0-9_]{0,10}", fullmatch=True), st.text(max_size=6)),
                            json_values, max_size=4)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fmt=st.sampled_from(FORMATS), calls=st.lists(st.builds(ToolCall, names, arguments), min_size=1, max_size=3))
def test_render_and_parse_round_trip_or_the_renderer_refuses(fmt, calls):
    try:
        text = formats.render(calls, fmt)
    except ToolFormatError:  # only names the markup formats cannot write: their values are always carried
        rule = {"qwen3_coder": r"[^\s<>=/]{1,200}", "harmony": r"[^\s<|]{1,200}"}.get(fmt)
        keys = [k for c in calls for k in c.arguments] if fmt == "qwen3_coder" else []
        assert rule and any(not re.fullmatch(rule, n) for n in [c.name for c in calls] + keys), (fmt, calls)
        return
    back = formats.parse(text, fmt)
    assert not back.problems, (fmt, text, back.problems)
    assert [(c.name, c.arguments) for c in back.calls] == [(c.name, c.arguments) for c in calls], (fmt, text)


@settings(max_examples=60, deadline=None)
@given(values=st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True), text_values, min_size=1, max_size=3))
def test_qwen3_coder_string_parameters_round_trip_under_their_schema_or_are_refused(values):
    schema = [{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {k: {"type": "string"} for k in values}}}}]
    try:
        text = formats.render([ToolCall("f", values)], "qwen3_coder", schemas=schema)
    except ToolFormatError:
        assert any(re.search(r"</?(tool_call|function|parameter|think)\b|<(function|parameter)=", v, re.I)
                   for v in values.values())
        return
    assert formats.parse(text, "qwen3_coder", schemas=schema).calls[0].arguments == values


@pytest.mark.parametrize("fmt", FORMATS)
def test_ordinary_calls_are_never_refused(fmt):
    calls = [ToolCall("write_file", {"path": "a/b.txt", "content": 'line "one"\n\tline <two> & {three}\n', "n": 3,
                                     "opts": {"x": [1, 2.5, None, True]}}), ToolCall("submit", {})]
    back = formats.parse(formats.render(calls, fmt, text="Let me write it."), fmt)
    assert [(c.name, c.arguments) for c in back.calls] == [(c.name, c.arguments) for c in calls]
    assert back.text == "Let me write it."


# -- malformed and hostile input --------------------------------------------------------------------
MALFORMED = {
    "hermes": ['<tool_call>\n{"name": "guess", "arguments": {oops}\n</tool_call>', "<tool_call>\n[1, 2]\n</tool_call>",
               '<tool_call>{"name": "guess"}} extra</tool_call>', "<tool_call>"],
    "qwen3_coder": ["<tool_call>\n<function>\n</function>\n</tool_call>", "<tool_call>\nguess(1)\n</tool_call>",
                    "<function=guess>\n<parameter=number>\n1\n</parameter>\n</function>",
                    "<tool_call>\n<function=guess>\n<parameter=a b>\n1\n</parameter>\n</function>\n</tool_call>"],
    "llama3_json": ['{"name": "guess", "parameters": {1}}', '{"parameters": {}}',
                    'I will call it: {"name": "guess", "parameters": {}}', '{"name": 5, "parameters": {}}'],
    "mistral": ['[TOOL_CALLS] [{"name": "guess", "arguments": {oops}}]', "[TOOL_CALLS] not a call",
                '[TOOL_CALLS] [{"arguments": {}}]', '[TOOL_CALLS]guess {"number": 1}'],
    "harmony": ['<|channel|>commentary to=browser.search <|constrain|>json<|message|>{"q": "x"}<|call|>',
                "<|channel|>commentary to=functions.guess", '<|start|>assistant<|start|>assistant<|channel|>commentary',
                '<|channel|>analysis to=functions.guess<|message|>{}<|call|>'],
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_unreadable_call_is_a_problem_that_says_what_to_write(fmt):
    for text in MALFORMED[fmt]:
        turn = formats.parse(text, fmt)
        assert turn.calls == [] and turn.problems, (fmt, text)
        assert all("write" in p for p in turn.problems), turn.problems


def test_arguments_that_are_not_json_go_to_the_named_tool_as_text():
    for fmt, text in [("harmony", "<|channel|>commentary to=functions.guess <|constrain|>json<|message|>{number: 1}<|call|>"),
                      ("mistral", "[TOOL_CALLS]guess[ARGS]{number: 1}")]:
        (call,) = formats.parse(text, fmt).calls
        assert call.name == "guess" and call.arguments == "{number: 1}"  # the toolbox says: not a JSON object


def _hostile(fmt: str) -> list[str]:
    mb = 1 << 20
    unit = {"hermes": '<tool_call>{"a":"<tool_call>",', "qwen3_coder": "<tool_call><function=f><parameter=a>",
            "llama3_json": '{"name": "a", "parameters": {}};', "mistral": "[TOOL_CALLS]x[ARGS]{[TOOL_CALLS]",
            "harmony": "<|start|>assistant<|channel|>commentary to=functions.f<|message|>{"}[fmt]
    return [unit * (mb // len(unit)), "[" * mb, "<tool_call>" + "{" * mb, "<|channel|>" * (mb // 11),
            '<tool_call>{"name":"a","arguments":{"x":"' + "y" * mb, "<think>" * (mb // 7)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_megabyte_of_hostile_text_parses_in_bounded_time(fmt):
    for text in _hostile(fmt):
        t0 = time.perf_counter()
        turn = formats.parse(text, fmt)
        assert time.perf_counter() - t0 < 2.0, (fmt, text[:40])
        assert len(turn.calls) <= formats.MAX_CALLS_READ


@pytest.mark.parametrize("fmt", FORMATS)
def test_more_than_the_cap_of_calls_is_said_once(fmt):
    calls = [ToolCall("f", {"i": i}) for i in range(formats.MAX_CALLS_READ + 5)]
    turn = formats.parse(formats.render(calls, fmt), fmt)
    assert len(turn.calls) == formats.MAX_CALLS_READ
    assert sum(f"more than {formats.MAX_CALLS_READ}" in p for p in turn.problems) == 1
