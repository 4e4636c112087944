"""Plain helpers for these tests (a unique module name: several conftest.py share one CI run)."""

from __future__ import annotations

from hub import Label, Task


def make_task(tests, prompt: str = "Write the solution.", **hidden) -> Task:
    task = Task(prompt=prompt, hidden={"tests": tests, **hidden})
    task.label = Label(env="unittest/test-v1", seed=0)
    return task


def fenced(code: str) -> str:
    return f"Here is my solution:\n\n```python\n{code}```\n"
