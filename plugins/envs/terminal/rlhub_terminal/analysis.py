"""What the static-analysis families share: the rubric that grades them, the module they hand
out written as pieces (each with its flawed and its fixed text), and the wrong answers made from
those pieces by kind.

A task shows a module that an analyser (ruff, mypy, bandit, shellcheck) finds fault with; the
answer must leave the analyser silent *and* keep the hidden tests passing. The rubric:

    unit_tests  weight 0.6                       the behaviour is kept (or fixed, where the finding is the bug)
    <analyser>  weight 0.4, gated on unit_tests   max(0, 1 - findings / budget)
    pass: both

so a module that passes its tests with findings left earns between 0.6 and 1, and one that
breaks its tests earns 0 however clean it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from string import Template
from typing import Any

from hub import Variant

TESTS_WEIGHT = 0.6
_DEF = re.compile(r"def (\w+)")


def rubric(analyser: str, config: dict[str, Any]) -> dict[str, Any]:
    """unit_tests and one analyser (run under the `static` profile), the analyser gated on the tests."""
    return {"components": [
        # the analyser reads the last block: the tests grade that same block, else a clean trailing
        # block ("Example usage: x = 1") would earn the analyser's share for the unfixed module
        {"verifier": "unit_tests", "weight": TESTS_WEIGHT, "config": {"answer_block": "last"}},
        {"verifier": analyser, "weight": round(1 - TESTS_WEIGHT, 6), "gate": "unit_tests", "profile": "static",
         "config": config},
    ], "pass": ["unit_tests", analyser]}


def fill(text: str, **names: Any) -> str:
    """`$name` placeholders filled in (code is full of braces, so not str.format)."""
    return Template(text).substitute(**names)


@dataclass(frozen=True)
class Piece:
    """A stretch of the module: as handed out (`flawed`) and as it should be (`fixed`); `broken`
    is a fix that is clean for the analyser but changes behaviour (for a wrong answer)."""

    flawed: str
    fixed: str | None = None  # None: the same as flawed (context, not a finding)
    broken: str | None = None
    needed: bool = False  # what the flawed pieces need (an import): fixed only once they all are

    @property
    def is_finding(self) -> bool:
        return self.fixed is not None and self.fixed != self.flawed and not self.needed


@dataclass(frozen=True)
class Module:
    pieces: tuple[Piece, ...]

    def render(self, fixed: set[int] | None = None, broken: int | None = None) -> str:
        """The module with the pieces in `fixed` fixed (None: all), piece `broken` broken."""
        out = []
        all_fixed = fixed is None or set(self.findings) <= fixed
        for i, p in enumerate(self.pieces):
            if i == broken and p.broken is not None:
                out.append(p.broken)
            elif p.needed:
                out.append(p.fixed if all_fixed and p.fixed is not None else p.flawed)
            elif p.fixed is not None and (fixed is None or i in fixed):
                out.append(p.fixed)
            else:
                out.append(p.flawed)
        return "".join(out).strip() + "\n"

    @property
    def flawed(self) -> str:
        return self.render(fixed=set())

    @property
    def reference(self) -> str:
        return self.render()

    @property
    def findings(self) -> list[int]:
        return [i for i, p in enumerate(self.pieces) if p.is_finding]

    def left_in(self, n: int) -> str:
        """All fixed but the last `n` flawed pieces."""
        keep = set(self.findings[:-n] if n else self.findings)
        return self.render(fixed=keep | {i for i, p in enumerate(self.pieces) if not p.is_finding})

    def wrong(self, suppress: str, what: str) -> list[Variant]:
        """The wrong answers every static family has: the module unchanged, fixed all but one or
        two findings, its findings silenced with `suppress` comments, and each `broken` fix."""
        n = len(self.findings)
        out = [Variant("unchanged", self.flawed, n, f"the module as handed out: every {what} left in")]
        out += [Variant("finding left in", self.left_in(k), k, f"{k} of {n} flawed places left as they were")
                for k in (1, 2) if k < n]
        out.append(Variant("suppressed", suppressed(self.flawed, suppress), n,
                           f"every {what} silenced with `{suppress.strip()}` comments instead of fixed"))
        for i, p in enumerate(self.pieces):
            if p.broken is not None:
                where = _DEF.search(p.broken)
                out.append(Variant("behaviour changed", self.render(broken=i), 1,
                                   f"clean, but a change in {where.group(1) if where else 'the code'} alters what it does"))
        return out


def suppressed(code: str, comment: str) -> str:
    """`comment` appended to every code line (Python) or put before the script (shellcheck)."""
    if comment.startswith("# shellcheck"):
        lines = code.splitlines(keepends=True)
        head = 1 if lines and lines[0].startswith("#!") else 0
        return "".join(lines[:head]) + comment + "\n" + "".join(lines[head:])
    return "".join(line.rstrip("\n") + (comment if line.strip() and not line.lstrip().startswith("#") else "") + "\n"
                   for line in code.splitlines(keepends=True))

