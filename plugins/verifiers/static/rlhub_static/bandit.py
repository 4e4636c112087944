"""`bandit`: security findings, weighted by severity; `# nosec` comments are ignored."""

from __future__ import annotations

import ast
import json
import os
from typing import Literal

from pydantic import Field, field_validator

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


SQL_CALLS = {"execute", "executemany", "executescript"}


def _literal(node: ast.expr | None) -> bool:
    """A string known before the code runs: a constant, or constants added together (read without
    recursion: `"S" + "E" + ...` of a few thousand terms nests that deep)."""
    todo = [node]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            todo += (node.left, node.right)
        elif not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            return False
    return True


def runtime_sql(code: str, weight: float) -> list[Finding]:
    """SQL handed to execute() that is built as the code runs (joined, formatted, concatenated with a
    variable): bandit's B608 recognises string formatting it can read, not every way to build text;
    the query must be a literal, its values query parameters."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    assigned: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            assigned.setdefault(node.target.id, []).append(node.value if isinstance(node, ast.AnnAssign) else node)
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS and node.args):
            continue
        sql = node.args[0]
        known = _literal(sql) or isinstance(sql, ast.Name) and sql.id in assigned and all(_literal(v) for v in assigned[sql.id])
        if not known:
            found.append(Finding("rlhub-blind-runtime-sql", node.lineno, node.col_offset + 1,
                                 f"SQL given to {node.func.attr}() is built as the code runs: the analyser cannot see "
                                 "what it holds (keep the query a literal and pass values as parameters)",
                                 severity="high", weight=weight))
    return found


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
        return argv + self.targets()

    def extra_findings(self, code: str) -> list[Finding]:
        return runtime_sql(code, self.config.budget)

    def parse(self, stdout: str) -> list[Finding]:
        report = json.loads(stdout)
        if report.get("errors"):
            raise ValueError(f"bandit could not scan the code: {str(report['errors'])[:400]}")
        out = []
        for r in report["results"]:
            severity = str(r["issue_severity"]).lower()
            out.append(Finding(rule=r["test_id"], line=int(r["line_number"]), column=int(r.get("col_offset", 0)) + 1,
                               message=f"{r['issue_text']} [{r['test_name']}, confidence {str(r['issue_confidence']).lower()}]",
                               severity=severity, weight=self.config.weights[severity],
                               file=os.path.basename(r.get("filename") or "")))  # type: ignore[index]
        return out
