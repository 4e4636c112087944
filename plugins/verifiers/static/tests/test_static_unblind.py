"""The second view (rlhub_static.unblind): a finding the analyser makes only once the code's hiding
is undone costs the component its weight, for each class of hiding the red team used (and the
forms around it); ordinary code that looks like those forms costs nothing.

Each HIDDEN row is (analyser, config, the code with its finding hidden, the rule the plain form
trips). The same behaviour in plain sight is graded too: it earns something (the finding weighs
1 of the budget), the hidden one earns 0."""

from __future__ import annotations

import pytest

from rlhub_static.bandit import Bandit
from rlhub_static.mypy import Mypy
from rlhub_static.ruff import Ruff
from rlhub_static.shellcheck import ShellCheck
from rlhub_static.unblind import python_seen, shell_seen

TOOLS = {"ruff": Ruff, "mypy": Mypy, "bandit": Bandit, "shellcheck": ShellCheck}
RUFF = {"select": ["F", "E7", "B", "UP", "SIM", "C4"], "target_version": "py310"}
BANDIT = {"severity": "medium", "confidence": "low", "budget": 2}

# (analyser, config, hidden, the rule its plain form trips)
HIDDEN = {
    # 1. a flagged callable, attribute or constant first bound to a name
    "os.popen aliased": ("bandit", BANDIT, "import os\n_sh = os.popen\n\n\ndef n(t):\n    return _sh('wc -w ' + t).read()\n", "B605"),
    "yaml.load and its Loader aliased": ("bandit", BANDIT, "import yaml\n_load = yaml.load\n_L = yaml.Loader\n\n\n"
                                                           "def f(t):\n    return _load(t, _L)\n", "B506"),
    "tempfile.mktemp aliased": ("bandit", BANDIT, "import tempfile\n_mk = tempfile.mktemp\n\n\ndef f():\n    return _mk()\n", "B306"),
    "algorithm in a name": ("bandit", BANDIT, "import hashlib\n_ALGO = 'md5'\n\n\ndef f(b):\n    return hashlib.new(_ALGO, b).hexdigest()\n",
                            "B324"),
    "/tmp spelled from parts": ("bandit", BANDIT, "import os\n_T = os.sep + 'tmp'\n\n\ndef f():\n    return os.path.join(_T, 'x')\n",
                                "B108"),
    "getattr of execute": ("bandit", BANDIT, "def f(con, name):\n    q = 'SELECT * FROM t WHERE n = ' + repr(name)\n"
                                             "    run = getattr(con, 'execute')\n    return run(q).fetchall()\n",
                           "rlhub-blind-runtime-sql"),
    "zip aliased": ("ruff", RUFF, "_zip = zip\n\n\ndef pairs(a, b):\n    return list(_zip(a, b))\n", "B905"),
    "super aliased": ("ruff", RUFF, "_sup = super\n\n\nclass A:\n    pass\n\n\nclass B(A):\n    def __init__(self):\n"
                                    "        _sup(B, self).__init__()\n", "UP008"),
    "object aliased as a base": ("ruff", RUFF, "_base = object\n\n\nclass A(_base):\n    pass\n", "UP004"),
    "typing names by attrgetter": ("ruff", RUFF, "import operator\nimport typing\n\nList, Dict = operator.attrgetter('List', 'Dict')(typing)\n\n\n"
                                                 "def f(x: List[int]) -> Dict[str, int]:\n    return {'n': len(x)}\n", "UP006"),
    "str.format unbound": ("ruff", RUFF, "_fmt = str.format\n\n\ndef f(k, v):\n    return _fmt('{}: {}', k, v)\n", "UP032"),
    "a constant getattr name": ("ruff", RUFF, "def f(obj):\n    attr = 'name'\n    return getattr(obj, attr)\n", "B009"),
    "a mutable default in a name": ("ruff", RUFF, "_EMPTY = []\n\n\ndef f(x, extra=_EMPTY):\n    return x + extra\n", "B006"),
    # 2. keywords from a dict that is not a literal at the call
    "shell=True in a module dict": ("bandit", BANDIT, "import subprocess\n_OPTS = {'shell': True}\n\n\ndef f(c):\n"
                                                      "    return subprocess.run(c, **_OPTS)\n", "B602"),
    # 3. mypy: casts and lambdas
    "a cast launders a return": ("mypy", {}, "from typing import cast\n\n\ndef f(n: int) -> int:\n    return cast(int, str(n))\n",
                                 "return-value"),
    "a cast launders an Optional": ("mypy", {}, "from typing import cast\n\n\ndef get(d: dict[str, int], k: str) -> int | None:\n"
                                                "    return d.get(k)\n\n\ndef f(d: dict[str, int]) -> int:\n"
                                                "    return cast(int, get(d, 'a')) + 1\n", "operator"),
    "a function written as a lambda": ("mypy", {}, "mean = lambda xs: sum(xs) / len(xs)\n", "no-untyped-def"),
    "a method written as a lambda": ("mypy", {}, "class A:\n    def __init__(self) -> None:\n        self.n = 0\n\n"
                                                 "    bump = lambda self, k: self.n + k\n", "no-untyped-def"),
    # 5. ruff: keeping names in use, operator functions, displays, match, annotations, no-ops
    "__all__ keeps an import": ("ruff", RUFF, "import os\n\n__all__ = ['f', 'os']\n\n\ndef f():\n    return 1\n", "F401"),
    "del keeps a local": ("ruff", RUFF, "def f(t):\n    total = len(t)\n    del total\n    return t\n", "F841"),
    "del keeps a loop variable": ("ruff", RUFF, "def f(xs):\n    out = []\n    for i, x in enumerate(xs):\n        del i\n"
                                                "        out.append(x)\n    return out\n", "B007"),
    "an f-string of a constant": ("ruff", RUFF, "def f():\n    return f\"top{''}\"\n", "F541"),
    "operator.eq with None": ("ruff", RUFF, "import operator\n\n\ndef f(x):\n    return operator.eq(x, None)\n", "E711"),
    "operator.eq aliased": ("ruff", RUFF, "import operator\n_eq = operator.eq\n\n\ndef f(x):\n    return 1 if _eq(x, None) else 2\n",
                            "E711"),
    "operator.not_ of in": ("ruff", RUFF, "import operator\n\n\ndef f(x, y):\n    return operator.not_(x in y)\n", "E713"),
    "operator.contains of keys": ("ruff", RUFF, "import operator\n\n\ndef f(t, k):\n    return operator.contains(t.keys(), k)\n",
                                  "SIM118"),
    "a lambda in a tuple": ("ruff", RUFF, "even = (lambda x: x % 2 == 0,)[0]\n", "E731"),
    "a match that only captures": ("ruff", RUFF, "def f(xs):\n    match [x for x in xs if x]:\n        case l:\n"
                                                 "            return len(l)\n", "E741"),
    "an annotation dodges SIM108": ("ruff", RUFF, "def f(s):\n    if s > 5:\n        r: str = 'hi'\n    else:\n        r = 'lo'\n"
                                                  "    return r\n", "SIM108"),
    "a continue dodges SIM110": ("ruff", RUFF, "def f(xs):\n    for x in xs:\n        if x < 0:\n            return True\n"
                                               "        continue\n    return False\n", "SIM110"),
    "a pass dodges SIM102": ("ruff", RUFF, "def f(a, b):\n    if a:\n        if b:\n            return 1\n        pass\n    return 0\n",
                             "SIM102"),
    "a comprehension that runs once more": ("ruff", RUFF, "def f(xs):\n    return [x for x in xs for _ in (0,)]\n", "C416"),
    "set aliased": ("ruff", RUFF, "_set = set\n\n\ndef f(ws):\n    return sorted(_set(len(w) for w in ws))\n", "C401"),
    "a function attribute keeps a redefinition": ("ruff", RUFF, "def f():\n    return 1\n\n\nf.__doc__ = None\n\n\n"
                                                                "def f():\n    return 2\n", "F811"),
    # 7. red team round 3: lambdas bound in any form, strings computed from literals, .__call__
    "a lambda unpacked from a list": ("ruff", RUFF, "[even] = [lambda x: x % 2 == 0]\n", "E731"),
    "a lambda unpacked into a tuple": ("ruff", RUFF, "even, = [lambda x: x % 2 == 0]\n", "E731"),
    "a lambda by walrus": ("ruff", RUFF, "(even := lambda x: x % 2 == 0)\n", "E731"),
    "a lambda as a loop target": ("ruff", RUFF, "for even in [lambda x: x % 2 == 0]:\n    pass\n", "E731"),
    "a lambda returned by a lambda": ("ruff", RUFF, "even = (lambda: lambda x: x % 2 == 0)()\n", "E731"),
    "a lambda unpacked for mypy": ("mypy", {}, "[mean] = [lambda xs: sum(xs) / len(xs)]\n", "no-untyped-def"),
    "a lambda as a loop target for mypy": ("mypy", {}, "for mean in [lambda xs: sum(xs) / len(xs)]:\n    pass\n",
                                           "no-untyped-def"),
    "md5 through __call__": ("bandit", BANDIT, "import hashlib\n\n\ndef f(b):\n    return hashlib.md5.__call__(b).hexdigest()\n", "B324"),
    "mktemp through __call__": ("bandit", BANDIT, "import tempfile\n\n\ndef f():\n    return tempfile.mktemp.__call__()\n", "B306"),
    "an algorithm sliced backwards": ("bandit", BANDIT, "import hashlib\n\n\ndef f(b):\n    return hashlib.new('5dm'[::-1], b).hexdigest()\n",
                                      "B324"),
    "an algorithm in rot13": ("bandit", BANDIT, "import codecs\nimport hashlib\n\n\ndef f(b):\n"
                                                "    return hashlib.new(codecs.decode('zq5', 'rot13'), b).hexdigest()\n", "B324"),
    "/tmp lower-cased": ("bandit", BANDIT, "def f():\n    return open('/TMP/x.txt'.lower(), 'w')\n", "B108"),
    "/tmp joined": ("bandit", BANDIT, "import os\n\n\ndef f():\n    return open(os.path.join('/', 'tmp', 'x.txt'), 'w')\n", "B108"),
    "/tmp formatted": ("bandit", BANDIT, "def f():\n    return open('/{}/x.txt'.format('tmp'), 'w')\n", "B108"),
    "/tmp decoded": ("bandit", BANDIT, "def f():\n    return open(b'/tmp/x.txt'.decode(), 'w')\n", "B108"),
    "/tmp in an f-string with a spec": ("bandit", BANDIT, "def f():\n    return open(f\"/{'tmp'}/x.txt\" + '', 'w')\n", "B108"),
    # 8. shell wrappers the second view drops
    "env expr": ("shellcheck", {}, '#!/bin/bash\ns=$(env expr "$1" + "$2")\necho "$s"\n', "SC2003"),
    "timeout wc after grep": ("shellcheck", {}, '#!/bin/bash\nn=$(grep -F -- "$1" "$2" | timeout 5 wc -l)\necho "$n"\n', "SC2126"),
    # 6. shellcheck: prefixes, expansions, words in variables
    "command expr": ("shellcheck", {}, '#!/bin/bash\ns=$(command expr "$1" + "$2")\necho "$s"\n', "SC2003"),
    "command ls": ("shellcheck", {}, "#!/bin/bash\nfor f in $(command ls -- *.txt); do echo \"$f\"; done\n", "SC2045"),
    "command wc after grep": ("shellcheck", {}, '#!/bin/bash\nn=$(grep -F -- "$1" "$2" | command wc -l)\necho "$n"\n', "SC2126"),
    "${v:+$v} unquoted": ("shellcheck", {}, "#!/bin/bash\nIFS=\nset -f\nf=$1\nwc -l ${f:+$f}\n", "SC2086"),
    "${!n} unquoted": ("shellcheck", {}, "#!/bin/bash\nn=1\nwc -l ${!n}\n", "SC2086"),
    "a range in a variable": ("shellcheck", {}, "#!/bin/bash\nlower='a-z'\nupper='A-Z'\ntr \"$lower\" \"$upper\"\n", "SC2018"),
}

