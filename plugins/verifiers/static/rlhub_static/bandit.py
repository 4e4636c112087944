"""`bandit`: security findings, weighted by severity; `# nosec` comments are ignored."""

from __future__ import annotations

import json
from typing import Literal

from pydantic import Field, field_validator

from hub import VerifierError

from .analyser import Analyser, AnalyserConfig, codes
from .findings import Finding

Level = Literal["low", "medium", "high"]


class BanditConfig(AnalyserConfig):
    severity: Level = Field("low", description="the lowest severity counted")
    confidence: Level = Field("low", description="the lowest confidence counted")
    skip: codes(r"^B\d{3}$", "bandit test ids", "B101") = Field(default_factory=list, description="test ids not run")
    weights: dict[Level, float] = Field(default_factory=lambda: {"low": 0.25, "medium": 0.5, "high": 1.0},
                                        description="what one finding of each severity weighs")

    @field_validator("weights")
    @classmethod
    def _weights(cls, v: dict[str, float]) -> dict[str, float]:
        missing = {"low", "medium", "high"} - set(v)
        if missing or any(w < 0 for w in v.values()):
            raise ValueError("give a non-negative weight for each of low, medium and high")
        return v


class Bandit(Analyser):
    name = "bandit"
    tool = "bandit"
    Config = BanditConfig

    def argv(self) -> list[str]:
        c = self.config
        argv = self.module("bandit") + ["-q", "-f", "json", "--ignore-nosec", "--severity-level", c.severity,
                                        "--confidence-level", c.confidence]
        if c.skip:
            argv += ["-s", ",".join(c.skip)]
        return argv + [self.filename]

    def parse(self, stdout: str) -> list[Finding]:
        report = json.loads(stdout)
        if report.get("errors"):
            raise VerifierError(f"bandit could not scan the code: {str(report['errors'])[:400]}")
        out = []
        for r in report["results"]:
            severity = str(r["issue_severity"]).lower()
            out.append(Finding(rule=r["test_id"], line=int(r["line_number"]), column=int(r.get("col_offset", 0)) + 1,
                               message=f"{r['issue_text']} [{r['test_name']}, confidence {str(r['issue_confidence']).lower()}]",
                               severity=severity, weight=self.config.weights[severity]))  # type: ignore[index]
        return out
