"""The family example in docs/families.md is real: installed as a plugin, it passes every check."""

import os
import re
import subprocess
import sys
from pathlib import Path

from hub.testing.plugins import make_plugin_dist

DOC = Path(__file__).resolve().parents[2] / "docs" / "families.md"


def test_the_family_in_the_docs_passes_the_checks(tmp_path):
    source = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    assert len(source.strip().splitlines()) < 45  # "a new family in under 40 lines" (plus blank lines)
    site = make_plugin_dist(tmp_path / "site", "rlhub-mathdemo", "rlhub_mathdemo", source)
    (tmp_path / "registry.yaml").write_text("environments:\n  - id: 'mathdemo/*'\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "registry.yaml"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert re.search(r"\b36 passed, 4 skipped\b", out.stdout), out.stdout[-500:]  # 2 kinds x 2 seeds x 9 checks
