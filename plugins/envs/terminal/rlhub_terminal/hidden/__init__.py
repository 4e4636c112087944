"""Hidden test modules, written as real Python files (a linter reads them): a task's hidden tests
are the task's data (`DATA = {...}`: plain values as a Python literal, never code) followed by one
of these files' source."""

from __future__ import annotations

import ast
from functools import lru_cache
from importlib.resources import files


@lru_cache(maxsize=None)
def source(name: str) -> str:
    return files(__package__).joinpath(f"{name}.py").read_text()


def with_data(name: str, data: dict) -> str:
    literal = repr(data)
    ast.literal_eval(literal)  # plain data only: a value whose repr is not a literal is a family bug
    return f"DATA = {literal}\n\n{source(name)}"
