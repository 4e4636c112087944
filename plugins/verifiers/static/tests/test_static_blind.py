"""What the analyser cannot see earns it nothing (rlhub_static.blind and the analysers' own options):
the issue's hiding tricks each cost the whole component, and the ordinary code they resemble
(`re.compile`, `ast.literal_eval`, `getattr` on an object, `while True:`, a TYPE_CHECKING import
block, a literal `source` path) costs nothing."""

from __future__ import annotations

import base64

import pytest

from rlhub_static.bandit import Bandit, runtime_sql
from rlhub_static.blind import python_blind, shell_blind
from rlhub_static.mypy import Mypy, unfollowed_imports
from rlhub_static.ruff import Ruff
from rlhub_static.shellcheck import ShellCheck

B64 = base64.b64encode(b"import os\nx = os.getcwd()\n").decode()

HIDDEN_PYTHON = {
    "exec of base64": f"import base64\nexec(base64.b64decode({B64!r}).decode())\n",
    "eval aliased": "run = eval\nprint(run('1 + 1'))\n",
    "compile": "code = compile('x = 1', 'f', 'exec')\n",
    "__import__": "m = __import__('subprocess')\n",
    "builtins attribute": "import builtins\nbuiltins.exec('x = 1')\n",
    "built builtin name": "import builtins\ngetattr(builtins, 'ex' + 'ec')('x = 1')\n",
    "getattr on a module": "import hashlib\n\ndef h(b):\n    return getattr(hashlib, 'md5')(b).hexdigest()\n",
    "importlib": "import importlib\nsp = importlib.import_module('subp' + 'rocess')\n",
    "globals": "def f():\n    return globals()['os']\n",
    "module __dict__": "import os\nf = os.__dict__['system']\n",
    "sys.modules": "import sys\nos = sys.modules['os']\n",
    "keywords as a dict": "import subprocess\n\ndef run(cmd):\n    return subprocess.run(cmd, **{'shell': True})\n",
    "keywords as dict()": "import subprocess\n\ndef run(cmd):\n    return subprocess.run(cmd, **dict(shell=True))\n",
}
SKIPPED_BY_MYPY = {
    "not TYPE_CHECKING": "from typing import TYPE_CHECKING\n\nif not TYPE_CHECKING:\n    def f(x):\n        return x\n",
    "platform": "import sys\n\nif sys.platform == 'win32':\n    def f(x):\n        return x + 'a'\n",
    "version": "import sys\n\nif sys.version_info < (3, 0):\n    y = 1 + ''\n",
    "constant": "if False:\n    y = 1 + ''\n",
    "MYPY bound to data": "MYPY = 0 * 1\n\nif not MYPY:\n    def f(x):\n        return x\n",
    "MYPY imported": "from sys import warnoptions as MYPY\n\nif not MYPY:\n    def f(x):\n        return x\n",
    "PY2 as an attribute": "import six\n\nif six.PY2:\n    y = 1 + ''\n",
    "assert not MYPY": "from sys import warnoptions as MYPY\nassert not MYPY\n\n\ndef f(x):\n    return x\n",
    "assert a platform": "import sys\nassert sys.platform == 'win32'\n\n\ndef f(x):\n    return x\n",
    "TYPE_CHECKING with code": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    def f(x): ...\nelse:\n    def f(x):\n        return x\n",
}
PLAIN_PYTHON = '''\
import ast
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

PATTERN = re.compile(r"\\d+")


def parse(text: str) -> object:
    return ast.literal_eval(text)


def label(obj: object, name: str) -> str:
    return str(getattr(obj, name, ""))


def count(items: "Iterable[int]") -> int:
    n = 0
    while True:
        for _ in items:
            n += 1
        return n


def call(f, *args, **kwargs):
    return f(*args, **kwargs)
'''


@pytest.mark.parametrize("how", sorted(HIDDEN_PYTHON))
def test_each_python_hiding_is_a_blind_finding_weighing_the_budget(how):
    found = python_blind(HIDDEN_PYTHON[how], weight=5.0)
    assert found and all(f.rule.startswith("rlhub-blind-") and f.weight == 5.0 for f in found), (how, found)


