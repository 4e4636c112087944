"""A second Python environment for tests that need "another machine": a new virtual environment
that sees the packages of the running one, whether that is the system Python or a venv.

`python -m venv --system-site-packages` is not that: from inside a venv it exposes the *base*
interpreter's packages, not the venv's (so rlhub, its plugins and a recent setuptools would be
missing). Here the new venv gets a `.pth` file that adds each of the running environment's
site-packages directories with `site.addsitedir`, so their own `.pth` files (editable installs)
work too. Packages installed into the new venv come first and stay in it.
"""

from __future__ import annotations

import site
import subprocess
import sys
import sysconfig
from pathlib import Path


def overlay_venv(root: Path) -> Path:
    """Create a venv at `root` over the running environment's packages; returns its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = root / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    ours = list(dict.fromkeys([*site.getsitepackages(), sysconfig.get_paths()["purelib"]]))
    lines = "".join(f"import site; site.addsitedir({path!r})\n" for path in ours if Path(path).is_dir())
    (Path(purelib) / "_rlhub_overlay.pth").write_text(lines)
    return python
