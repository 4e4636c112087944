"""Input/output test cases (APPS, LiveCodeBench): `test_style: stdio`.

Host side, `stdio_module` turns the cases into a test module with one `test_case_N` each:
- a stdin case runs the solution file as `__main__` on the input (in the solution's process,
  as those benchmarks' harnesses do in theirs) and compares what it printed with the expected
  output: line by line after stripping, and where a line differs, as lists of decimal numbers
  (LiveCodeBench's rule: "1.50" equals "1.5");
- a call case (APPS `fn_name`, LiveCodeBench "functional") calls the function, or the method
  of a fresh `Solution()` when the solution defines that class, and compares the result with
  the expected value (tuples as lists; APPS also accepts the expected list's only element).

Accepted shapes of `tests` (a JSON string or the parsed value):
- APPS: {"inputs": [...], "outputs": [...], "fn_name": "..."?}
- LiveCodeBench: [{"input": "...", "output": "...", "testtype": "stdin" | "functional"}, ...],
  also the compressed form of its private cases (base64 of zlib of a pickled JSON string,
  unpickled with nothing but strings allowed).
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import zlib
from decimal import Decimal, InvalidOperation

MAIN, CALL, SAME_OUTPUT, SAME_VALUE = "__rlhub_main__", "__rlhub_call__", "__rlhub_same_output__", "__rlhub_same_value__"


class CasesError(ValueError):
    """The task's cases are unusable (an environment bug, not the model's fault)."""


class _StringsOnly(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing {module}.{name}: only plain strings are expected here")


def _load(value):
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        pass
    try:  # LiveCodeBench's compressed private cases
        inner = _StringsOnly(io.BytesIO(zlib.decompress(base64.b64decode(value)))).load()
        return json.loads(inner) if isinstance(inner, str) else inner
    except Exception:
        raise CasesError("the test cases are neither JSON nor LiveCodeBench's compressed form") from None


def _text(value) -> str:
    if isinstance(value, list):
        return "\n".join(map(str, value))
    return str(value)


def fn_name(entry_point) -> str | None:
    """The function to call: an entry point, or LiveCodeBench's metadata {"func_name": ...}."""
    if not entry_point:
        return None
    if isinstance(entry_point, str) and entry_point.lstrip().startswith("{"):
        entry_point = _load(entry_point)
    if isinstance(entry_point, dict):
        entry_point = entry_point.get("func_name") or entry_point.get("fn_name")
    return entry_point if isinstance(entry_point, str) and entry_point.isidentifier() else None


def parse_cases(*sources, entry_point=None) -> list[dict]:
    """[{"kind": "stdin"|"call", "input", "output", "args"?}] from every source, in order."""
    cases: list[dict] = []
    for source in sources:
        if source is None or source == "":
            continue
        data = _load(source)
        if isinstance(data, dict) and "inputs" in data and "outputs" in data:  # APPS
            name = data.get("fn_name") or fn_name(entry_point)
            if len(data["inputs"]) != len(data["outputs"]):
                raise CasesError("APPS cases: inputs and outputs differ in length")
            for given, want in zip(data["inputs"], data["outputs"]):
                if name:
                    cases.append({"kind": "call", "fn": name, "args": given if isinstance(given, list) else [given],
                                  "output": want})
                else:
                    cases.append({"kind": "stdin", "input": _text(given), "output": _text(want)})
        elif isinstance(data, list) and all(isinstance(c, dict) and "input" in c and "output" in c for c in data):
            for case in data:  # LiveCodeBench
                if case.get("testtype") == "functional":
                    name = fn_name(entry_point)
                    if not name:
                        raise CasesError("functional cases need the function's name (entry_point / metadata func_name)")
                    try:
                        args = [json.loads(line) for line in str(case["input"]).split("\n") if line.strip()]
                        want = json.loads(case["output"])
                    except ValueError:
                        raise CasesError("a functional case whose input or output is not JSON") from None
                    cases.append({"kind": "call", "fn": name, "args": args, "output": want})
                else:
                    cases.append({"kind": "stdin", "input": str(case["input"]), "output": str(case["output"])})
        else:
            raise CasesError("unrecognised test cases: expected APPS' {inputs, outputs} or LiveCodeBench's "
                             "[{input, output, testtype}]")
    if not cases:
        raise CasesError("the task has no input/output cases")
    return cases


def stdio_module(cases: list[dict], skip_number: int | None = None) -> tuple[str, list[str]]:
    lines, ids, number = [], [], 0
    for case in cases:
        number += 1 + (number + 1 == skip_number)
        ids.append(f"test_case_{number}")
        if case["kind"] == "stdin":
            body = (f"got = {MAIN}({case['input']!r})\n"
                    f"assert {SAME_OUTPUT}(got, {case['output']!r}), (got, {case['output']!r})")
        else:
            data = json.dumps([case["args"], case["output"]])
            body = (f"args, want = __import__('json').loads({data!r})\n"
                    f"got = {CALL}({case['fn']!r}, args)\n"
                    f"assert {SAME_VALUE}(got, want), (got, want)")
        lines.append(f"def {ids[-1]}():\n" + "".join(f"    {line}\n" for line in body.splitlines()))
    return "\n\n".join(lines) + "\n", ids


# -- runner side: the comparisons (plain values on both sides) -----------------------------------
def same_output(got, want) -> bool:
    if not isinstance(got, str):
        return False
    g = [line.strip() for line in got.strip().split("\n")]
    w = [line.strip() for line in want.strip().split("\n")]
    if len(g) != len(w):
        return False
    for a, b in zip(g, w):
        if a == b:
            continue
        try:
            if [Decimal(x) for x in a.split()] != [Decimal(x) for x in b.split()]:
                return False
        except (InvalidOperation, ValueError):
            return False
    return True


def _lists(value):
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    return value


def same_value(got, want) -> bool:
    got = _lists(got)
    return got == want or (isinstance(want, list) and len(want) == 1 and got == want[0])


def call(module, name: str, args: list):
    """The solution's `name`: a method of a fresh `Solution()` if it defines that class."""
    try:
        holder = module.Solution()
    except AttributeError:
        holder = module
    return getattr(holder, name)(*args)
