"""Helpers for the terminal tests (a unique module name: test dirs share sys.path in CI)."""

from hub.sandbox import RunResult, get_sandbox


def fenced_file(path: str, code: str, lang: str = "python") -> str:
    return f"```{lang} file={path}\n{code.strip()}\n```\n"


def body(response: str) -> str:
    """The code inside a fenced response (reference or wrong answer)."""
    return response.split("\n", 1)[1].rsplit("```", 1)[0]


class FlakySandbox:
    """The real sandbox, except that the first `faults` session commands die with an
    infrastructure error (and take their session with them), as a crashed sandbox would."""

    def __init__(self, faults: int) -> None:
        self.real, self.faults, self.opened = get_sandbox(), faults, 0

    def __getattr__(self, name):
        return getattr(self.real, name)

    def session(self, profile):
        self.opened += 1
        return FlakySession(self, self.real.session(profile))


class FlakySession:
    def __init__(self, box: FlakySandbox, cm) -> None:
        self.box, self.cm = box, cm

    def __enter__(self):
        self.inner = self.cm.__enter__()
        return self

    def __exit__(self, *exc):
        return self.cm.__exit__(*exc)

    def write_files(self, files):
        return self.inner.write_files(files)

    def read_files(self, paths):
        return self.inner.read_files(paths)

    def run(self, argv, **kw):
        if self.box.faults > 0:
            self.box.faults -= 1
            self.inner.close()  # the sandbox is gone: its work dir with it
            return RunResult(infra_error="injected: sandbox process died")
        return self.inner.run(argv, **kw)
