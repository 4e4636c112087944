"""The action format parser: what runs, what is written, what is refused, and SUBMIT."""

import pytest

from rlhub_terminal.actions import MAX_ACTIONS, MAX_FILE_BYTES, check_path, parse_turn


def test_blocks_run_and_write_in_order_and_submit():
    turn = parse_turn("Let me look.\n```bash\nls -la\n```\nNow the fix:\n```python file=solution.py\nx = 1\n```\nSUBMIT\n")
    assert [(a.kind, a.path) for a in turn.actions] == [("run", ""), ("write", "solution.py")]
    assert turn.actions[0].text == "ls -la"
    assert turn.actions[1].text == "x = 1\n"
    assert turn.submit and not turn.notes


def test_submit_inside_a_block_does_not_count():
    turn = parse_turn("```bash\necho SUBMIT\nSUBMIT\n```\n")
    assert not turn.submit
    assert parse_turn("**SUBMIT**").submit


def test_quoted_and_nested_paths():
    turn = parse_turn('```sh file="lib/util.sh"\necho hi\n```')
    assert turn.actions[0].path == "lib/util.sh" and turn.actions[0].kind == "write"


def test_paths_outside_the_work_dir_are_refused():
    for bad in ("/etc/passwd", "../x.py", "a/../../b", "a b.py", "", "x;rm -rf /"):
        assert check_path(bad), bad
    turn = parse_turn("```python file=../escape.py\nprint(1)\n```\n```python file=/tmp/x.py\nprint(2)\n```")
    assert turn.actions == [] and len(turn.notes) == 2
    assert all("not written" in n for n in turn.notes)


def test_other_blocks_are_ignored_with_a_hint():
    turn = parse_turn("```python\nprint('hi')\n```")
    assert turn.actions == []
    assert "file=PATH" in turn.notes[0]


def test_unclosed_block_is_reported():
    turn = parse_turn("```bash\nls\n")
    assert turn.actions == [] and any("unclosed" in n for n in turn.notes)


def test_limits_on_count_and_size():
    many = "".join(f"```bash\necho {i}\n```\n" for i in range(MAX_ACTIONS + 3))
    turn = parse_turn(many)
    assert len(turn.actions) == MAX_ACTIONS and any("dropped" in n for n in turn.notes)
    huge = parse_turn(f"```python file=big.py\n{'x' * (MAX_FILE_BYTES + 1)}\n```")
    assert huge.actions == [] and "larger than" in huge.notes[0]


def test_garbage_is_not_an_error():
    for text in ("", "\x00\x01", "``````", "SUBMITTED", "```\n```"):
        turn = parse_turn(text)
        assert turn.actions == [] and not turn.submit


@pytest.mark.parametrize("text", ["SUBMIT", "SUBMIT:", "**SUBMIT**", "`SUBMIT`", "SUBMIT.", "- SUBMIT",
                                  "All tests pass. SUBMIT", "Done.\n\nSUBMIT:\n", "```\nSUBMIT\n```",
                                  "```bash\nls\n```\nNow SUBMIT"])
def test_submit_is_read_in_the_forms_models_write(text):
    assert parse_turn(text).submit and not parse_turn(text).notes


@pytest.mark.parametrize("text", ["I will SUBMIT later.", "Do not submit yet.", "SUBMITTED", "submit",
                                  "```bash\necho SUBMIT\n```", "<think>SUBMIT</think>Still working."])
def test_submit_is_not_read_where_it_is_not_said(text):
    assert not parse_turn(text).submit
