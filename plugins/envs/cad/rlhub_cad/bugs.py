"""Realistic bugs for the repair tasks, injected into a correct script as text.

Each bug is one mistake engineers really make with CadQuery (a misspelt method, a missing
import, diameter passed as radius, the part left in the wrong variable, an unclosed call),
with the symptom the user would report. A bug applies only if its pattern is in the script,
so the broken script always differs from the reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional

# Misspellings that raise AttributeError on a cq.Workplane.
_TYPOS = [
    (".extrude(", ".extrute(", "extrute"),
    (".fillet(", ".filet(", "filet"),
    (".revolve(", ".revolv(", "revolv"),
    (".polyline(", ".polyLine(", "polyLine"),
    (".cboreHole(", ".counterboreHole(", "counterboreHole"),
    (".hole(", ".holes(", "holes"),
    (".chamfer(", ".chamfre(", "chamfre"),
    (".shell(", ".shel(", "shel"),
    (".sweep(", ".sweeps(", "sweeps"),
]


@dataclass(frozen=True)
class Bug:
    name: str
    broken: str
    symptom: str


def _typo(script: str) -> Optional[Bug]:
    for good, bad, attr in _TYPOS:
        if good in script:
            return Bug("typo", script.replace(good, bad, 1),
                       f"running it fails with AttributeError: 'Workplane' object has no attribute '{attr}'")
    return None


def _missing_import(script: str) -> Optional[Bug]:
    line = "import cadquery as cq\n"
    if line in script:
        return Bug("missing_import", script.replace(line, "", 1), "running it fails with NameError: name 'cq' is not defined")
    return None


def _diameter_as_radius(script: str) -> Optional[Bug]:
    # `.circle(x_d / 2)` written as `.circle(x_d)`: every such circle comes out twice too big.
    found = re.search(r"\.circle\((\w+_d) / 2\)", script)
    if not found:
        return None
    name = found.group(1)
    broken = script.replace(f".circle({name} / 2)", f".circle({name})")
    return Bug("diameter_as_radius", broken,
               f"the circles drawn from `{name}` come out twice the intended diameter (it runs, but the part is wrong)")


def _wrong_variable(script: str) -> Optional[Bug]:
    found = list(re.finditer(r"^result = ", script, flags=re.M))
    if not found:
        return None
    last = found[-1]
    broken = script[: last.start()] + "part = " + script[last.end():]
    return Bug("wrong_variable", broken, "it runs without error, yet the checker reports that no `result` variable is defined")


def _unclosed_call(script: str) -> Optional[Bug]:
    # Drop the closing parenthesis of the final `result = (...)` chain.
    found = re.search(r"^result = \(\n(?:.*\n)*?\)\n", script, flags=re.M)
    if not found:
        return None
    end = found.end() - 2  # index of the final ')'
    return Bug("unclosed_call", script[:end] + script[end + 1:], "running it fails with SyntaxError: '(' was never closed")


BUGS: list[Callable[[str], Optional[Bug]]] = [_typo, _missing_import, _diameter_as_radius, _wrong_variable, _unclosed_call]


def inject(script: str, rng) -> Bug:
    """One applicable bug, chosen by rng."""
    bugs = [b for b in (make(script) for make in BUGS) if b is not None and b.broken != script]
    if not bugs:
        raise ValueError("no bug applies to this script")
    return bugs[rng.randrange(len(bugs))]
