"""Findings and the reward made from them.

    reward = max(0, 1 - weighted / budget)      weighted: the sum of the findings' weights
    passed = no finding at all

Every finding weighs 1, except where the tool grades them (bandit's severities: low, medium and
high weigh what the verifier's config says). `budget` is how many (weighted) findings take the
reward to 0: `budget: 1` makes any finding cost everything.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from hub import Verdict

SHOWN = 50  # findings listed in a verdict's details (the count covers all)


@dataclass(frozen=True)
class Finding:
    rule: str  # the tool's rule id: F401, arg-type, B602, SC2086
    line: int
    column: int
    message: str
    severity: str = ""
    weight: float = 1.0
    file: str = field(default="", compare=False)  # which file of the work dir (the code, or its second view)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("file")
        out["message"] = self.message[:300]
        return out


def findings_verdict(findings: list[Finding], budget: float, tool: dict[str, str]) -> Verdict:
    findings = sorted(findings, key=lambda f: (f.line, f.column, f.rule))
    weighted = math.fsum(f.weight for f in findings)
    reward = round(max(0.0, 1.0 - weighted / budget), 12)  # 1 - 4/5 is 0.2, not 0.19999999999999996
    details: dict[str, Any] = {
        "tool": tool, "findings_total": len(findings), "weighted": weighted, "budget": budget,
        "findings": [f.to_dict() for f in findings[:SHOWN]],
    }
    if findings:
        details["rules"] = dict(sorted(Counter(f.rule for f in findings).items()))
    return Verdict(reward, not findings, components={"findings": float(len(findings))}, details=details)
