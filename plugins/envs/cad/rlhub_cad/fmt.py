"""Number formatting shared by scripts and prompts, so a dimension reads the same in both."""

from __future__ import annotations


def n(x: float) -> str:
    """80.0 -> '80', 12.5 -> '12.5', 0.125 -> '0.125' (at most 3 decimals, no trailing zeros)."""
    text = f"{float(x):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def mm(x: float) -> str:
    return f"{n(x)} mm"


def half_steps(rng, lo: float, hi: float) -> float:
    """A value on the 0.5 mm grid in [lo, hi]: round numbers a drawing would carry."""
    steps = int((hi - lo) * 2)
    return lo + rng.randint(0, max(steps, 0)) / 2


def fence(script: str) -> str:
    """A script written as a model's response: one fenced python block."""
    return "```python\n" + script.rstrip("\n") + "\n```"
