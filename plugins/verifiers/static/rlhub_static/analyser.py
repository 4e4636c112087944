"""What every static-analysis verifier shares: reading the code from the response, writing it to
the sandbox work dir, running the tool there, and turning what it says into a verdict.

A verdict for everything the model can cause; *no verdict* (hub.VerifierError) for what it cannot:
- no code in the response, code that does not parse: reward 0, `details.reason` says which;
- the tool ran past the profile's wall or CPU time, its memory, or printed more than the
  profile's output cap (a model can write code that does this): reward 0, `details.limit` names
  the limit;
- the tool crashed on the file (a stack overflow on a 40,000-term annotation, a signal, an exit
  code that means it failed, output that is not its report), or our own reading of the code
  (rlhub_static.blind) ran out of stack on it: the tool is run again on a trivial file in the
  same work dir; when that run is clean, the file is what broke it: reward 0, `details.limit` is
  `crash` and `details.reason` says how it failed. A model can always write such a file, so it
  must never be able to turn its sample into "no verdict" that way;
- the tool is not installed, or fails on the trivial file too: no verdict, naming the tool (never
  a silent 1).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from functools import lru_cache
from importlib import metadata
from typing import Annotated, Any, ClassVar

from pydantic import AfterValidator, Field

from hub import Verdict, VerifierConfig, VerifierError
from hub.core.response import CodeMode, python_parses, read, source_text
from hub.core.workdir import WorkDir, WorkDirVerifier

from .blind import python_blind, shell_blind
from .directives import directive_lines, neutralise_python, neutralise_shell
from .findings import Finding, findings_verdict
from .unblind import Seen, python_seen, shell_seen

# Rules a second view can trip by its own edits, not by what the code hides: a line made longer
# by an inlined value. ("unused" findings of a name whose reads were inlined are dropped by name.)
REWRITE_ARTEFACTS = {"E501", "W505"}


def codes(pattern: str, what: str, example: str) -> Any:
    """A config field type: a list of rule codes, each matching `pattern`, refused by name otherwise."""
    regex = re.compile(pattern)

    def check(value: list[str]) -> list[str]:
        bad = [c for c in value if not regex.match(c)]
        if bad:
            raise ValueError(f"not {what}: {bad} (expected e.g. {example!r})")
        return value

    return Annotated[list[str], AfterValidator(check)]


class AnalyserConfig(VerifierConfig):
    budget: float = Field(5.0, gt=0, description="weighted findings that take the reward to 0: reward = max(0, 1 - weighted / budget)")
    extract: CodeMode = "auto"
    max_response_chars: int = Field(200_000, gt=0)


@lru_cache(maxsize=None)
def tool_version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "?"


def sandbox_which(program: str) -> str | None:
    """`program` on the PATH a sandboxed task has (the interpreter's bin dir, then the system's)."""
    path = os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"])
    return shutil.which(program, path=path)


class Analyser(WorkDirVerifier):
    """Subclasses set `language`, `tool` (the distribution, for its version) and implement
    `argv` and `parse`."""

    language: ClassVar[str] = "python"
    tool: ClassVar[str] = ""
    ok_exits: ClassVar[frozenset[int]] = frozenset({0, 1})  # clean, findings
    Config = AnalyserConfig

    @property
    def filename(self) -> str:
        return "solution.py" if self.language == "python" else "solution.sh"

    @property
    def seen_filename(self) -> str:
        """The second view (rlhub_static.unblind): the code with its hiding undone, empty when
        nothing was hidden. The tool reads both in one run."""
        return "solution_seen.py" if self.language == "python" else "solution_seen.sh"

    def targets(self) -> list[str]:
        return [self.filename, self.seen_filename]

    def seen(self, code: str) -> Seen:
        return python_seen(code, self.name) if self.language == "python" else shell_seen(code)

    # -- what subclasses write --------------------------------------------------------------
    def argv(self) -> list[str]:
        """The tool's command line, analysing `self.targets()` in the work dir: its last words
        (the control run swaps in another file there)."""
        raise NotImplementedError

    def parse(self, stdout: str) -> list[Finding]:
        """The tool's report as findings; ValueError if it is not a report."""
        raise NotImplementedError

    def extra_findings(self, code: str) -> list[Finding]:
        """Findings the tool cannot see (an escape hatch it honours): none by default."""
        return []

    def blind_findings(self, code: str) -> list[Finding]:
        """What the tool cannot see (rlhub_static.blind), each weighing the whole budget: the
        component earns nothing where the analyser was blinded."""
        if self.language == "python":
            return python_blind(code, self.config.budget, type_checker=self.type_checker)
        return shell_blind(code, self.config.budget)

    type_checker: ClassVar[bool] = False  # skips statically decided branches (mypy)

    # -- shared ---------------------------------------------------------------------------------
    def files(self, task, response: str) -> dict[str, str] | Verdict:
        if len(response) > self.config.max_response_chars:
            return _zero(f"response longer than {self.config.max_response_chars} chars")
        code = read(response).code(self.language, self.config.extract)  # type: ignore[arg-type]
        if code is None or not code.strip():
            return _zero(f"no {self.language} code found in the response")
        if self.language == "python":
            if not python_parses(code):
                return _zero("the code does not parse as Python")
            code, _ = neutralise_python(code)
        else:
            code, _ = neutralise_shell(code)
        return self._with_seen(code, code)

    def tree_files(self, task, tree: dict[str, str | bytes], response: str) -> dict[str, str | bytes] | Verdict:
        """The file as a session left it (exact bytes; a session caps its size itself): Python
        decoded the way Python reads source (UTF-8, or the encoding a PEP 263 line declares; a
        file it cannot decode does not import: 0), a script as bytes (bash reads any). Suppression
        comments are taken out as in `files`; the bytes are otherwise the file's own."""
        data = tree.get(self.filename)
        if data is None:
            return _zero(f"no {self.filename} in the work dir")
        raw = data.encode() if isinstance(data, str) else bytes(data)
        if self.language != "python":
            text, codec = source_text(raw, "bash")
            text = neutralise_shell(text)[0]
            return self._with_seen(text, text.encode(codec))
        try:
            text, codec = source_text(raw, "python")
        except SyntaxError as exc:
            return _zero(f"{self.filename} is not Python source text: {exc.msg}")
        if not text.strip():
            return _zero(f"no {self.language} code found in the response")
        if not python_parses(text):
            return _zero("the code does not parse as Python")
        text = neutralise_python(text)[0]
        return self._with_seen(text, text if codec == "utf-8" else text.encode(codec))

    def _with_seen(self, code: str, as_written: str | bytes) -> dict[str, str | bytes] | Verdict:
        """The file and its second view; code nested deeper than the second view can read is the
        model's 0 (as in `judge`), never a crash of the verifier."""
        try:
            seen = self.seen(code)
        except (RecursionError, MemoryError):
            return _zero(f"the code is nested too deeply to be read for what the {self.name} cannot see")
        return {self.filename: as_written, self.seen_filename: seen.code if seen.undone else ""}

    def command(self, task) -> list[str]:
        return self.argv()

    def judge(self, task, result, workdir: WorkDir) -> Verdict:
        tool = {"name": self.name, "version": tool_version(self.tool)}
        limit = _limit_hit(result, workdir.profile)
        if limit:
            kind, why = limit
            return Verdict(0.0, False, details={"tool": tool, "limit": kind,
                                                "reason": f"{self.name} {why} (profile {workdir.profile.name!r})"})
        findings, failure = self.report(result)
        if failure is not None:
            self.check_control(workdir, failure)  # no verdict if the tool fails on a trivial file too
            return Verdict(0.0, False, details={"tool": tool, "limit": "crash",
                                                "reason": f"{self.name} could not analyse the file ({failure}); it "
                                                          "analyses a trivial file, so this file is what broke it"})
        code = workdir.files[self.filename]
        if isinstance(code, bytes):  # a session's file as it is: read the way the language reads it
            code = source_text(code, self.language)[0]
        seen_code = workdir.files.get(self.seen_filename) or ""
        if isinstance(seen_code, bytes):
            seen_code = seen_code.decode("utf-8", "replace")
        try:
            plain = [f for f in findings if f.file != self.seen_filename]
            plain += self.blind_findings(code) + self.extra_findings(code) + self.directive_findings(code)
            if seen_code:
                seen = [f for f in findings if f.file == self.seen_filename]
                seen += self.blind_findings(seen_code) + self.extra_findings(seen_code)
                plain += hidden_findings(plain, seen, self.seen(code), self.config.budget)
        except (RecursionError, MemoryError):  # nesting deeper than our reading of the code can follow
            return Verdict(0.0, False, details={"tool": tool, "limit": "crash",
                                                "reason": "the code is nested too deeply to be read for what the "
                                                          f"{self.name} cannot see"})
        return findings_verdict(plain, self.config.budget, tool)

    def directive_findings(self, code: str) -> list[Finding]:
        """A directive comment (taken out before the tool ran) weighs the whole budget: it was
        written to silence the analyser, whatever it would have silenced."""
        return [Finding("rlhub-blind-directive", line, 1, "a comment that tells the analyser to keep quiet "
                        "(taken out before it ran): silencing is not fixing", severity="error", weight=self.config.budget)
                for line in directive_lines(code)]

    def report(self, result) -> tuple[list[Finding], str | None]:
        """(the findings, None) from a run that gave the tool's report; ([], how it failed) from one
        that did not (a crash, an exit code that means failure, output that is not its report)."""
        if result.exit_code not in self.ok_exits:
            how = f"signal {result.signal}" if result.signal else f"exit code {result.exit_code}"
            return [], f"{how}: {(result.stderr or result.stdout)[-400:].strip()}"
        try:
            return self.parse(result.stdout), None
        except (ValueError, KeyError, TypeError) as exc:
            return [], (f"it printed something that is not its report ({exc}): "
                        f"{result.stdout[:200]!r} {result.stderr[-200:]!r}")

    def check_control(self, workdir: WorkDir, failure: str) -> None:
        """The tool's command run again on a trivial file beside the model's: a VerifierError (no
        verdict, the tool's fault) if it fails there too."""
        argv, targets = self.argv(), self.targets()
        if argv[-len(targets):] != targets:  # a subclass that breaks argv's contract: say so, never guess
            raise VerifierError(f"{self.name} failed ({failure}) and its command does not end with the files analysed")
        try:
            workdir.session.write_files({CONTROL[self.language]: CONTROL_CODE[self.language]})
        except (ValueError, RuntimeError) as exc:
            raise VerifierError(f"{self.name} failed ({failure}); the trivial file could not be written: {exc}") from None
        again = workdir.run(argv[:-len(targets)] + [CONTROL[self.language]])
        limit = _limit_hit(again, workdir.profile)
        why = limit[1] if limit else self.report(again)[1]
        if why is not None:
            raise VerifierError(f"{self.name} failed ({failure}); it fails on a trivial file too ({why}): "
                                "the tool is broken here, not the model's code")

    def program(self, name: str) -> str:
        """The tool's executable as a sandboxed task finds it; missing: no verdict, named."""
        found = sandbox_which(name)
        if found is None:
            raise VerifierError(f"{self.name}: `{name}` is not installed where the sandbox can run it "
                                f"(pip install {self.tool}, or the rlhub-static distribution)")
        return found

    def module(self, name: str) -> list[str]:
        """`python -m name` in the sandbox's interpreter; a missing module is no verdict, named."""
        import importlib.util

        if importlib.util.find_spec(name) is None:
            raise VerifierError(f"{self.name}: the Python module {name!r} is not installed (pip install {self.tool})")
        return [sys.executable, "-m", name]


