"""The `swe/*` environments: every project kind x task x way of showing it.

    swe/<project>-bug-<class>-session-v1    a bug of one class (off-by-one, wrong branch, ...), multi-turn
    swe/<project>-bug-<class>-diff-v1       the same, one prompt with the files the fix concerns; answer: a diff
    swe/<project>-bug-repo-v1               any bug, the whole repository in one prompt (40k tokens by default)
    swe/<project>-feature-{session,diff,repo}-v1
    swe/<project>-rename-{session,diff,repo}-v1
    swe/<project>-tests-{session,diff}-v1   write a module's missing tests (graded by mutants killed)
    swe/<...>-session-tools-v1              each session through tools (view, search, replace, create, run, submit)
    swe/real-<project>-{diff,session,session-tools}-v1   real projects' bugs (rlhub_swe.real)

Every environment is a family (hub.core.family): its parameters (project seed, bug site, new
name...) are drawn from the task's seed, and the prompt, hidden tests, reference diff and wrong
answers all follow from them (tasks.py).
"""

from __future__ import annotations

import math
import random
from typing import Any

from hub import Variant
from hub.core.family import Family, FamilyEnvironment, register_families

from . import patch, prompts
from .projects.kinds import NAMES, kind as project_kind
from .projects.model import BUG_CLASSES, Variant as ProjectVariant, draw, render
from .tasks import OLD_NAME_TEST, Params, build
from .verifier import SweHidden

SESSION_TURNS = 20
CHARS_PER_TOKEN = 4  # the estimate docqa uses too; code tokenises denser, so real counts run higher
MODES = {"session": "session", "diff": "diff", "repo": "repo"}
HIDDEN_TESTS_GLOB = "tests/*"  # where a generated project's tests live (fnmatch: any depth)


fenced_diff = patch.fenced


def _chars(k, seed: int, units: int) -> int:
    """The whole repository's length in characters: what repo mode puts in the prompt."""
    return sum(len(t) for t in render(k, seed, units=units).files.values())


