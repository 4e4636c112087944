"""The terminal session's tool front end (rlhub_terminal.tool_session), on the real bwrap sandbox:
played to 1.0 through tool calls; every kind of wrong call answered with a tool error the model can
act on; hostile runs handled as in the text session (a FIFO at the solution never blocks and is
graded as no solution; a background process dies with its command); sandbox faults and close()
end with no verdict, never a zero."""

from __future__ import annotations

import json
import threading
import time

import pytest
from terminal_helpers import FlakySandbox

from hub.tools import ToolCall
from hub.tools.formats import DEFAULT_FORMAT, render

ENV = "terminal/session-bugfix-binary-search-tools-v1"
LABEL = {"env": ENV, "seed": 3}


def call(name, **arguments):
    return ToolCall(name, arguments)


def opened(catalog, label=LABEL):
    ep = catalog.episode(label)
    ep.reset()
    return ep


def code_of(catalog, label=LABEL):
    env = catalog.get(label["env"]).env
    return env.tool_turns(catalog.task(label))[0][0].arguments["content"]


def test_prompt_and_tools_column(catalog):
    task = catalog.task(LABEL)
    names = [t["function"]["name"] for t in catalog.tools(LABEL)]
    assert names == ["write_file", "read_file", "run", "submit"]
    assert all(f"`{n}`" in task.prompt for n in names) and "solution.py" in task.prompt
    assert '"parameters"' not in task.prompt and "```bash" not in task.prompt  # schemas travel beside, not in it
    twin = catalog.task({"env": "terminal/session-bugfix-binary-search-v1", "seed": 3})
    assert task.hidden == twin.hidden and task.reference == twin.reference


def test_explore_fix_and_submit_to_one_through_tool_calls(catalog):
    ep = opened(catalog)
    code = code_of(catalog)
    step = ep.step([call("write_file", path="solution.py", content="def find(xs, t):\n    return -1\n"),
                    call("run", command="python3 -c 'from solution import find; print(find([1, 3, 5], 5))'"),
                    call("read_file", path="solution.py", start_line=2, end_line=2)])
    assert not step.done and [r.is_error for r in step.tool_results] == [False] * 3
    assert "exit code 0" in step.tool_results[1].content and "\n-1" in step.tool_results[1].content
    assert step.tool_results[2].content == "[lines 2-2 of 2]\n    return -1"
    message = {"content": "fixing", "tool_calls": [  # an OpenAI assistant message, arguments as JSON text
        {"id": "c1", "type": "function", "function": {"name": "write_file",
                                                      "arguments": json.dumps({"path": "solution.py", "content": code})}},
        {"id": "c2", "type": "function", "function": {"name": "submit", "arguments": "{}"}}]}
    step = ep.step(message)
    assert step.done and step.verdict.passed and step.verdict.reward == 1.0, step.verdict.details
    assert step.tool_results[1].call_id == "c2" and "all hidden tests passed" in step.tool_results[1].content
    assert step.verdict.details["episode"] == {"turns": 2, "submitted": True, "infra_retries": 0}
    assert step.verdict.details["tools"]["calls"] == 5 and step.verdict.details["tools"]["errors"] == {}


def test_every_wrong_call_is_a_tool_error_the_model_can_act_on(catalog):
    from hub.sessions import MAX_COMMAND_CHARS, MAX_FILE_BYTES

    ep = opened(catalog)
    wrong = {
        "../escape.py": call("write_file", path="../escape.py", content="x"),
        "/etc/passwd": call("write_file", path="/etc/passwd", content="x"),
        "bytes, more than": call("write_file", path="big.py", content="#" * (MAX_FILE_BYTES + 1)),
        "it does not exist": call("read_file", path="missing.py"),
        "longer than": call("run", command="x" * (MAX_COMMAND_CHARS + 1)),
        "command is empty": call("run", command="  "),
        "there is no tool": call("delete_everything", path="."),
        "content: Field required": call("write_file", path="solution.py"),
    }
    step = ep.step(list(wrong.values()))
    assert not step.done
    for (expect, _), result in zip(wrong.items(), step.tool_results):
        assert result.is_error and expect in result.content, (expect, result.content)
    step = ep.step(render([call("run", command="echo still here")], DEFAULT_FORMAT) + "\n<tool_call>{not json</tool_call>")
    assert "still here" in step.tool_results[0].content and not step.done
    step = ep.step([call("submit"), call("write_file", path="solution.py", content=code_of(catalog))])
    assert step.done and step.verdict.reward == 0.0 and step.verdict.error is None
    assert step.tool_results[1].is_error and "has ended" in step.tool_results[1].content
    errors = step.verdict.details["tools"]["errors"]
    assert errors["tool_refused"] == 5 and errors["unknown_tool"] == 1 and errors["bad_arguments"] == 2
    assert step.info["tool_errors"] == 9  # and the call after submit (the verdict's counts are those at submit)
    later = ep.step([call("run", command="echo late")])  # a call after the end: answered, never run
    assert later.done and later.verdict is step.verdict and later.tool_results[0].is_error


