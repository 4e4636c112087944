"""Every verb, given bad input (missing files, directories, unwritable places, empty files, bad
values), answers with one line and the documented exit code: never a traceback, never a silent
success. In-process, through `hub.cli.main`, as the CLI runs it."""

from __future__ import annotations

import pytest
from rlhub_cli_helpers import one_line_error

from hub.cli import main
from hub.cli.main import build_parser

LABEL = '{"env": "arith/add-v1", "seed": 1}'
DEAD = "http://127.0.0.1:9/v1"  # nothing listens on the discard port

# (argv, exit code, a piece of the error line). {d}: a directory, {e}: an empty file,
# {m}: a missing file, {w}: a path that cannot be written (even by root), {f}: a path under a file.
CASES = [
    (["list", "--registry", "{m}"], 2, "no such registry file"),
    (["list", "--registry", "{d}"], 2, "is a directory, expected a registry file"),
    (["list", "--registry", "{e}"], 2, "environments: required field is missing"),
    (["list", "zzz/*"], 2, "matches 'zzz/*'"),
    (["show", "arith/add-v9"], 2, "did you mean 'arith/add-v1'"),
    (["show", "arith/add-v1", "--save-images", "{e}"], 2, "is a file; --save-images expects a folder"),
    (["show", "arith/add-v1", "--max-chars", "-1"], 2, "--max-chars must be 0"),
    (["plugins", "--registry"], 2, "argument --registry: expected one argument"),
    (["verifiers", "exact_mach"], 2, "did you mean 'exact_match'"),
    (["sample", "-n", "3", "--out", "{d}"], 2, "is a directory; --out expects a file name"),
    (["sample", "-n", "3", "--out", "{f}"], 2, "is a file, not a folder"),
    (["sample", "-n", "3", "--out", "{w}"], 2, "cannot write the --out file there"),
    (["sample", "-n", "0", "--out", "{m}"], 2, "nothing to sample"),
    (["sample", "-n", "3", "--out", "{m}", "--resume", "{e}"], 2, "not a sampler state"),
    (["sample", "-n", "3", "--out", "{m}", "--state-out", "{d}"], 2, "--state-out expects a file name"),
    (["sample", "-n", "three", "--out", "{m}"], 2, "invalid int value: 'three'"),
    (["verify", "--label", LABEL, "--response-file", "{m}"], 2, "no such file (given as --response-file)"),
    (["verify", "--label", LABEL, "--response-file", "{d}"], 2, "is a directory"),
    (["verify", "--label", "", "--response-file", "{e}"], 2, "bad label ''"),
    (["verify", "--label", '{"env": "arith/add-v1", "seed": -1}', "--response-file", "{e}"], 2, "non-negative"),
    (["reference", "--label", "{}"], 2, "expected an object with a string 'env'"),
    (["reference"], 2, "the following arguments are required: --label"),
    (["play", "arith/add-v1", "--turn", "{m}"], 2, "no such file (given as --turn)"),
    (["play", "arith/add-v1", "--turn", "{d}"], 2, "is a directory"),
    (["play", "arith/guess-v1", "--turn", "{e}"], 2, "the input ended after 1 turn(s)"),
    (["check", "zzz/*"], 2, "matches 'zzz/*'"),
    (["check", "--registry", "{d}"], 2, "is a directory, expected a registry file"),
    (["serve", "--config", "{m}"], 2, "no such serve config"),
    (["serve", "--config", "{d}"], 2, "is a directory"),
    (["serve", "--port", "-5"], 2, "port: Input should be greater than or equal to 0"),
    (["serve", "--backend", "rey"], 2, "did you mean 'ray'"),
    (["mcp", "arith/guess-tols-v1"], 2, "did you mean 'arith/guess-tools-v1'"),
    (["mcp", "arith/guess-v1"], 2, "not a tool environment"),
    (["mcp", "arith/guess-tools-v1", "--verdict-file", "{d}"], 2, "--verdict-file expects a file name"),
    (["mcp", "arith/guess-tools-v1", "--seed", "x"], 2, "invalid int value: 'x'"),
    (["train", "{m}"], 2, "no such run file"),
    (["train", "{d}"], 2, "is a directory, expected a run file"),
    (["train", "{e}"], 2, "name: required field is missing"),
    (["eval", "--base-url", DEAD, "--model", "m", "--out", "{d}"], 2, "--out expects a file name"),
    (["eval", "--base-url", DEAD, "--model", "m", "--out", "{w}"], 2, "cannot write the --out file there"),
    (["eval", "--base-url", DEAD, "--model", "m", "--report", "{d}", "--out", "{m}"], 2, "--report expects a file name"),
    (["eval", "--base-url", DEAD, "--model", "m", "--prompts", "{e}", "--out", "{m}"], 2, "nothing to evaluate"),
    (["eval", "--base-url", DEAD, "--model", "m", "-n", "0", "--out", "{m}"], 2, "nothing to evaluate"),
    (["eval", "--base-url", DEAD, "--model", "m", "-n", "2", "--out", "{m}"], 2, "cannot reach the model endpoint"),
    (["rescore", "{m}"], 2, "no such trajectories file"),
    (["rescore", "{d}"], 2, "is a directory"),
    (["rescore", "{e}"], 2, "nothing to rescore"),
    (["export", "{m}", "--format", "sft", "--out", "{m}"], 2, "no such trajectories file"),
    (["export", "{d}", "--format", "sft", "--out", "{m}"], 2, "is a directory"),
    (["export", "{e}", "--format", "dpo", "--out", "{m}"], 2, "holds no trajectories: nothing to export"),
    (["export", "{e}", "--format", "csv", "--out", "{m}"], 2, "invalid choice 'csv'"),
    (["export", "{e}", "--format", "sft", "--out", "{w}"], 2, "cannot write the --out file there"),
    (["export", "{e}", "--format", "sft", "--out", "{f}"], 2, "is a file, not a folder"),
    (["export", "{e}", "--format", "sft", "--out", "{e}"], 2, "is a file; --out expects a directory (for save_to_disk)"),
    (["export", "{e}", "--format", "sft", "--out", "{m}", "--min-reward", "2"], 2, "--min-reward is a reward, in [0, 1]"),
    (["push", "{d}", "--repo", "a/b"], 2, "pyproject.toml: no such file"),
    (["push", "{d}"], 2, "the following arguments are required: --repo"),
    (["install"], 2, "name a release"),
    (["install", "not a release"], 2, "bad release 'not a release'"),
    (["prefetch"], 2, "nothing to prefetch"),
    (["prefetch", "x"], 2, "bad release 'x'"),
    (["search", "--show", "not a repo!!"], 2, "not a repository id"),
    (["assets"], 2, "the following arguments are required: ACTION"),
    (["assets", "push", "{m}", "{d}"], 2, "no such file or folder to push"),
    (["assets", "push", "{e}", "ftp://mirror.example/p"], 2, "scheme 'ftp' is not allowed"),
    (["assets", "pull"], 2, "nothing to pull"),
    (["assets", "pull", "https://mirror.example/x.bin"], 2, "is not pinned: write it as URL#sha256=HEX"),
    (["assets", "ls", "--registry", "{m}"], 2, "no such registry file"),
    (["swe"], 2, "the following arguments are required: ACTION"),
    (["swe", "build", "{m}", "--out", "{d}"], 2, "expected a directory, a source tarball (.tar.gz), or pypi:NAME==VERSION"),
    (["swe", "build", "pypi:nothing==", "--out", "{d}"], 2, "expected a directory, a source tarball"),
    (["swe", "build", "{e}"], 2, "the following arguments are required: --out"),
    (["eval", "--base-url", DEAD, "--model", "m", "--out", "ftp://h/t.jsonl"], 2, "scheme 'ftp' is not allowed"),
    (["no-such-verb"], 2, "invalid choice 'no-such-verb'"),
]


