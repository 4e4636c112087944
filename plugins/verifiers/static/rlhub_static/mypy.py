"""`mypy`: type errors (strict by default). `# type: ignore` and `# mypy:` comments are taken out
before checking, and `@no_type_check` (which switches checking off) counts as a finding."""

from __future__ import annotations

import io
import tokenize

from pydantic import Field

from .analyser import Analyser, AnalyserConfig, json_lines
from .findings import Finding


class MypyConfig(AnalyserConfig):
    strict: bool = Field(True, description="mypy --strict: every function annotated, no implicit Any")
    disallow_any_explicit: bool = Field(False, description="an explicit `Any` annotation is a finding too")
    disable_error_codes: list[str] = Field(default_factory=list, description="mypy error codes not counted")
    python_version: str = Field("3.10", pattern=r"^3\.\d{1,2}$")


class Mypy(Analyser):
    """Reward from mypy's errors. Third-party imports are not followed (missing ones are `Any`),
    so the verdict depends on the code alone, not on what this machine has installed."""

    name = "mypy"
    tool = "mypy"
    Config = MypyConfig

    def argv(self) -> list[str]:
        c = self.config
        argv = self.module("mypy") + [
            "--config-file=", "--no-incremental", "--cache-dir=/dev/null", "-O", "json", "--no-error-summary",
            "--no-site-packages", "--ignore-missing-imports", "--show-column-numbers", "--no-color-output",
            f"--python-version={c.python_version}"]
        if c.strict:
            argv.append("--strict")
        if c.disallow_any_explicit:
            argv.append("--disallow-any-explicit")
        argv += [f"--disable-error-code={code}" for code in c.disable_error_codes]
        return argv + [self.filename]

    def parse(self, stdout: str) -> list[Finding]:
        return [Finding(rule=d.get("code") or "error", line=int(d["line"]), column=int(d.get("column", 0)) + 1,
                        message=d["message"] + (f" ({d['hint']})" if d.get("hint") else ""), severity="error")
                for d in json_lines(stdout) if d.get("severity") == "error"]

    def extra_findings(self, code: str) -> list[Finding]:
        found = []
        try:
            for tok in tokenize.generate_tokens(io.StringIO(code).readline):
                if tok.type == tokenize.NAME and tok.string in ("no_type_check", "no_type_check_decorator"):
                    found.append(Finding("rlhub-no-type-check", tok.start[0], tok.start[1] + 1,
                                         f"`{tok.string}` switches type checking off", severity="error"))
        except (tokenize.TokenError, SyntaxError):
            pass
        return found