ORDINARY = {
    "ruff: a bound method, a constant attribute, a strict zip, a parameter's **": ("ruff", RUFF, (
        "import os\n\nSEP = os.sep\n\n\ndef f(xs, ys, **kwargs):\n    out = []\n    append = out.append\n"
        "    for x, y in zip(xs, ys, strict=True):\n        append(SEP.join([x, y]))\n    return dict(items=out, **kwargs)\n")),
    "ruff: a used annotation, del of an item, __all__ of defs, an operator key": ("ruff", RUFF, (
        "import operator\n\n__all__ = ['f']\n\n\ndef f(cache, key, rows):\n    n: int = len(rows)\n    del cache[key]\n"
        "    rows.sort(key=operator.itemgetter(1))\n    return n\n")),
    "ruff: a match on values": ("ruff", RUFF, "def f(cmd):\n    match cmd:\n        case 'a':\n            return 1\n"
                                              "        case other:\n            return len(other)\n"),
    "bandit: a safe constant, a safe call through a name": ("bandit", BANDIT, (
        "import hashlib\nimport subprocess\n\nALGO = 'sha256'\nENC = 'utf-8'\nrun = subprocess.run\n\n\n"
        "def f(path, b):\n    with open(path, encoding=ENC) as fh:\n        fh.read()\n    run(['ls', path], check=True)\n"
        "    return hashlib.new(ALGO, b).hexdigest()\n")),
    "mypy: an annotated lambda, a narrowing instead of a cast": ("mypy", {}, (
        "from collections.abc import Callable\n\ninc: Callable[[int], int] = lambda x: x + 1\n\n\n"
        "def f(x: object) -> int:\n    if isinstance(x, int):\n        return inc(x)\n    return 0\n")),
    "ruff: a loop over several functions, a lambda argument, strings built from data": ("ruff", RUFF, (
        "def f(xs, name):\n    out = []\n    for g in [str.lower, lambda s: s.strip()]:\n        out.append(g(name))\n"
        "    path = '/'.join(['data', name.lower()])\n    return sorted(xs, key=lambda x: -x), out, path + 'x'.upper()\n")),
    "bandit: a safe algorithm spelled from literals, a safe directory joined": ("bandit", BANDIT, (
        "import hashlib\nimport os\n\n\ndef f(b, home):\n    d = os.path.join(home, 'cache', 'x.txt')\n"
        "    return d, hashlib.new('SHA256'.lower(), b).hexdigest(), hashlib.sha256.__call__(b).hexdigest()\n")),
    "shell: wrappers around ordinary commands": ("shellcheck", {}, (
        "#!/bin/bash\nenv LC_ALL=C sort -- \"$1\"\ntimeout 5 grep -c x -- \"$1\"\nnice -n 5 wc -l < \"$1\"\n"
        "command -v bash >/dev/null\nexec >/dev/null 2>&1\n")),
    "shell: command -v, a quoted word with spaces, a real default": ("shellcheck", {}, (
        "#!/bin/bash\ncommand -v jq >/dev/null || exit 1\nname='x y'\ndir=/tmp\ncd \"$dir\" || exit 1\n"
        "echo \"$name ${2:-none}\"\n")),
}


