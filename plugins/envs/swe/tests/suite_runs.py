"""Running a generated project's own suites with plain pytest in a temporary directory (the
projects are ours: no model code runs here), for the tests of the generator."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def failing(files: dict[str, str], hidden: str | None = None) -> tuple[set[str], set[str]]:
    """(failing test names, passing test names) of the visible suite, or of `hidden` (one module)."""
    with tempfile.TemporaryDirectory() as d:
        for path, text in files.items():
            full = os.path.join(d, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        target = "tests"
        if hidden is not None:
            os.makedirs(os.path.join(d, "hidden"), exist_ok=True)
            with open(os.path.join(d, "hidden", "test_all_hidden.py"), "w") as f:
                f.write(hidden)
            target = "hidden"
        report = os.path.join(d, "report.xml")
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", target,
                        f"--junitxml={report}"], cwd=d, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        bad, good = set(), set()
        for case in ET.parse(report).getroot().iter("testcase"):
            name = case.get("name", "").split("[", 1)[0]
            (bad if case.find("failure") is not None or case.find("error") is not None else good).add(name)
        return bad, good