class SweFamily(Family[Params]):
    description = ""

    def __init__(self, project: str, task: str, bug_class: str | None = None, modes: tuple[str, ...] = ("session", "diff"),
                 target_tokens: int = 40_000) -> None:
        self.project, self.task, self.bug_class = project, task, bug_class
        self.name = f"{project}-{task}" + (f"-{bug_class.replace('_', '-')}" if bug_class else "")
        self.prompts = {mode: "" for mode in modes}
        self.target_tokens = target_tokens
        what = {"bug": f"fix a bug{' (' + bug_class.replace('_', ' ') + ')' if bug_class else ''} from a user's report",
                "feature": "implement a feature described in an issue, across modules",
                "rename": "rename an API across its definition and every call site",
                "tests": "write a module's missing tests (graded by mutants killed)"}[task]
        self.description = f"{project_kind(project).description}: {what}"

    def configure(self, *, target_tokens: int = 40_000) -> "SweFamily":
        """`target_tokens`: how long the whole-repository prompt is made (repo mode; about 4
        characters a token), from 8,000 up to what the kind's largest project (40 modules) holds."""
        most = self.largest_tokens()
        if not 8_000 <= target_tokens <= most:
            raise ValueError(f"target_tokens must be between 8000 and {most} (the largest {self.project} project, "
                             f"at {project_kind(self.project).units.count[1]} units), got {target_tokens}")
        return SweFamily(self.project, self.task, self.bug_class, tuple(self.prompts), target_tokens)

    def largest_tokens(self) -> int:
        """The whole repository's length in tokens at the kind's largest unit count (the first seed's
        project, rounded down to a thousand: other seeds' names make theirs a little longer or shorter)."""
        k = project_kind(self.project)
        return _chars(k, 0, k.units.count[1]) // CHARS_PER_TOKEN // 1000 * 1000

    # -- parameters ---------------------------------------------------------------------------------
    def sample(self, rng: random.Random, kind: str) -> Params:
        k = project_kind(self.project)
        seed = rng.randrange(10**6)
        units = self.units_for(seed) if kind == "repo" else None
        if self.task == "bug":
            sites = [b for b in k.bugs if self.bug_class in (None, b.cls)]
            return Params(self.project, seed, "bug", rng.choice(sites).id, units)
        if self.task == "feature":
            return Params(self.project, seed, "feature", rng.choice(k.features).id, units)
        if self.task == "rename":
            r = rng.choice(k.renames)
            values = draw(k, seed, units)[0]
            taken = set(values.values())
            choices = [c for c in k.names[r.placeholder] if c not in taken]
            return Params(self.project, seed, "rename", r.id, units, new_name=rng.choice(choices))
        return Params(self.project, seed, "tests", rng.choice(sorted(k.mutation_areas)), units)

    def units_for(self, seed: int) -> int:
        """Units that make the whole repository about `target_tokens` long."""
        k = project_kind(self.project)
        lo, hi = k.units.count
        small, large = _chars(k, seed, lo), _chars(k, seed, hi)
        per_unit = (large - small) / (hi - lo)
        want = self.target_tokens * CHARS_PER_TOKEN
        return max(lo, min(hi, lo + math.ceil((want - small) / per_unit)))

    # -- what the model sees ------------------------------------------------------------------------
    def prompt(self, p: Params, kind: str) -> str:
        b = build(p)
        files, pkg = b.base.files, b.base.package
        if kind == "session":
            return prompts.session(pkg, files, b.issue, SESSION_TURNS)
        if kind == "repo":
            return prompts.whole(pkg, files, b.issue)
        if p.task == "tests":
            module = b.hidden_mutation["module"]
            examples = sorted(f for f in files if f.startswith("tests/test_"))[:1]
            return prompts.oracle(pkg, files, b.issue, [module, *examples])
        return prompts.oracle(pkg, files, b.issue, [f for f in b.touched if f in files])

    def hidden(self, p: Params, kind: str) -> SweHidden:
        b = build(p)
        # The hidden suite is the full version of tests/: edits there never count (a write-the-tests
        # task is graded on its test file, by mutation.py, which sets every other edit aside).
        return SweHidden(base={"generated": b.recipe}, runner="stand_in", package=b.base.package, tests=b.hidden_tests,
                         fail_to_pass=b.fail_to_pass, pass_to_pass=b.pass_to_pass,
                         protected=[] if p.task == "tests" else [HIDDEN_TESTS_GLOB],
                         mutation=b.hidden_mutation if p.task == "tests" else None, stated=b.stated or {},
                         rename=b.rename, suite=b.suite_recipe)

    def reference(self, p: Params, kind: str) -> str:
        return fenced_diff(build(p).reference_diff)

    def secrets(self, p: Params, kind: str, task) -> list[str]:
        b = build(p)
        base_text = "\n".join(b.base.files.values())
        added = {line[1:].strip() for line in b.reference_diff.splitlines()
                 if line.startswith("+") and not line.startswith("+++")}
        return [task.reference, *b.secrets, *(a for a in added if len(a) >= 24 and a not in base_text)]

    def metadata(self, p: Params, kind: str) -> dict[str, Any]:
        b = build(p)
        return {"project": p.project, "project_seed": p.seed, "task": p.task, "target": p.target, "mode": kind,
                "package": b.base.package, "modules": sum(1 for f in b.base.files if f.startswith(b.base.package + "/")),
                "lines": b.base.lines, "tokens": sum(len(t) for t in b.base.files.values()) // CHARS_PER_TOKEN}

    # -- answers whose verdict is known ----------------------------------------------------------------
    def right(self, p: Params, kind: str) -> list[str]:
        """The same change as a diff with one line of context and without git's headers (as `diff -u`
        writes it); for tests, the test functions in another order."""
        b = build(p)
        terse = patch.make(b.base.files, b.target_files if p.task != "tests" else b.reordered_tests, context=1)
        plain = "".join(line for line in terse.splitlines(keepends=True)
                        if not line.startswith(("diff --git ", "new file mode", "deleted file mode")))
        return ["The change:\n\n" + fenced_diff(plain)]

    def wrong(self, p: Params, kind: str) -> list[Variant]:
        from .wrong import wrong_answers

        return wrong_answers(build(p))


class SweEnvironment(FamilyEnvironment):
    def episode(self, task, verifier, ctx):
        if self.kind != "session":
            return super().episode(task, verifier, ctx)
        from .session import SweEpisode

        return SweEpisode(task, verifier, ctx, max_turns=SESSION_TURNS)

    def reference_turns(self, task):
        """A session's reference as one turn: the fix as a ```diff block (patched into the tree), then SUBMIT."""
        if self.kind != "session" or self.text_twin:  # a tool session plays its tool_turns
            return super().reference_turns(task)
        return [task.reference.rstrip("\n") + "\n\nSUBMIT\n"]

    def episode_probes(self, task):
        if self.kind != "session" or task.label.seed != 0:  # what they prove does not depend on the task
            return [], []
        from .probes import probes

        wrong, right = probes(task.reference, tests_protected=HIDDEN_TESTS_GLOB in task.hidden.get("protected", []))
        # The right probe runs the hidden tests (seconds): one bug family per project and the
        # write-the-tests family (the two ways paths are protected) prove what every family shares.
        p = self._params_of(task)
        first_bug = project_kind(p.project).bugs[0].cls.replace("_", "-")
        return wrong, right if p.task == "tests" or self.id == f"swe/{p.project}-bug-{first_bug}-session-v1" else []


def families() -> list[tuple[SweFamily, tuple[str, ...]]]:
    out = []
    for name in NAMES:
        k = project_kind(name)
        classes = [c for c in BUG_CLASSES if any(b.cls == c for b in k.bugs)]
        out += [(SweFamily(name, "bug", c), ("session", "diff")) for c in classes]
        out.append((SweFamily(name, "bug", None, ("repo",)), ("repo",)))
        if k.features:
            out.append((SweFamily(name, "feature", None, ("session", "diff", "repo")), ("session", "diff", "repo")))
        if k.renames:
            out.append((SweFamily(name, "rename", None, ("session", "diff", "repo")), ("session", "diff", "repo")))
        if k.mutation_areas:
            out.append((SweFamily(name, "tests", None, ("session", "diff")), ("session", "diff")))
    return out


def register_all(register) -> list[str]:
    ids = []
    for fam, modes in families():
        for mode in modes:
            extra = ("multi-turn",) if mode == "session" else ("long-context",) if mode == "repo" else ()
            ids += register_families(register, [fam], domain="swe", verifier="swe_tests", kinds=[mode],
                                     environment=SweEnvironment, profile="swe",
                                     max_turns=SESSION_TURNS if mode == "session" else 1,
                                     tags=("swe", "code", "python", fam.task, *extra))
            if mode == "session":  # its tool twin (rlhub_swe.tool_session): the same tasks, through tools
                from .tool_session import SweToolEnvironment

                ids += register_families(register, [fam], domain="swe", verifier="swe_tests", kinds=[mode],
                                         id_format="{domain}/{family}-{kind}-tools-v1", environment=SweToolEnvironment,
                                         profile="swe", max_turns=SESSION_TURNS,
                                         tags=("swe", "code", "python", fam.task, *extra, "tools"))
    from .real.envs import register_all as register_real

    return ids + register_real(register)