UNTYPED_LAMBDAS = {
    "assigned": "mean = lambda xs: sum(xs) / len(xs)\n",
    "unpacked": "[mean] = [lambda xs: sum(xs) / len(xs)]\n",
    "walrus": "(mean := lambda xs: sum(xs) / len(xs))\n",
    "returned by a lambda": "mean = (lambda: lambda xs: sum(xs) / len(xs))()\n",
    "in a dict": "FUNCS = {'mean': lambda xs: sum(xs) / len(xs)}\nmean = FUNCS['mean']\n",
    "a loop target": "for mean in [lambda xs: sum(xs) / len(xs)]:\n    pass\n",
}
TYPED_LAMBDAS = ("from collections.abc import Callable\n\ninc: Callable[[int], int] = lambda x: x + 1\n"
                 "zero = lambda: 0\n\n\ndef by(xs: list[int], key: Callable[[int], int] = lambda x: -x) -> list[int]:\n"
                 "    return sorted(xs, key=lambda x: key(x))\n\n\ndef adder(n: int) -> Callable[[int], int]:\n"
                 "    return lambda x: x + n\n")


@pytest.mark.parametrize("how", sorted(UNTYPED_LAMBDAS))
def test_a_lambda_nothing_types_is_blind_to_mypy(how):
    assert "rlhub-blind-untyped-lambda" in [f.rule for f in python_blind(UNTYPED_LAMBDAS[how], 1.0, type_checker=True)]
    assert python_blind(UNTYPED_LAMBDAS[how], 1.0) == []  # ruff and bandit: the second view's business


def test_a_lambda_its_context_types_is_not_blind():
    assert python_blind(TYPED_LAMBDAS, 1.0, type_checker=True) == []


PRIVATE_MODULES = {
    "_hashlib": "import _hashlib\n\n\ndef f(b):\n    return _hashlib.openssl_md5(b).hexdigest()\n",
    "from _hashlib": "from _hashlib import openssl_md5\n",
    "posix.system": "import posix\nposix.system('ls')\n",
    "hashlib._hashlib": "import hashlib\nhashlib._hashlib.openssl_md5(b'')\n",
    "_pickle": "import _pickle as p\np.loads(b'')\n",
}


@pytest.mark.parametrize("how", sorted(PRIVATE_MODULES))
def test_private_accelerator_modules_are_blind_to_every_analyser(how):
    assert "rlhub-blind-private-module" in [f.rule for f in python_blind(PRIVATE_MODULES[how], 1.0)]


def test_ordinary_private_names_are_not_blind():
    code = "from __future__ import annotations\n\nimport os\nimport sys\n\n\ndef f(x):\n    if x:\n        os._exit(1)\n    return sys._getframe(0), x._private\n"
    assert python_blind(code, 1.0, type_checker=True) == []
    assert python_blind("import sys\nassert sys.version_info >= (3, 8)\nx = 1\n", 1.0, type_checker=True) == []


@pytest.mark.parametrize("how", sorted(SKIPPED_BY_MYPY))
def test_branches_mypy_decides_statically_are_blind_for_mypy_only(how):
    assert [f.rule for f in python_blind(SKIPPED_BY_MYPY[how], 1.0, type_checker=True)] == ["rlhub-blind-skipped"]
    assert python_blind(SKIPPED_BY_MYPY[how], 1.0) == []  # ruff and bandit read both sides


def test_ordinary_code_that_resembles_the_tricks_is_not_blind():
    assert python_blind(PLAIN_PYTHON, 1.0, type_checker=True) == []
    assert unfollowed_imports(PLAIN_PYTHON, 1.0) == []
    assert runtime_sql('import sqlite3\nq = "SELECT a FROM t WHERE b = ?"\ncon.execute(q, (1,))\n'
                       'con.execute("INSERT INTO t " + "VALUES (?)", (2,))\n', 1.0) == []


def test_unfollowed_imports_and_runtime_sql():
    assert [f.line for f in unfollowed_imports("import os\nimport pytest as T\nfrom yaml import safe_load\n", 1.0)] == [2, 3]
    sql = ('def find(con, name):\n    q = "".join(["SELECT * FROM t WHERE n = \'", name.replace("\'", "\'\'"), "\'"])\n'
           '    return con.execute(q).fetchall()\n')
    assert [f.rule for f in runtime_sql(sql, 1.0)] == ["rlhub-blind-runtime-sql"]
    assert runtime_sql("con.execute(f'SELECT {x}')\n", 1.0)


