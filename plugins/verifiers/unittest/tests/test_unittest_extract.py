"""Code extraction from the ways models actually write answers."""

from __future__ import annotations

import pytest
from rlhub_unittest.extract import extract_code


def test_last_python_block_wins_over_earlier_drafts():
    response = "First try:\n```python\ndef f():\n    return 1\n```\nBetter:\n```python\ndef f():\n    return 2\n```\nDone."
    assert extract_code(response) == "def f():\n    return 2\n"


def test_tagged_block_preferred_over_untagged_output_sample():
    response = "```py\nprint(sum([1, 2]))\n```\nIt prints:\n```\n3\n```\n"
    assert extract_code(response) == "print(sum([1, 2]))\n"


def test_untagged_block_used_when_nothing_is_tagged():
    assert extract_code("Here:\n```\nx = 1\n```") == "x = 1\n"


def test_bare_code_response_is_the_whole_file():
    assert extract_code("import math\n\ndef f(x):\n    return math.sqrt(x)\n") == "import math\n\ndef f(x):\n    return math.sqrt(x)\n"


def test_prose_without_code_gives_nothing():
    assert extract_code("I am not sure how to solve this, sorry.") is None
    assert extract_code("") is None
    assert extract_code("```python\n```") is None


def test_unterminated_fence_from_a_truncated_response():
    assert extract_code("```python\ndef f():\n    return 3\n") == "def f():\n    return 3\n"


def test_think_section_is_ignored():
    response = "<think>maybe\n```python\nwrong = True\n```\n</think>\n```python\nright = True\n```"
    assert extract_code(response) == "right = True\n"


def test_language_selects_the_block():
    response = "```python\nprint('x')\n```\n```bash\necho hi\n```\n```sql\nSELECT 1;\n```"
    assert extract_code(response, "bash") == "echo hi\n"
    assert extract_code(response, "sql") == "SELECT 1;\n"
    assert extract_code("```sh\nls -l\n```", "bash") == "ls -l\n"


def test_modes():
    response = "```bash\necho hi\n```\ntext"
    assert extract_code(response, "python", "last_block") == "echo hi\n"
    assert extract_code(response, "python", "whole") == response
    assert extract_code(response, "python", "auto") is None  # a bash block is not a python answer


def test_fences_with_tildes_and_indentation():
    assert extract_code("~~~python\nx = 2\n~~~") == "x = 2\n"
    assert extract_code("1. Step one:\n   ```python\n   y = 3\n   if y:\n       y += 1\n   ```") == "y = 3\nif y:\n    y += 1\n"


def test_completion_keeps_its_indentation():
    assert extract_code("```python\n    return a + b\n```") == "    return a + b\n"


def test_unknown_language_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown language 'cobol'"):
        extract_code("x", "cobol")
