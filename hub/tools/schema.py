"""Tools: typed Python callables an episode offers a model, with the OpenAI function schemas a
chat template renders (`tokenizer.apply_chat_template(messages, tools=...)`).

    class Notebook(ToolEpisode):
        @tool
        def read_page(self, page: int, lines: int = 40) -> str:
            '''Read a page of the document.

            Args:
                page: the page number, from 1.
                lines: how many lines to show.
            '''
            return self.pages[page - 1][:lines]      # self holds what the model must not see

A tool's schema comes from its signature (types, defaults) and its docstring (the first paragraph
describes the tool; `Args:` describes each parameter). Only the parameters after `self` are in
the schema: per-episode state (the task's hidden data, the sandbox) lives on the episode and is
never a parameter. Arguments are validated with pydantic before the tool runs; a call the model
got wrong (an unknown tool, arguments that are not a JSON object, a missing or mistyped argument,
an argument too large) is answered with a tool error that says what was wrong, never raised.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
import typing
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

import pydantic

TOOL_MARK = "__rlhub_tool__"
MAX_CALLS_PER_TURN = 16  # more are answered with an error, not run
MAX_ARGUMENT_BYTES = 256 * 1024  # one call's arguments, as JSON
MAX_RESULT_CHARS = 24_000  # one result's text (cut with a marker)


class ToolError(Exception):
    """Raised by a tool when the model used it wrongly; the message goes back to the model."""


@dataclass(frozen=True)
class ToolCall:
    """One call as the model made it. `arguments` is the decoded JSON object, or the raw text
    when it was not one (kept, so the error can say what was wrong)."""

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)
    id: str = ""

    def to_openai(self) -> dict[str, Any]:
        """The call as an OpenAI chat message's `tool_calls` entry."""
        args = self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments, ensure_ascii=False)
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": args}}

    @classmethod
    def from_openai(cls, entry: dict[str, Any]) -> "ToolCall":
        """A `tool_calls` entry of an OpenAI-compatible reply (arguments as a JSON string or object)."""
        fn = entry.get("function") if isinstance(entry.get("function"), dict) else entry
        return cls(name=str(fn.get("name") or ""), arguments=decode_arguments(fn.get("arguments", {})),
                   id=str(entry.get("id") or ""))


def decode_arguments(raw: Any) -> dict[str, Any] | str:
    """Arguments as a dict when they are a JSON object (or its text), else the raw text."""
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw) if raw.strip() else {}
        except ValueError:
            return raw
        return value if isinstance(value, dict) else raw
    return json.dumps(raw) if raw is not None else {}


@dataclass
class ToolOutput:
    """What a tool returns when it has more than text: images (PNG bytes) beside it."""

    text: str
    images: list[bytes] = field(default_factory=list)


@dataclass
class ToolResult:
    """One call's result, sent back to the model as a `tool` message."""

    name: str
    content: str
    call_id: str = ""
    is_error: bool = False
    images: list[bytes] = field(default_factory=list)

    def text(self) -> str:
        """The content, and a line saying what images came with it: a text transcript (a trainer's,
        an OpenAI `tool` message) cannot show them, and the model should not think none came."""
        if not self.images:
            return self.content
        return self.content + f"\n[{len(self.images)} image(s) returned with this result: not shown in a text transcript]"

    def message(self) -> dict[str, Any]:
        """The result as an OpenAI chat `tool` message (its images named, not carried: MCP and the
        HTTP episode API carry them)."""
        msg = {"role": "tool", "name": self.name, "content": self.text()}
        if self.call_id:
            msg["tool_call_id"] = self.call_id
        return msg


def tool(fn: Callable | None = None, *, name: str | None = None) -> Any:
    """Mark a method (or function) as a tool. `@tool` or `@tool(name="other")`."""

    def mark(f: Callable) -> Callable:
        setattr(f, TOOL_MARK, {"name": name or f.__name__})
        return f

    return mark(fn) if fn is not None else mark


