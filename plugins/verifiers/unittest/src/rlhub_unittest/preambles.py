"""What a benchmark's own harness puts before every solution it runs, so that a solution that
passes there passes here (config `preamble`, set by the presets).

- livecodebench: `lcb_runner/evaluation/testing_util.py` runs every solution (call-based and
  stdin) after star imports of 18 modules (`typing` among them: a starter's `List[int]` needs
  no import), plain imports of 16, and a recursion limit of 50,000.
- apps: `eval/testing_util.py` runs every solution after its fixed imports (`List`, `Tuple`,
  `Counter`, `lru_cache`, `sqrt`, `gcd`, numpy as `np`, heapq's names ...); a stdin program also
  gets `stdin` and `stdout`. numpy is imported only when the code mentions `np` (it costs
  a tenth of a second, and binding a name the code never reads changes nothing).
"""

from __future__ import annotations

import re

PREAMBLES = ("none", "livecodebench", "apps")

_LCB_STAR = ("string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random", "statistics",
             "itertools", "functools", "operator", "io", "sys", "json", "builtins", "typing")
_LCB_PLAIN = ("string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random", "statistics",
              "itertools", "functools", "operator", "io", "sys", "json")
LIVECODEBENCH = ("".join(f"from {m} import *\n" for m in _LCB_STAR) + "".join(f"import {m}\n" for m in _LCB_PLAIN)
                 + "sys.setrecursionlimit(50000)\n")

APPS = ("import sys\nimport time\nimport itertools\nfrom itertools import accumulate, product, permutations, combinations\n"
        "import collections\nfrom collections import Counter, OrderedDict, deque, defaultdict, ChainMap\n"
        "from functools import lru_cache\nimport math\nfrom math import sqrt, sin, cos, tan, ceil, fabs, floor, gcd, exp, log, log2\n"
        "import fractions\nfrom typing import List, Tuple\n{numpy}import random\nimport heapq\nfrom heapq import *\n"
        "stdin = sys.stdin\nstdout = sys.stdout\n")
_NUMPY = "try:\n    import numpy as np\nexcept ImportError:\n    pass\n"
_MENTIONS_NP = re.compile(r"\bnp\b")


def preamble(name: str, code: str = "") -> str:
    """The code to put before `code` for the benchmark `name` ("none": nothing)."""
    if name == "none":
        return ""
    if name == "livecodebench":
        return LIVECODEBENCH
    if name == "apps":
        return APPS.format(numpy=_NUMPY if _MENTIONS_NP.search(code) else "")
    raise ValueError(f"unknown preamble {name!r}; expected one of {PREAMBLES}")
