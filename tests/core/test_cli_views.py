"""What the CLI shows a person: images marked and saved, long documents trimmed, verdicts
explained beside their unchanged JSON, an episode played by hand, the verifiers and their config."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from hub.cli import main

REPO = Path(__file__).resolve().parents[2]
REGISTRY = str(REPO / "registry.yaml")
VISION = "docqa/financials-lookup-vision-v1"


def run(capsys, *argv: str, stdin: str = "", monkeypatch=None) -> tuple[int, str, str]:
    if monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    rc = main([*argv, "--registry", REGISTRY])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_show_marks_images_saves_them_and_trims(capsys, tmp_path):
    rc, out, _ = run(capsys, "show", VISION, "--save-images", str(tmp_path / "pics"), "--max-chars", "100")
    assert rc == 0
    marks = [line for line in out.splitlines() if line.startswith("[image ")]
    saved = sorted((tmp_path / "pics").glob("*.png"))
    assert marks and len(marks) == len(saved)
    from PIL import Image

    for k, (mark, path) in enumerate(zip(marks, saved), 1):
        width, height = Image.open(path).size
        assert mark == f"[image {k}: {width}x{height} PNG]"
        assert path.name == f"docqa_financials-lookup-vision-v1-0-image-{k}.png"
    assert "base64" not in out
    rc, out, _ = run(capsys, "show", "docqa/financials-percent-change-128k-v1", "--max-chars", "500")
    assert rc == 0 and "characters cut; --max-chars 0 shows all" in out and len(out) < 5000
    rc, whole, _ = run(capsys, "show", "docqa/financials-percent-change-128k-v1", "--max-chars", "0")
    assert len(whole) > 100_000


def test_verify_keeps_its_json_and_explains_beside_it(capsys, tmp_path):
    label = '{"env": "terminal/word-frequency-v1", "seed": 1}'
    rc, reference, _ = run(capsys, "reference", "--label", label)
    broken = reference.replace("(-kv[1], kv[0])", "kv[0]")
    assert broken != reference
    answer = tmp_path / "answer.txt"
    answer.write_text(broken)
    rc, out, err = run(capsys, "verify", "--label", label, "--response-file", str(answer), "--explain")
    verdict = json.loads(out)  # stdout: the JSON alone, as scripts read it
    assert rc == 1 and verdict["reward"] == 0.0 and 0 < verdict["details"]["tests_passed"] < verdict["details"]["tests_total"]
    passed, total = verdict["details"]["tests_passed"], verdict["details"]["tests_total"]
    assert "FAILED  reward 0  (unit_tests" in err
    assert "reward mode: reward: all_or_nothing" in err  # why 2 of 5 tests earn nothing
    assert f"tests: {passed} of {total} passed" in err
    assert "AssertionError: top_words(" in err and "\\n" not in err  # tracebacks unescaped
    assert "returned [(" in err and "expected [(" in err


def test_numbers_are_rounded_for_display_only():
    from hub.evaluation.verdicts import explain

    verdict = {"reward": 0.35676245749999996, "passed": False, "components": {"iou": 0.123456789},
               "details": {"volume": 106308.196725, "reference_volume": 102613.25965}}
    text = explain(verdict)
    assert "reward 0.3568" in text and "iou  0.1235" in text
    assert "volume  expected 102613  got 106308" in text
    assert verdict["reward"] == 0.35676245749999996


def test_play_runs_an_episode_by_hand(capsys, monkeypatch, tmp_path):
    from hub.config.catalog import Catalog

    answer = Catalog.load(REGISTRY).reference('{"env": "arith/guess-v1", "seed": 3}')
    low = tmp_path / "low.txt"
    low.write_text("1")
    rc, out, _ = run(capsys, "play", "arith/guess-v1", "--seed", "3", "--turn", str(low),
                     stdin=f"2\n.\n{answer}\n", monkeypatch=monkeypatch)
    assert rc == 0
    assert out.count("=== observation after turn") == 2 and "higher than 1" in out and "higher than 2" in out
    assert "=== verdict after 3 turn(s) ===\nPASSED  reward 1" in out
    rc, out, _ = run(capsys, "play", "arith/guess-v1", "--seed", "3", "--json", stdin="1\n.\n2\n",
                     monkeypatch=monkeypatch)
    assert rc == 2  # the input ended before the episode did


def test_verifiers_lists_names_distributions_and_config_fields(capsys):
    rc, out, _ = run(capsys, "verifiers", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert rc == 0 and {"exact_match", "unit_tests", "mesh_iou", "answer_match"} <= set(rows)
    assert rows["unit_tests"]["distribution"] == "rlhub-unittest"
    reward = next(f for f in rows["unit_tests"]["config"] if f["name"] == "reward")
    assert reward["default"] == "all_or_nothing" and "fraction" in reward["type"]
    rc, text, _ = run(capsys, "verifiers", "exact_match")
    assert text.startswith("exact_match  (rlhub ") and "    extract: Literal['whole', 'last_line', 'boxed', 'last_number'] = \"whole\"" in text


@pytest.mark.parametrize("verb", ["list", "show", "sample", "verify", "play", "eval", "serve", "train", "push"])
def test_every_help_has_examples_and_defaults(verb, capsys):
    with pytest.raises(SystemExit):
        main([verb, "--help"])
    text = capsys.readouterr().out
    assert "\nexample" in text and f"  rlhub {verb}" in text.split("\nexample", 1)[1]
    if verb in ("show", "sample", "eval", "play"):
        assert "(default: 0)" in " ".join(text.split())  # --seed: a default of 0 is shown too