@pytest.mark.parametrize("argv, code, message", CASES, ids=[" ".join(c[0])[:60] for c in CASES])
def test_bad_input_is_one_line_and_its_exit_code(argv, code, message, tmp_path, monkeypatch, capsys):
    (tmp_path / "adir").mkdir()
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "file.txt").write_text("x")
    paths = {"d": tmp_path / "adir", "e": tmp_path / "empty.txt", "m": tmp_path / "missing.jsonl",
             "w": "/proc/rlhub-cannot-write-here.jsonl", "f": tmp_path / "file.txt" / "out.jsonl"}
    monkeypatch.chdir(tmp_path)  # no ./registry.yaml: the installed plugins' registries
    monkeypatch.setattr("sys.stdin", open("/dev/null"))
    try:
        rc = main([str(paths[a[1]]) if len(a) == 3 and a[0] + a[2] == "{}" else a for a in argv])
    except SystemExit as exc:  # argparse's own errors
        rc = exc.code
    err = capsys.readouterr().err
    assert rc == code, err
    line = one_line_error(err)
    assert message in line, line
    assert not (tmp_path / "missing.jsonl").exists()  # nothing written by a failed command


def test_every_verb_is_walked():
    parser = build_parser()
    verbs = set(next(a for a in parser._actions if a.dest == "command").choices)
    walked = {argv[0] for argv, *_ in CASES}
    assert verbs <= walked, f"verbs without a bad-input case: {sorted(verbs - walked)}"
