"""Helpers for the terminal tests (a unique module name: test dirs share sys.path in CI)."""


def fenced_file(path: str, code: str, lang: str = "python") -> str:
    return f"```{lang} file={path}\n{code.strip()}\n```\n"


def body(response: str) -> str:
    """The code inside a fenced response (reference or wrong answer)."""
    return response.split("\n", 1)[1].rsplit("```", 1)[0]