def test_a_fifo_at_the_solution_never_blocks_and_is_no_solution(catalog):
    ep = opened(catalog)
    start = time.monotonic()
    step = ep.step([call("run", command="rm -f solution.py; mkfifo solution.py"),
                    call("read_file", path="solution.py"),
                    call("write_file", path="solution.py", content=code_of(catalog)),
                    call("submit")])
    assert time.monotonic() - start < 20 and step.done and step.verdict.error is None
    run, read, write, _ = step.tool_results
    assert not run.is_error and read.is_error and "is a fifo" in read.content
    assert write.is_error and "FIFO" in write.content and "remove it first" in write.content
    assert step.verdict.reward == 0.0 and step.verdict.details["reason"] == "solution.py: it is a fifo, not a regular file"


def test_a_background_process_dies_with_its_command(catalog):
    ep = opened(catalog)
    code = code_of(catalog)
    step = ep.step([call("run", command="(sleep 1; echo 'broken' > solution.py) >/dev/null 2>&1 & echo started"),
                    call("write_file", path="solution.py", content=code)])
    assert "started" in step.tool_results[0].content and not step.tool_results[1].is_error
    step = ep.step([call("run", command="sleep 2; head -c 60 solution.py")])
    assert "broken" not in step.tool_results[0].content
    step = ep.step([call("submit")])
    assert step.verdict.reward == 1.0 and step.info["infra_retries"] == 0, step.verdict.details


def test_the_last_turn_grades_what_is_there(catalog):
    ep = opened(catalog)
    for _ in range(ep.max_turns - 1):
        assert not ep.step([call("run", command="true")]).done
    step = ep.step([call("write_file", path="solution.py", content=code_of(catalog))])
    assert step.done and step.verdict.reward == 1.0 and step.verdict.details["episode"]["submitted"] is False


def test_sandbox_faults_are_retried_then_no_verdict(catalog):
    ep = opened(catalog)
    ep.ctx._sandbox = FlakySandbox(faults=1)
    step = ep.step([call("write_file", path="solution.py", content="VALUE = 41\n"), call("run", command="echo first")])
    assert "first" in step.tool_results[1].content and step.info["infra_retries"] == 1
    step = ep.step([call("run", command="python3 -c 'import solution; print(solution.VALUE + 1)'")])
    assert "\n42" in step.tool_results[0].content  # the write before the fault was replayed
    ep.close()
    ep = opened(catalog)
    ep.ctx._sandbox = FlakySandbox(faults=100)
    step = ep.step([call("run", command="echo hello")])
    assert step.done and step.verdict.error and "sandbox failed" in step.verdict.error and step.info["infra_error"]


def test_turn_budget_and_close_from_another_thread(catalog):
    ep = opened(catalog)
    ep.turn_budget_s = 1.0
    step = ep.step([call("run", command="sleep 5"), call("run", command="echo two")])
    assert "timed out" in step.tool_results[0].content
    assert step.tool_results[1].is_error and "1 s for commands were used up" in step.tool_results[1].content
    ep.turn_budget_s = None
    out = {}
    runner = threading.Thread(target=lambda: out.setdefault("step", ep.step([call("run", command="sleep 60")])))
    runner.start()
    time.sleep(1.0)
    ep.close()
    runner.join(10)
    assert not runner.is_alive() and out["step"].done and "closed" in out["step"].verdict.error
    assert out["step"].info.get("closed")
    with pytest.raises(RuntimeError, match="closed"):
        ep.reset()