# The control run's file: nothing an analyser could crash on (same language, same options).
CONTROL = {"python": "rlhub_control.py", "bash": "rlhub_control.sh"}
CONTROL_CODE = {"python": "x = 1\n", "bash": "#!/bin/bash\necho ok\n"}


def hidden_findings(plain: list[Finding], seen: list[Finding], view: Seen, weight: float) -> list[Finding]:
    """What the analyser says only of the second view (the code with its hiding undone): each a
    finding that weighs the whole budget. Counted per rule: the second view differs from the code
    only where something was hidden, so its other findings are the code's own."""
    have: dict[str, int] = {}
    for f in plain:
        have[f.rule] = have.get(f.rule, 0) + 1
    undone = "; ".join(dict.fromkeys(u.what for u in view.undone))
    out = []
    for f in sorted(seen, key=lambda f: (f.line, f.column, f.rule)):
        if f.rule in REWRITE_ARTEFACTS or f.rule.startswith("rlhub-blind-hidden"):
            continue
        if ("unused" in f.message.lower() or "never used" in f.message.lower()) and any(
                re.search(rf"(?<![\w.]){re.escape(name)}(?![\w(])", f.message) for name in view.orphans):
            continue  # a name whose reads were inlined: its disuse is the view's, not the code's
        if have.get(f.rule, 0) > 0:
            have[f.rule] -= 1
            continue
        out.append(Finding("rlhub-blind-hidden", f.line, f.column,
                           f"{f.rule} once what hides it is read plainly ({_cut(undone, 200)}): {f.message}",
                           severity="error", weight=weight))
    return out


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n - 3] + "..."


def _zero(reason: str) -> Verdict:
    return Verdict(0.0, False, details={"reason": reason})


def _limit_hit(result, profile) -> tuple[str, str] | None:
    if result.timed_out:
        return "time", f"ran past the time limit ({profile.wall_timeout_s:g} s wall, {profile.cpu_s} s CPU)"
    if result.oom:
        return "memory", f"ran out of memory ({profile.memory_mb} MB)"
    if result.stdout_truncated:
        return "output", f"printed more than the output cap ({profile.output_bytes} bytes)"
    return None


def json_lines(stdout: str) -> list[dict[str, Any]]:
    """One JSON object per non-empty line (mypy's -O json)."""
    out = []
    for line in stdout.splitlines():
        if line.strip():
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError("a report line is not a JSON object")
            out.append(obj)
    return out