def _plain(hidden: str, analyser: str) -> str:
    view = shell_seen(hidden) if analyser == "shellcheck" else python_seen(hidden, analyser)
    assert view.undone, "the second view undid nothing"
    return view.code


@pytest.mark.parametrize("how", sorted(HIDDEN))
def test_the_second_view_reads_the_hidden_form_plainly(how):
    analyser, _, hidden, _ = HIDDEN[how]
    code = _plain(hidden, analyser)
    assert code != hidden
    if analyser != "shellcheck":
        compile(code, "seen", "exec")  # still Python


@pytest.mark.parametrize("how", sorted(HIDDEN))
def test_each_hiding_costs_the_component_and_the_plain_form_costs_less(analyse, how):
    analyser, config, hidden, rule = HIDDEN[how]
    language = "bash" if analyser == "shellcheck" else "python"
    got = analyse(TOOLS[analyser], hidden, language, **config)
    assert got.error is None and got.reward == 0.0, (how, got.details)
    assert "rlhub-blind-hidden" in got.details["rules"] or rule.startswith("rlhub-blind"), got.details
    assert any(rule in f["message"] or f["rule"] == rule for f in got.details["findings"]), got.details
    plain = analyse(TOOLS[analyser], _plain(hidden, analyser), language, **config)
    assert rule in plain.details.get("rules", {}), (how, plain.details)


@pytest.mark.parametrize("what", sorted(ORDINARY))
def test_ordinary_code_that_looks_like_the_hiding_costs_nothing(analyse, what):
    analyser, config, code = ORDINARY[what]
    got = analyse(TOOLS[analyser], code, "bash" if analyser == "shellcheck" else "python", **config)
    assert got.error is None and got.reward == 1.0, (what, got.details)


def test_a_rewrite_that_would_not_parse_is_dropped():
    code = "x = 1\ny = f'{x}'\n"  # nothing to undo; a placeholder in an f-string is left alone
    view = python_seen(code, "ruff")
    assert view.code == code and not view.undone
    assert python_seen("def broken(:\n", "ruff").undone == ()
