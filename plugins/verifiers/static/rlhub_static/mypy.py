"""`mypy`: type errors (strict by default). `# type: ignore` and `# mypy:` comments are taken out
before checking, and `@no_type_check` (which switches checking off) counts as a finding.

mypy spends most of a cold run analysing the standard library's stubs. Each process builds that
analysis once, here, outside the sandbox (mypy on a file of common imports: no model input), and
every run gets a copy of the cache in its work dir: about a second less a run, the same report
(mypy reuses a cache only for unchanged sources and options; the solution is always analysed).
With RLHUB_CACHE=off (the checks' fresh process) each run starts cold, as before.
"""

from __future__ import annotations

import ast
import io
import os
import subprocess
import sys
import tempfile
import tokenize
from functools import lru_cache

from pydantic import Field

from .analyser import Analyser, AnalyserConfig, json_lines
from .findings import Finding

CACHE_DIR = ".mypy_cache"  # in the work dir
# What solutions commonly import: their stubs come from the warm cache (others are analysed cold).
WARM_IMPORTS = ("abc", "bisect", "collections", "collections.abc", "csv", "dataclasses", "datetime", "decimal",
                "enum", "fractions", "functools", "heapq", "io", "itertools", "json", "math", "operator", "os",
                "pathlib", "random", "re", "statistics", "string", "sys", "textwrap", "typing")


class MypyConfig(AnalyserConfig):
    strict: bool = Field(True, description="mypy --strict: every function annotated, no implicit Any")
    disallow_any_explicit: bool = Field(False, description="an explicit `Any` annotation is a finding too")
    disable_error_codes: list[str] = Field(default_factory=list, description="mypy error codes not counted")
    python_version: str = Field("3.10", pattern=r"^3\.\d{1,2}$")
    warn_unreachable: bool = Field(True, description="mypy --warn-unreachable: code mypy proves unreachable is a finding")
    disallow_any_unimported: bool = Field(True, description="mypy --disallow-any-unimported: a type that is Any because "
                                                            "its import is not followed is a finding")
    unfollowed_imports: bool = Field(True, description="an import of anything but the standard library is a finding "
                                                       "(mypy follows none: all of it would be Any)")


class Mypy(Analyser):
    """Reward from mypy's errors. Third-party imports are not followed (missing ones are `Any`),
    so the verdict depends on the code alone, not on what this machine has installed."""

    name = "mypy"
    tool = "mypy"
    Config = MypyConfig
    type_checker = True

    def options(self) -> list[str]:
        """What is checked and how it is reported (the cache's options must be these)."""
        c = self.config
        argv = ["--config-file=", "-O", "json", "--no-error-summary", "--no-site-packages", "--ignore-missing-imports",
                "--show-column-numbers", "--no-color-output", f"--python-version={c.python_version}"]
        if c.strict:
            argv.append("--strict")
        if c.disallow_any_explicit:
            argv.append("--disallow-any-explicit")
        if c.warn_unreachable:
            argv.append("--warn-unreachable")
        if c.disallow_any_unimported:
            argv.append("--disallow-any-unimported")
        return argv + [f"--disable-error-code={code}" for code in c.disable_error_codes]

    def argv(self) -> list[str]:
        cache = [f"--cache-dir={CACHE_DIR}"] if _warm_cache_on() else ["--no-incremental", "--cache-dir=/dev/null"]
        return self.module("mypy") + self.options() + cache + self.targets()

    def support_files(self, task) -> dict[str, str | bytes]:
        return dict(warm_cache(tuple(self.options()))) if _warm_cache_on() else {}

    def parse(self, stdout: str) -> list[Finding]:
        return [Finding(rule=d.get("code") or "error", line=int(d["line"]), column=int(d.get("column", 0)) + 1,
                        message=d["message"] + (f" ({d['hint']})" if d.get("hint") else ""), severity="error",
                        file=os.path.basename(d.get("file") or ""))
                for d in json_lines(stdout) if d.get("severity") == "error"]

    def extra_findings(self, code: str) -> list[Finding]:
        found = unfollowed_imports(code, self.config.budget) if self.config.unfollowed_imports else []
        try:
            for tok in tokenize.generate_tokens(io.StringIO(code).readline):
                if tok.type == tokenize.NAME and tok.string in ("no_type_check", "no_type_check_decorator"):
                    found.append(Finding("rlhub-no-type-check", tok.start[0], tok.start[1] + 1,
                                         f"`{tok.string}` switches type checking off", severity="error"))
        except (tokenize.TokenError, SyntaxError):
            pass
        return found


def unfollowed_imports(code: str, weight: float) -> list[Finding]:
    """Imports of modules outside the standard library: mypy runs with --no-site-packages and
    --ignore-missing-imports, so everything taken from them is Any (annotations included)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    found = []
    for node in ast.walk(tree):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                 [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else [])
        for name in names:
            top = name.split(".")[0]
            if top not in sys.stdlib_module_names and top != "__future__":
                found.append(Finding("rlhub-blind-unfollowed-import", node.lineno, node.col_offset + 1,
                                     f"`{name}` is not followed: all it gives is Any, which the analyser cannot check",
                                     severity="error", weight=weight))
    return found


def _warm_cache_on() -> bool:
    return os.environ.get("RLHUB_CACHE", "").lower() != "off"


@lru_cache(maxsize=8)
def warm_cache(options: tuple[str, ...]) -> tuple[tuple[str, bytes], ...]:
    """mypy's cache after analysing WARM_IMPORTS with these options, as work-dir files (none if
    mypy failed: the run is then cold, and reports the failure itself)."""
    with tempfile.TemporaryDirectory(prefix="rlhub-mypy-") as tmp:
        with open(os.path.join(tmp, "warm.py"), "w") as f:
            f.write("".join(f"import {name}\n" for name in WARM_IMPORTS))
        run = subprocess.run([sys.executable, "-m", "mypy", *options, f"--cache-dir={CACHE_DIR}", "warm.py"],
                             cwd=tmp, capture_output=True, text=True, timeout=300, check=False)
        if run.returncode not in (0, 1):  # e.g. options mypy refuses: the run itself says so, cold
            return ()
        files = []
        for root, _, names in os.walk(os.path.join(tmp, CACHE_DIR)):
            for name in sorted(names):
                path = os.path.join(root, name)
                with open(path, "rb") as f:
                    files.append((os.path.relpath(path, tmp), f.read()))
    return tuple(sorted(files))
