"""The sandbox: the only way rlhub runs model output (bubblewrap, warm workers, sessions).

    sb = get_sandbox()
    sb.run(profile, ["python3", "main.py"], files={"main.py": "print(1)"})      # cold
    sb.call(profile, "pkg.runner:run_tests", files={...}, args={...})          # warm fork
    with sb.session(profile) as s: s.write_files(...); s.run([...]); s.read_files([...])
"""

from .profile import DEFAULT_PROFILES, Mount, Profile
from .result import RunResult, SandboxUnavailable
from .sandbox import Sandbox, get_sandbox
from .session import Session

__all__ = [
    "DEFAULT_PROFILES", "Mount", "Profile", "RunResult", "Sandbox", "SandboxUnavailable", "Session", "get_sandbox",
]
