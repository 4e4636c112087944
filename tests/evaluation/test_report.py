"""`rlhub eval --report`: a self-contained HTML page that a real headless browser (Chromium from
apt) renders with its charts, the failures' causes (an import error, a wrong answer, no verdict),
the whole transcript of a multi-turn sample, latency and tokens, and for CAD tasks the reference
and candidate drawn at one scale. Model output on the page is escaped. The verdicts the eval
wrote (a real CAD mismatch, a real swe verdict under `reward: fraction`) are explained whole."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from openai_stub import OpenAIStub

from hub.cli import main
from hub.config.catalog import Catalog
from hub.evaluation.report import BAR
from html import escape as html_escape

REPO = Path(__file__).resolve().parents[2]
REGISTRY = str(REPO / "registry.yaml")
CAD = '{"env": "cad/flange-dimensioned-v1", "seed": 1}'
SWE = '{"env": "swe/cli-feature-diff-v1", "seed": 0}'
GUESS = '{"env": "arith/guess-v1", "seed": 3}'
DOWN = '{"env": "arith/add-v1", "seed": 2}'
HOSTILE = "<script>document.title='pwned'</script><img src=x onerror=alert(1)>"


def chromium(*args: str, tmp_path: Path) -> subprocess.CompletedProcess:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        pytest.skip("Chromium is not installed (scripts/setup.sh installs it: apt-get install chromium)")
    profile = tmp_path / "chromium-profile"
    return subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                           "--hide-scrollbars", *args], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """One eval run with a report: arithmetic (right, hostile), a guessing session that never
    guesses right (no usage from the endpoint: tokens estimated), an endpoint failure (no
    verdict), a CAD part built too large, and a swe patch whose import breaks the package."""
    tmp = tmp_path_factory.mktemp("report")
    cat = Catalog.load(REGISTRY)
    cad = cat.task(CAD)
    big_part = cad.reference.replace("flange_d = 110", "flange_d = 150")
    assert big_part != cad.reference
    swe_ref = cat.reference(SWE)  # its first hunk alone imports a name the patch never adds
    first = swe_ref[swe_ref.index("diff --git a/dolist/commands.py"):].split("\n@@")
    broken_patch = "```diff\n" + first[0] + "\n@@" + first[1].rstrip("\n") + "\n```\n"
    answers = {cat.task('{"env": "arith/add-v1", "seed": 1}').prompt_text(): cat.reference('{"env": "arith/add-v1", "seed": 1}'),
               cat.task('{"env": "arith/mul-v1", "seed": 2}').prompt_text(): HOSTILE,
               cat.task(GUESS).prompt_text(): "1",
               cad.prompt_text(): big_part, cat.task(SWE).prompt_text(): broken_patch}
    labels = ['{"env": "arith/add-v1", "seed": 1}', '{"env": "arith/mul-v1", "seed": 2}', GUESS, DOWN, CAD, SWE]
    prompts = tmp / "prompts.jsonl"
    prompts.write_text("".join(json.dumps({"label": l}) + "\n" for l in labels))
    page = tmp / "out" / "report.html"
    guess, down = cat.task(GUESS).prompt_text(), cat.task(DOWN).prompt_text()

    def reply(messages):
        if _text(messages[0]["content"]) == down:
            raise RuntimeError("the model crashed")  # the stub answers HTTP 500
        return answers[_text(messages[0]["content"])]

    with OpenAIStub(reply,
                    usage=lambda messages: _text(messages[0]["content"]) != guess) as stub:
        rc = main(["eval", "--registry", REGISTRY, "--base-url", stub.url, "--model", stub.model, "--prompts", str(prompts),
                   "--out", str(tmp / "traj.jsonl"), "--report", str(page), "--json", "--max-no-verdict", "0.5",
                   # one at a time: CPython 3.11.7's ast.parse is not thread-safe ("AST constructor
                   # recursion depth mismatch" when the swe and CAD verifiers parse at once)
                   "--concurrency", "1"])
    assert rc == 0
    return page, tmp


def _text(content) -> str:
    return content if isinstance(content, str) else "\n".join(p.get("text", "") for p in content if isinstance(p, dict))


def test_the_page_is_self_contained_and_escapes_model_output(report):
    page, _ = report
    html = page.read_text()
    assert not re.search(r"""(src|href)=['"](?!data:|#)""", html), "the page must load nothing from elsewhere"
    assert "<script" not in html and HOSTILE not in html and "&lt;script&gt;" in html
    assert html.count("<svg") >= 2 and "mean reward" in html
    for env in ("arith/add-v1", "arith/mul-v1", "cad/flange-dimensioned-v1"):
        assert env in html
    assert "Failures" in html and "wrong answer" in html


def _records(tmp: Path) -> dict[str, dict]:
    return {json.loads(line)["label"]: json.loads(line) for line in (tmp / "traj.jsonl").read_text().splitlines()}


def _drawn_width(png: bytes) -> int:
    """Pixels across the part in the first (top) view: the part is shaded blue, captions black, marks red."""
    from PIL import Image

    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    top = rgb[:, : rgb.shape[0]]
    cols = np.nonzero(((top[..., 2] - top[..., 0]) > 15).any(axis=0))[0]
    return int(cols[-1] - cols[0] + 1)


def test_cad_drawings_share_one_scale(report):
    page, tmp = report
    html = page.read_text()
    found = re.findall(r"<img alt='(\w+)' src='data:image/png;base64,([A-Za-z0-9+/=]+)' data-per-px='([0-9.e-]+)' "
                       r"data-unit='mm'>", html)
    images = {alt: (base64.b64decode(data), float(per_px)) for alt, data, per_px in found}
    assert set(images) == {"reference", "candidate"} and "data-shared-scale='yes'" in html
    (ref, ref_scale), (cand, cand_scale) = images["reference"], images["candidate"]
    assert ref_scale == cand_scale  # one mm per pixel for both
    from PIL import Image

    assert Image.open(io.BytesIO(ref)).size == Image.open(io.BytesIO(cand)).size
    details = _records(tmp)[CAD]["details"]
    want, got = details["reference_size_mm"][0], details["size_mm"][0]  # 110 mm and 150 mm across
    assert got > want * 1.3
    for png, mm in ((ref, want), (cand, got)):  # each drawn as wide as it is, at the shared scale
        assert abs(_drawn_width(png) * ref_scale - mm) <= 3 * ref_scale + 0.01 * mm, (_drawn_width(png), mm)


def test_failure_causes_come_from_the_verdict(report):
    page, tmp = report
    html = page.read_text()
    causes = dict((label.replace("&quot;", '"'), why) for why, label in
                  re.findall(r"<b class='cause'>([^<]+)</b>: ([^<]+)</p>", html))
    assert causes[SWE] == "import error"  # the patch's ImportError, not a "wrong answer"
    assert causes['{"env": "arith/mul-v1", "seed": 2}'] == "wrong answer"
    assert causes[DOWN] == "no verdict: InternalServerError"
    assert causes[CAD].startswith("wrong answer (weakest: ")
    assert causes[GUESS].startswith("wrong answer")


def test_multi_turn_samples_show_their_whole_transcript(report):
    page, tmp = report
    html = page.read_text()
    turns = _records(tmp)[GUESS]["turns"]
    assert len(turns) > 2
    block = html.split("<details class='transcript'>", 1)[1].split("</details>", 1)[0]
    assert f"transcript ({len(turns)} turns)" in block
    for i, t in enumerate(turns, 1):
        assert f"<b>turn {i}: the model</b><pre>{t['action']}</pre>" in block
        assert html_escape(t["observation"]) in block


def test_latency_and_tokens_are_split_and_estimates_marked(report):
    page, tmp = report
    recs = _records(tmp)
    cad, guess = recs[CAD], recs[GUESS]
    assert cad["model_s"] > 0 and cad["verify_s"] > 0 and cad["prompt_tokens"] > 0 and not cad["tokens_estimated"]
    assert cad["verify_s"] >= cad["details"]["verify_s"] * 0.9  # the step's time holds the grading
    assert guess["tokens_estimated"] and all(t.get("tokens_estimated") for t in guess["turns"]) and guess["prompt_tokens"] > 0
    rows = re.findall(r"<tr><td>([^<]+)</td>((?:<td class='n'>[^<]*</td>)+)", page.read_text())
    cells = {env: re.findall(r"<td class='n'>([^<]*)</td>", rest) for env, rest in rows}
    assert cells["arith/guess-v1"][7].endswith("*") and not cells["cad/flange-dimensioned-v1"][7].endswith("*")
    assert all(v != "-" for v in cells["all"][10:14])  # model and verify seconds, p50 and p95


def test_explain_shows_a_cad_mismatch_whole_and_a_swe_fraction_reward(report):
    from hub.evaluation.verdicts import explain, reward_why

    _, tmp = report
    cat = Catalog.load(REGISTRY)
    recs = _records(tmp)
    for label in (CAD, SWE):
        rec = recs[label]
        verifier = cat.get(rec["env"]).verifier
        text = explain(rec, verifier.config.model_dump(mode="json"), why=reward_why(verifier, rec))
        lines = text.splitlines()
        assert "mismatch_data" not in text and "..." not in text.replace("... (", "")
        if label == CAD:
            for i, m in enumerate(rec["details"]["mismatch_data"], 1):  # every one whole, on its own line
                assert any(line.startswith(f"  {i}. {m['text']}") for line in lines), m["text"]
            assert "= 0.05 + 0.45 x" in text and f"= {rec['reward']:.4g}," in text
        else:
            assert "reward mode: reward: fraction" in text and rec["reward"] == 0.0
            why = next(line for line in lines if line.startswith("why this reward: "))
            assert "0/6 FAIL_TO_PASS passing" in why and "130 PASS_TO_PASS test(s) broke" in why
            assert "ImportError: cannot import name 'parse_interval'" in why and "(0/6 = 0)" in why
            for test in rec["details"]["fail_to_pass_failing"]:
                assert f"  - {test}" in lines


def test_headless_chromium_renders_the_charts(report, tmp_path):
    page, _ = report
    dom = chromium("--dump-dom", page.as_uri(), tmp_path=tmp_path)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "<title>rlhub eval: stub-model</title>" in dom.stdout  # the hostile reply ran no script
    scales = re.findall(r'<img alt="(reference|candidate)" src="data:image/png;base64,[^"]+" data-per-px="([^"]+)"', dom.stdout)
    assert len(scales) == 2 and scales[0][1] == scales[1][1]  # the browser's DOM keeps both, at one scale
    assert dom.stdout.count('<details class="transcript">') == 1
    for chart in ("chart-domains", "chart-envs"):
        block = dom.stdout.split(f'id="{chart}"', 1)[1].split("</svg>", 1)[0]
        assert block.count("<path") >= 3, chart
    shot = tmp_path / "shot.png"
    out = chromium(f"--screenshot={shot}", "--window-size=1200,1800", page.as_uri(), tmp_path=tmp_path)
    assert shot.exists(), out.stderr[-2000:]
    from PIL import Image

    image = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    bar = np.array([int(BAR[i:i + 2], 16) for i in (1, 3, 5)])
    bar_pixels = int((np.abs(image - bar) <= 12).all(axis=-1).sum())
    assert bar_pixels > 2000, f"the charts' bars did not render ({bar_pixels} bar-coloured pixels)"
    assert os.path.getsize(shot) > 20_000


def test_trajectories_written_before_the_split_still_render(report, tmp_path):
    """A file from before model_s / verify_s / prompt tokens: summarised and rendered, '-' where it has no data."""
    from hub.evaluation import report as report_mod
    from hub.evaluation.run import read_trajectories, summarize

    _, tmp = report
    new = ("model_s", "verify_s", "prompt_tokens", "tokens_estimated", "step_s")
    old = tmp_path / "old.jsonl"
    with old.open("w") as fh:
        for rec in read_trajectories(tmp / "traj.jsonl"):
            if rec["env"].startswith("arith/"):  # nothing to draw: cheap
                rec = {k: v for k, v in rec.items() if k not in new}
                rec["turns"] = [{k: v for k, v in t.items() if k not in new} for t in rec["turns"]]
                fh.write(json.dumps(rec) + "\n")
    records = read_trajectories(old)
    rows = summarize(records)
    assert rows[-1]["model_p50"] is None and rows[-1]["prompt_tokens"] is None
    page = report_mod.write(Catalog.load(REGISTRY), records, rows, tmp_path / "old.html", model="m", base_url="u",
                            registry="r", out=str(old))
    cells = re.findall(r"<td class='n'>([^<]*)</td>", page.read_text().split("<tr><td>all</td>", 1)[1].split("</tr>", 1)[0])
    assert cells[7] == "-" and cells[10:14] == ["-"] * 4
    assert "<details class='transcript'>" in page.read_text()
