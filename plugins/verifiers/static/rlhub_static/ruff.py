"""`ruff`: lint findings of the rule families the config selects (ruff's own default: E4, E7, E9, F)."""

from __future__ import annotations

import json
import os
from typing import Literal

from pydantic import Field

from .analyser import Analyser, AnalyserConfig, codes
from .findings import Finding

Selectors = codes(r"^(ALL|[A-Z]{1,6}[0-9]{0,4})$", "ruff rule codes or prefixes", "F401")


class RuffConfig(AnalyserConfig):
    select: Selectors = Field(default_factory=lambda: ["E4", "E7", "E9", "F"],
                              description="rule codes or prefixes, e.g. [E, F, W, B, I, UP, SIM]")
    ignore: Selectors = Field(default_factory=list)
    line_length: int = Field(88, ge=20, le=320)
    target_version: Literal["py38", "py39", "py310", "py311", "py312", "py313"] = "py310"


class Ruff(Analyser):
    """Reward from ruff's findings; `# noqa` comments are ignored."""

    name = "ruff"
    tool = "ruff"
    Config = RuffConfig

    def argv(self) -> list[str]:
        c = self.config
        argv = [self.program("ruff"), "check", "--isolated", "--no-cache", "--no-fix", "--ignore-noqa",
                "--output-format=json", f"--line-length={c.line_length}", f"--target-version={c.target_version}",
                "--select", ",".join(c.select)]
        if c.ignore:
            argv += ["--ignore", ",".join(c.ignore)]
        return argv + self.targets()

    def parse(self, stdout: str) -> list[Finding]:
        report = json.loads(stdout)
        if not isinstance(report, list):
            raise ValueError("expected a JSON list of diagnostics")
        return [Finding(rule=d.get("code") or "invalid-syntax", line=d["location"]["row"], column=d["location"]["column"],
                        message=d["message"], file=os.path.basename(d.get("filename") or "")) for d in report]
