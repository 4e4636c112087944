"""A plugin's registry fragment: the `registry.yaml` that says how its environments are used
(verifier, sandbox profile, weight, tags), shipped as package data of the plugin's package.

    plugins/envs/cad/registry.yaml            the fragment, next to the distribution's pyproject
    plugins/envs/cad/rlhub_cad/registry.yaml  a symlink to it: package data, so a wheel carries it
    [tool.setuptools.package-data]
    rlhub_cad = ["registry.yaml"]

The fragment is found through the package that holds the plugin's entry-point module
(`importlib.resources`), the same for editable and wheel installs. Where the package data is a
symlink (a source checkout) the file it points to is used, so paths inside the fragment (a
dataset's `path:`) are relative to where the author wrote them.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path
from types import ModuleType

FRAGMENT = "registry.yaml"


def fragment_of(module: ModuleType | object) -> Path | None:
    """The registry fragment of the package holding `module`, or None (a lone module, an object
    registered as a plugin, no such file)."""
    package = getattr(module, "__name__", "") if hasattr(module, "__path__") else getattr(module, "__package__", None)
    top = (package or "").split(".", 1)[0]
    if not top:
        return None
    try:
        resource = importlib.resources.files(top) / FRAGMENT
    except (ModuleNotFoundError, TypeError, ValueError):
        return None
    if not resource.is_file():
        return None
    return Path(str(resource)).resolve()
