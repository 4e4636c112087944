import json

from rlhub_cli_helpers import one_line_error, run_rlhub

LABEL = '{"env": "arith/mul-v1", "seed": 11}'


def test_reference_round_trip_and_exit_codes(tmp_path):
    ref = run_rlhub("reference", "--label", LABEL)
    assert ref.returncode == 0
    (tmp_path / "ref.txt").write_text(ref.stdout)
    ok = run_rlhub("verify", "--label", LABEL, "--response-file", str(tmp_path / "ref.txt"))
    verdict = json.loads(ok.stdout)
    assert ok.returncode == 0 and verdict["reward"] == 1.0 and verdict["passed"] is True
    assert verdict["verifier"]["name"] == "exact_match" and len(verdict["verifier"]["config_hash"]) == 16
    (tmp_path / "wrong.txt").write_text(str(int(ref.stdout) + 1))
    bad = run_rlhub("verify", "--label", LABEL, "--response-file", str(tmp_path / "wrong.txt"))
    assert bad.returncode == 1 and json.loads(bad.stdout)["reward"] == 0.0


def test_user_errors_are_one_line_with_exit_2(tmp_path):
    cases = [
        ("verify", "--label", LABEL, "--response-file", str(tmp_path / "nope.txt")),
        ("verify", "--label", "{oops", "--response-file", "-"),
        ("reference", "--label", '{"env": "arith/mull-v1", "seed": 1}'),
        ("list", "--registry", str(tmp_path / "missing.yaml")),
        ("sample", "--n", "0", "--out", str(tmp_path / "p.jsonl")),
    ]
    for args in cases:
        out = run_rlhub(*args, stdin="")
        assert out.returncode == 2, (args, out.stderr)
        one_line_error(out.stderr)
    suggestion = run_rlhub("reference", "--label", '{"env": "arith/mull-v1", "seed": 1}').stderr
    assert "did you mean 'arith/mul-v1'" in suggestion


def test_sample_is_deterministic_and_never_leaks_answers(tmp_path):
    a, b, c = (tmp_path / f"{x}.jsonl" for x in "abc")
    for out, seed in ((a, 3), (b, 3), (c, 4)):
        assert run_rlhub("sample", "--n", "40", "--seed", str(seed), "--out", str(out)).returncode == 0
    assert a.read_text() == b.read_text() != c.read_text()
    records = [json.loads(line) for line in a.read_text().splitlines()]
    assert len(records) == 40 and set(records[0]) == {"input", "label", "datasource", "tools"}
    from hub import load

    cat = load()
    for r in records:
        task = cat.task(r["label"])
        assert r["input"] == task.prompt and r["datasource"] == task.env_id
        assert task.reference not in task.prompt_text().split() or len(task.reference) < 3


def test_sample_state_resumes(tmp_path):
    whole, part1, part2 = tmp_path / "w.jsonl", tmp_path / "p1.jsonl", tmp_path / "p2.jsonl"
    state = tmp_path / "state.json"
    run_rlhub("sample", "--n", "20", "--seed", "9", "--out", str(whole))
    run_rlhub("sample", "--n", "12", "--seed", "9", "--out", str(part1), "--state-out", str(state))
    run_rlhub("sample", "--n", "8", "--seed", "9", "--out", str(part2), "--resume", str(state))
    assert whole.read_text() == part1.read_text() + part2.read_text()


def test_list_show_json_and_help():
    rows = json.loads(run_rlhub("list", "--json", "arith/*").stdout)
    assert {r["id"] for r in rows} >= {"arith/add-v1", "arith/guess-v1"}
    assert all(set(r) >= {"id", "domain", "verifier", "weight", "tags"} for r in rows)
    show = json.loads(run_rlhub("show", "arith/guess-v1", "--json").stdout)
    assert show["max_turns"] == 8 and "Guess" in show["example"]["prompt"]
    helptext = run_rlhub("--help").stdout
    assert "examples:" in helptext and "exit codes" in helptext