_ARGS_HEADER = re.compile(r"^\s*(Args|Arguments|Parameters):\s*$")
_ARG_LINE = re.compile(r"^\s*(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """(the description: the text before `Args:`, joined; {parameter: its description})."""
    lines = inspect.cleandoc(doc or "").splitlines()
    head, params, current, in_args, indent = [], {}, None, False, None
    for line in lines:
        if _ARGS_HEADER.match(line):
            in_args = True
            continue
        if not in_args:
            head.append(line)
            continue
        if not line.strip():
            current = None
            continue
        width = len(line) - len(line.lstrip())
        m = _ARG_LINE.match(line)
        if m and (indent is None or width <= indent):
            indent = width
            current = m.group(1).lstrip("*")
            params[current] = m.group(2).strip()
        elif current is not None:  # a continuation line of the current parameter
            params[current] = f"{params[current]} {line.strip()}".strip()
        elif width == 0:  # another section (Returns:, Raises:) ends the arguments
            in_args = False
    description = " ".join(p.strip() for p in "\n".join(head).split("\n\n")[0].splitlines()).strip()
    return description, params


class Tool:
    """A callable with its argument model and OpenAI schema. `fn` is a function or a bound method."""

    def __init__(self, fn: Callable, name: str | None = None, description: str | None = None) -> None:
        self.fn = fn
        self.name = name or getattr(fn, TOOL_MARK, {}).get("name") or fn.__name__
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]{0,63}", self.name):
            raise ValueError(f"tool name {self.name!r}: use letters, digits, '_' and '-' (64 at most)")
        doc_description, doc_params = parse_docstring(inspect.getdoc(fn))
        self.description = description or doc_description
        sig = inspect.signature(fn)
        hints = typing.get_type_hints(fn)
        fields: dict[str, Any] = {}
        for pname, param in sig.parameters.items():
            if pname == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            annotation = hints.get(pname, Any)
            default = ... if param.default is param.empty else param.default
            fields[pname] = (annotation, pydantic.Field(default, description=doc_params.get(pname)))
        config = pydantic.ConfigDict(extra="forbid", strict=False)
        self.model = pydantic.create_model(f"{self.name}_arguments", __config__=config, **fields)
        self.parameters = list(fields)

    def schema(self) -> dict[str, Any]:
        """The OpenAI function schema (`{"type": "function", "function": {...}}`)."""
        params = self.model.model_json_schema()
        params.pop("title", None)
        for prop in params.get("properties", {}).values():
            prop.pop("title", None)
        params.setdefault("properties", {})
        params.setdefault("required", [])
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": params}}

    def validate(self, arguments: dict[str, Any] | str) -> dict[str, Any]:
        """The arguments as the tool's keyword arguments, or ToolError saying what is wrong."""
        if isinstance(arguments, str):
            raise ToolError(f"{self.name}: the arguments are not a JSON object: {arguments[:200]!r}")
        try:
            size = len(json.dumps(arguments, ensure_ascii=False).encode("utf-8", "surrogatepass"))
        except (TypeError, ValueError):
            raise ToolError(f"{self.name}: the arguments are not JSON values") from None
        if size > MAX_ARGUMENT_BYTES:
            raise ToolError(f"{self.name}: the arguments are {size} bytes, more than the {MAX_ARGUMENT_BYTES} a call may send")
        try:
            checked = self.model.model_validate(arguments)
        except pydantic.ValidationError as exc:
            problems = []
            for err in exc.errors()[:5]:
                where = ".".join(str(p) for p in err.get("loc", ())) or "(arguments)"
                msg = "unknown argument" if err.get("type") == "extra_forbidden" else err.get("msg", "invalid")
                problems.append(f"{where}: {msg}")
            expected = ", ".join(self.parameters) or "none"
            raise ToolError(f"{self.name}: {'; '.join(problems)} (its arguments: {expected})") from None
        return {k: getattr(checked, k) for k in self.parameters}

    def __call__(self, arguments: dict[str, Any] | str) -> Any:
        return self.fn(**self.validate(arguments))


def tools_of(obj: Any) -> list[Tool]:
    """The tools an object offers: its methods marked with @tool, bound to it, in the order the
    class (and then its bases) defines them. Given a class: the same tools unbound (for their
    schemas: a prompt's tools list, without an episode)."""
    seen: dict[str, Tool] = {}
    for klass in (obj if isinstance(obj, type) else type(obj)).__mro__:
        for attr, value in vars(klass).items():
            mark = getattr(value, TOOL_MARK, None)
            if mark and mark["name"] not in seen and attr not in {t.fn.__name__ for t in seen.values()}:
                seen[mark["name"]] = Tool(getattr(obj, attr))
    return list(seen.values())


@functools.lru_cache(maxsize=None)
def schemas_of(episode_class: type) -> tuple[dict[str, Any], ...]:
    """The OpenAI schemas of a tool episode class's tools, built once per class (a prompt file of
    10,000 rows asks for them on every row, and each Tool builds a pydantic model)."""
    return tuple(t.schema() for t in tools_of(episode_class))


class ToolBox:
    """A set of tools that runs a turn's calls. `run` never raises: a wrong call is a result
    with `is_error`, counted in `errors` by kind (for the verdict's details and trainer logs)."""

    def __init__(self, tools: list[Tool], max_calls: int = MAX_CALLS_PER_TURN,
                 max_result_chars: int = MAX_RESULT_CHARS) -> None:
        self.tools = {t.name: t for t in tools}
        self.max_calls, self.max_result_chars = max_calls, max_result_chars
        self.errors: Counter[str] = Counter()
        self.calls = 0

    def schemas(self) -> list[dict[str, Any]]:
        return [t.schema() for t in self.tools.values()]

    def error(self, kind: str, call: ToolCall, message: str) -> ToolResult:
        self.errors[kind] += 1
        return ToolResult(name=call.name, call_id=call.id, content=f"error: {message}", is_error=True)

    def run(self, calls: list[ToolCall], stop: Callable[[], bool] = lambda: False) -> list[ToolResult]:
        """Each call's result, in order. Calls past `max_calls`, or after `stop()` turns true (the
        episode ended), are answered with an error and not run."""
        results = []
        for i, call in enumerate(calls):
            if i >= self.max_calls:
                results.append(self.error("too_many_calls", call, f"only {self.max_calls} calls run per turn; "
                                          f"this one (number {i + 1}) was not run"))
                continue
            if stop():
                results.append(self.error("after_end", call, "the episode has ended; this call was not run"))
                continue
            results.append(self.call(call))
        return results

    def call(self, call: ToolCall) -> ToolResult:
        self.calls += 1
        found = self.tools.get(call.name)
        if found is None:
            known = ", ".join(self.tools) or "none"
            return self.error("unknown_tool", call, f"there is no tool {call.name[:80]!r} (the tools: {known})")
        try:
            kwargs = found.validate(call.arguments)
        except ToolError as exc:
            kind = "malformed_arguments" if isinstance(call.arguments, str) else "bad_arguments"
            return self.error(kind, call, str(exc))
        try:
            out = found.fn(**kwargs)
        except ToolError as exc:
            return self.error("tool_refused", call, str(exc))
        images: list[bytes] = []
        if isinstance(out, ToolOutput):
            out, images = out.text, list(out.images)
        text = out if isinstance(out, str) else json.dumps(out, ensure_ascii=False, default=str)
        if len(text) > self.max_result_chars:
            text = text[:self.max_result_chars] + f"\n[... result cut: {len(text) - self.max_result_chars} more characters]"
        return ToolResult(name=call.name, call_id=call.id, content=text, images=images)
