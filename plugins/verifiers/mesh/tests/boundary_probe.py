"""A trusted test helper the sandbox calls in place of the runner: the runner with its first line
(the AST policy and the restricted builtins) switched off, so that a test's "model" code has every
power a policy escape would give it, and only the process boundary stands between it and the
measurement."""

from __future__ import annotations

import ast
import builtins


def build_unvetted(script: str, **settings) -> dict:
    from rlhub_mesh import policy, runner

    policy.check_script = lambda source: ast.parse(source, filename="<model>", mode="exec")
    policy.safe_builtins = lambda modules: dict(vars(builtins))
    return runner.build(script, **settings)
