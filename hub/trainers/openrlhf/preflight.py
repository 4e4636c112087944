"""`rlhub train --preflight`: what every node of a run needs, checked on the launching machine.

A launch that lacks one of these dies minutes in, in someone else's traceback (`No module named
'vllm'` from inside OpenRLHF's Ray actors). The versions expected are those the installed
OpenRLHF declares (its own pins, with its `vllm` extra), else those of the OpenRLHF release the
command is checked against. Every Ray node needs the same: OpenRLHF and vLLM on the GPU nodes,
rlhub, its plugins and bubblewrap wherever rewards and episodes run (all nodes, with the agent
file), and root there, since rlhub's sandbox gives each task its own uid.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
from collections import Counter
from dataclasses import asdict, dataclass

from .parser import OPENRLHF_VERSION

# OpenRLHF 0.11.2's own pins (setup.py: install_requires and the `vllm` extra), used when it is not installed.
OPENRLHF_PINS = {"vllm": "==0.29.0", "ray": "==2.55.0", "deepspeed": "==0.19.6", "transformers": "==5.15.0", "torch": ""}
MODULES = {"openrlhf": "openrlhf", "vllm": "vllm", "ray": "ray", "deepspeed": "deepspeed", "transformers": "transformers",
           "torch": "torch"}


@dataclass
class Check:
    component: str
    needed: str
    found: str
    state: str  # ok | missing | wrong version | failed | note
    fix: str = ""

    @property
    def fails(self) -> bool:
        return self.state in ("missing", "wrong version", "failed")


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def expected_pins() -> tuple[dict[str, str], str]:
    """{distribution: specifier} the launch needs, and where the pins come from."""
    try:
        requires = importlib.metadata.distribution("openrlhf").requires or []
    except importlib.metadata.PackageNotFoundError:
        return dict(OPENRLHF_PINS), f"OpenRLHF {OPENRLHF_VERSION}'s pins"
    from packaging.requirements import Requirement

    pins: dict[str, str] = {}
    for line in requires:
        req = Requirement(line)
        name = req.name.lower()
        if name in OPENRLHF_PINS and (req.marker is None or req.marker.evaluate({"extra": "vllm"})):
            pins[name] = str(req.specifier)
    return {**OPENRLHF_PINS, **pins}, f"OpenRLHF {_version('openrlhf')}'s own pins"


def _package(name: str, spec: str, how: str) -> Check:
    from packaging.specifiers import SpecifierSet
    from packaging.version import InvalidVersion, Version

    found = _version(name)
    needed = f"{name}{spec}" if spec else f"{name} (any)"
    install = f"pip install --no-deps {name}{spec}" if name == "openrlhf" else f"pip install '{name}{spec}'"
    if found is None or importlib.util.find_spec(MODULES[name]) is None:
        return Check(name, needed + f" ({how})", "not installed", "missing", install)
    try:
        ok = not spec or SpecifierSet(spec).contains(Version(found), prereleases=True)
    except InvalidVersion:
        ok = False
    if not ok:
        return Check(name, needed + f" ({how})", found, "wrong version", install)
    if name == "torch" and "+cpu" in found:
        return Check(name, needed, found, "note", "a CPU-only build: the GPU nodes need a CUDA build of torch")
    return Check(name, needed, found, "ok")


def packages() -> list[Check]:
    pins, how = expected_pins()
    rows = [_package("openrlhf", f"=={OPENRLHF_VERSION}", "the command is checked against its parser")]
    return rows + [_package(name, pins[name], how) for name in ("vllm", "ray", "deepspeed", "transformers", "torch")]


def bubblewrap() -> list[Check]:
    """bwrap present, root (rlhub's sandbox drops each task to a uid of its own), and one real run."""
    path = shutil.which("bwrap")
    if path is None:
        return [Check("bubblewrap", "bwrap on PATH (every node)", "not installed", "missing",
                      "apt-get install bubblewrap (Debian/Ubuntu), dnf install bubblewrap (RHEL)")]
    try:
        version = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        version = f"{path} (--version failed: {exc})"
    rows = [Check("bubblewrap", "bwrap on PATH (every node)", version or path, "ok")]
    if os.geteuid() != 0:
        rows.append(Check("sandbox", "root where rewards run", f"uid {os.geteuid()}", "missing",
                          "run the reward service / Ray workers as root: the sandbox gives each task its own uid"))
        return rows
    from ...sandbox import get_sandbox
    from ...sandbox.profile import Profile

    try:
        result = get_sandbox().run(Profile(name="preflight"), ["python3", "-c", "print('sandboxed')"])
        worked = result.stdout.strip() == "sandboxed" and result.exit_code == 0
        detail = (f"ran in {result.duration_s:.2f} s" if worked
                  else result.infra_error or result.stderr.strip()[-200:] or f"exit {result.exit_code}")
    except Exception as exc:  # SandboxUnavailable and whatever the kernel refuses
        worked, detail = False, f"{type(exc).__name__}: {exc}"
    rows.append(Check("sandbox", "a sandboxed python3 runs", detail,
                      "ok" if worked else "failed",
                      "" if worked else "see the detail; bwrap needs namespaces (no nested container without them)"))
    return rows


def plugins(catalog, selected) -> list[Check]:
    """rlhub and each installed plugin, with how many of the run's environments each provides."""
    from ...core import __version__

    used = Counter(e.spec.distribution for e in selected)
    rows = [Check("rlhub", f"rlhub {__version__} (every node)", _version("rlhub") or f"{__version__} (source tree)", "ok")]
    for info in catalog.plugins.plugins:
        if info.distribution == "rlhub":
            continue
        n = used.get(info.distribution, 0)
        needed = f"{info.distribution}=={info.version}" + (f" ({n} environments of the run)" if n else " (installed, unused)")
        rows.append(Check(info.name, needed, "load failed" if info.error else info.version,
                          "failed" if info.error and n else ("note" if info.error else "ok"),
                          info.error or ""))
    return rows


def assets(catalog) -> list[Check]:
    """Each pinned asset the registry names: cached here, or fetchable (its size answers), or not."""
    from ...assets import AssetError, AssetRef, default_cache

    if not catalog.asset_uses:
        return [Check("assets", "pinned assets of the registry", "the registry pins none", "ok")]
    cache = default_cache()
    rows = []
    for where, pin in catalog.asset_uses:
        try:
            ref = AssetRef.parse(pin)
            if cache.cached(ref) is not None:
                rows.append(Check("asset", where, f"cached ({ref.sha256[:12]})", "ok"))
                continue
            import fsspec

            fs, path = fsspec.core.url_to_fs(ref.url)
            size = fs.size(path)
            rows.append(Check("asset", where, f"fetchable ({size} bytes)", "ok",
                              "pre-fill each node: rlhub assets pull --registry REGISTRY"))
        except (AssetError, OSError, ImportError, ValueError) as exc:
            rows.append(Check("asset", where, f"{type(exc).__name__}: {exc}"[:160], "missing",
                              "push it (rlhub assets push) or fix its URL/credentials"))
    return rows


def run_checks(catalog, selected) -> list[Check]:
    return [*packages(), *bubblewrap(), *plugins(catalog, selected), *assets(catalog)]


def as_json(checks: list[Check]) -> list[dict]:
    return [{**asdict(c), "fails": c.fails} for c in checks]


def render(checks: list[Check]) -> str:
    from ...cli.common import table

    failing = [c for c in checks if c.fails]
    head = ("# preflight: every Ray node needs what this machine has here (versions as listed); "
            + (f"{len(failing)} missing: " + ", ".join(c.component for c in failing) if failing else "nothing missing"))
    return head + "\n" + table([[c.component, c.needed, c.found, c.state, c.fix] for c in checks],
                               ["COMPONENT", "NEEDED", "FOUND", "STATE", "FIX"])
