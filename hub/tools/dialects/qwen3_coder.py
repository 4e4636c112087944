"""`qwen3_coder` (Qwen3-Coder): XML-like blocks with raw parameter values,

    <tool_call>
    <function=example_function_name>
    <parameter=example_parameter_1>
    value_1
    </parameter>
    </function>
    </tool_call>

A value is raw text (one newline each side is the layout, not the value). Its type comes from the
tool's schema where one is given (`string`: the text as is; others: the text read as JSON);
without a schema, text that reads as JSON is that JSON value, anything else a string. A renderer
given the same schemas writes values that read back the same; what the format cannot carry (a
string value holding `</parameter>` where the schema says string) is refused, not written."""

from __future__ import annotations

import json
import re
from typing import Any

from ..schema import ToolCall
from .common import (ParsedTurn, Scanner, ToolFormatError, arguments_of, check_text, excerpt, json_text,
                     too_many)

OPEN, CLOSE = "<tool_call>", "</tool_call>"
FUNC, FUNC_END, PARAM, PARAM_END = "<function=", "</function>", "<parameter=", "</parameter>"
MARKERS = (OPEN, CLOSE, FUNC, FUNC_END, PARAM, PARAM_END)
WRITE = "write <tool_call>\n<function=TOOL>\n<parameter=NAME>\nVALUE\n</parameter>\n</function>\n</tool_call>"
_NAME = re.compile(r"[^\s<>=/]{1,200}")
_RAW_UNSAFE = re.compile(r"</?(?:tool_call|function|parameter|think)\b|<(?:function|parameter)=", re.IGNORECASE)


def param_types(schemas: Any) -> dict[str, dict[str, str]]:
    """{tool: {parameter: its JSON Schema type}} from OpenAI tool schemas (a list, or one dict)."""
    out: dict[str, dict[str, str]] = {}
    for entry in schemas if isinstance(schemas, list) else [schemas] if isinstance(schemas, dict) else []:
        fn = entry.get("function", entry) if isinstance(entry, dict) else {}
        props = (fn.get("parameters") or {}).get("properties") or {} if isinstance(fn, dict) else {}
        if isinstance(fn.get("name"), str) and isinstance(props, dict):
            out[fn["name"]] = {k: _type_of(v) for k, v in props.items() if isinstance(v, dict)}
    return out


def _type_of(prop: dict) -> str:
    kind = prop.get("type")
    if isinstance(kind, str):
        return kind
    options = [o.get("type") for o in prop.get("anyOf", []) if isinstance(o, dict)]
    real = [o for o in options if o != "null"]
    return real[0] if len(real) == 1 and isinstance(real[0], str) else "any"


def _decode(raw: str, kind: str | None) -> Any:
    if kind == "string":
        return raw
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        if kind == "boolean" and raw.strip().lower() in ("true", "false"):
            return raw.strip().lower() == "true"
        return raw  # a wrong type is for the tool's validation to say back


def parse(text: str, schemas: Any = None) -> ParsedTurn:
    types = param_types(schemas)
    turn, scan = ParsedTurn(), Scanner(text)
    pieces, pos = [], 0
    while (start := scan.find(OPEN, pos)) != -1:
        pieces.append(text[pos:start])
        if too_many(turn, f"{OPEN} blocks"):
            pos = len(text)
            break
        close = scan.find(CLOSE, start)
        end = len(text) if close == -1 else close
        _block(text, scan, start + len(OPEN), end, turn, types)
        pos = end if close == -1 else close + len(CLOSE)
    pieces.append(text[pos:])
    turn.text = "".join(pieces).strip()
    if FUNC in turn.text or CLOSE in turn.text:  # a call whose opening tag is missing or misspelt
        turn.problems.append(f"a <function=...> or {CLOSE} outside a {OPEN} block: that call was not read; {WRITE}")
    return turn