HIDDEN_SHELL = {
    "eval of base64": f'#!/bin/bash\neval "$(echo {B64} | base64 -d)"\n',
    "source of a substitution": f"#!/bin/bash\nsource <(echo {B64} | base64 -d)\n",
    "eval of built text": '#!/bin/bash\ncmd="ls"\neval "$cmd -l"\n',
    "bash -c": '#!/bin/bash\nbash -c "$1"\n',
    "pipe into sh": '#!/bin/bash\nprintf "%s\\n" "$x" | sh\n',
    ". of a variable": '#!/bin/bash\n. "$HOME/$1"\n',
    "aliases": "#!/bin/bash\nshopt -s expand_aliases\nalias cnt='grep -cF -- $1 $2'\ncnt\n",
    "env bash -c": '#!/bin/bash\nn=$(env bash -c "grep -c -- \\$1 \\$2" _ "$1" "$2")\n',
    "timeout sh -c": '#!/bin/bash\ntimeout 5 sh -c "$1"\n',
    "xargs bash -c": '#!/bin/bash\nprintf "%s\\n" "$@" | xargs -n1 bash -c \'wc -l $0\'\n',
    "find -exec sh -c": "#!/bin/bash\nfind . -name '*.txt' -exec sh -c 'wc -l $1' _ {} \\;\n",
    "command eval": '#!/bin/bash\ncommand eval "$1"\n',
    "builtin source": '#!/bin/bash\nbuiltin source "$1"\n',
    "nice exec bash": '#!/bin/bash\nnice -n 5 /bin/bash -c "$1"\n',
    "if eval": '#!/bin/bash\nif eval "$1"; then echo ok; fi\n',
    "a backquoted bash -c": '#!/bin/bash\nx=`bash -c "$1"`\n',
}


@pytest.mark.parametrize("how", sorted(HIDDEN_SHELL))
def test_each_shell_hiding_is_a_blind_finding(how):
    assert shell_blind(HIDDEN_SHELL[how], 1.0), how


def test_ordinary_shell_is_not_blind():
    code = '#!/usr/bin/env bash\ncommand -v bash >/dev/null\nwhich sh\nenv LC_ALL=C sort f\ngrep -c bash f\nsource ./lib.sh\n'
    assert shell_blind(code, 1.0) == []
    code = '#!/bin/bash\nset -euo pipefail\nsource ./lib.sh\n. /etc/profile\nfor f in *.txt; do\n  wc -l < "$f"  # eval here is a comment\ndone\necho "eval"\n'
    assert shell_blind(code, 1.0) == []


# -- through the real analysers in the sandbox: the component earns 0 -------------------------

def test_the_issues_tricks_earn_the_analyser_nothing(analyse):
    hide = "import base64\nexec(base64.b64decode(%r).decode())\n"
    module = "import os\n\n\ndef f(x):\n    return x == None\n"
    assert analyse(Ruff, module, select=["E7", "F"]).reward == 0.6  # in plain sight: 2 of a budget of 5
    v = analyse(Ruff, hide % base64.b64encode(module.encode()).decode(), select=["E7", "F"])
    assert v.reward == 0.0 and "rlhub-blind-dynamic-code" in v.details["rules"], v.details
    v = analyse(Mypy, SKIPPED_BY_MYPY["not TYPE_CHECKING"])
    assert v.reward == 0.0 and "rlhub-blind-skipped" in v.details["rules"], v.details
    v = analyse(Mypy, "import pytest as T\n\n\ndef f(x: T.Any) -> T.Any:\n    return x\n")
    assert v.reward == 0.0 and "rlhub-blind-unfollowed-import" in v.details["rules"], v.details
    v = analyse(Bandit, HIDDEN_PYTHON["keywords as a dict"], severity="medium", confidence="low", budget=2)
    assert v.reward == 0.0 and "rlhub-blind-keywords" in v.details["rules"], v.details
    v = analyse(Bandit, HIDDEN_PYTHON["getattr on a module"], severity="medium", confidence="low", budget=2)
    assert v.reward == 0.0 and "rlhub-blind-lookup" in v.details["rules"], v.details
    v = analyse(ShellCheck, HIDDEN_SHELL["eval of base64"], language="bash")
    assert v.reward == 0.0 and "rlhub-blind-dynamic-code" in v.details["rules"], v.details


def test_mypy_reports_what_its_own_options_find(analyse):
    v = analyse(Mypy, "def f(x: int) -> int:\n    if isinstance(x, int):\n        return x\n    return 'a'\n",
                unfollowed_imports=False)
    assert "unreachable" in v.details.get("rules", {}), v.details  # --warn-unreachable