def _block(text: str, scan: Scanner, pos: int, end: int, turn: ParsedTurn, types: dict) -> None:
    found = False
    while (f := scan.find(FUNC, pos)) != -1 and f < end:
        found = True
        if too_many(turn, "calls"):
            return
        gt = scan.find(">", f + len(FUNC))
        name = text[f + len(FUNC):gt] if gt != -1 and gt < end else ""
        if not _NAME.fullmatch(name):
            turn.problems.append(f"a <function=...> without a readable tool name: {excerpt(text[f:min(end, f + 80)])}; {WRITE}")
            pos = f + len(FUNC)
            continue
        fend = scan.find(FUNC_END, gt)
        body_end = end if fend == -1 or fend > end else fend
        if body_end == end and end == len(text) and not text.startswith(CLOSE, end):
            # neither </function> nor </tool_call>: the reply was cut short, its last value perhaps too
            turn.problems.append(f"the call to {name} is cut short (no {FUNC_END}), so it was not run; {WRITE}")
            return
        args, p, unreadable = {}, gt + 1, False
        while (q := scan.find(PARAM, p)) != -1 and q < body_end:
            qgt = scan.find(">", q + len(PARAM))
            pname = text[q + len(PARAM):qgt] if qgt != -1 and qgt < body_end else ""
            if not _NAME.fullmatch(pname):
                turn.problems.append(f"{name}: a <parameter=...> without a readable name, so the call was not run: "
                                     f"{excerpt(text[q:min(body_end, q + 80)])}; {WRITE}")
                p, unreadable = q + len(PARAM), True
                continue
            vstart = qgt + 1
            vend, which = scan.first((PARAM_END, PARAM, FUNC_END), vstart)  # a missing </parameter> is forgiven
            vend = body_end if vend == -1 or vend > body_end else vend
            raw = text[vstart:vend]
            raw = raw[1:] if raw.startswith("\n") else raw
            raw = raw[:-1] if raw.endswith("\n") else raw
            args[pname] = _decode(raw, types.get(name, {}).get(pname))
            p = vend + (len(PARAM_END) if which == PARAM_END and vend < body_end else 0)
        if not unreadable:
            turn.calls.append(ToolCall(name=name, arguments=args))
        pos = body_end + (len(FUNC_END) if body_end == fend else 0)
    if not found:
        turn.problems.append(f"a {OPEN} block holds no <function=TOOL>: {excerpt(text[pos:end].strip())}; {WRITE}")


def _value(name: str, arg: str, value: Any, kind: str | None) -> str:
    if isinstance(value, str):
        raw_ok = not _RAW_UNSAFE.search(value)
        if kind == "boolean" and value.strip().lower() in ("true", "false"):
            return json_text(value)  # raw, it would read back as the boolean
        if kind == "string":
            if not raw_ok:
                raise ToolFormatError(f"qwen3_coder cannot carry {name}.{arg}: a string holding markup "
                                      f"({excerpt(_RAW_UNSAFE.search(value).group())}) would end the value early")
            return value
        try:
            json.loads(value)
        except (ValueError, RecursionError):
            if raw_ok:
                return value  # reads back as this string
        return json_text(value)  # a string that reads as other JSON, or holds markup: quoted, escaped
    if kind == "string":
        raise ToolFormatError(f"qwen3_coder cannot carry {name}.{arg}: the schema says string, so the "
                              f"{type(value).__name__} would read back as its text")
    return json_text(value)


def render(calls: list[ToolCall], text: str = "", schemas: Any = None) -> str:
    check_text(text, "qwen3_coder", MARKERS)
    types = param_types(schemas)
    parts = [text] if text else []
    for call in calls:
        args = arguments_of(call)
        if not isinstance(args, dict):
            raise ToolFormatError(f"qwen3_coder writes arguments as parameters: {call.name}'s are not an object")
        if not _NAME.fullmatch(call.name):
            raise ToolFormatError(f"qwen3_coder cannot carry the tool name {call.name!r} (no spaces, <, >, = or /)")
        lines = [OPEN, f"{FUNC}{call.name}>"]
        for arg, value in args.items():
            if not _NAME.fullmatch(arg):
                raise ToolFormatError(f"qwen3_coder cannot carry the parameter name {arg!r} of {call.name}")
            lines += [f"{PARAM}{arg}>", _value(call.name, arg, value, types.get(call.name, {}).get(arg)), PARAM_END]
        lines += [FUNC_END, CLOSE]
        parts.append("\n".join(lines))
    return "\n".join(parts)
