"""`rlhub eval --report`: a self-contained HTML page that a real headless browser (Chromium from
apt) renders with its charts, failure reasons and, for CAD tasks, the reference and candidate
drawings side by side. Model output on the page is escaped."""

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

REPO = Path(__file__).resolve().parents[2]
REGISTRY = str(REPO / "registry.yaml")
CAD = '{"env": "cad/flange-dimensioned-v1", "seed": 1}'
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
    """One eval run with a report: arithmetic (right, wrong, hostile) and one CAD part built wrong."""
    tmp = tmp_path_factory.mktemp("report")
    cat = Catalog.load(REGISTRY)
    cad = cat.task(CAD)
    wrong_part = cad.reference.replace("bolts = 6", "bolts = 4")
    answers = {cat.task('{"env": "arith/add-v1", "seed": 1}').prompt_text(): cat.reference('{"env": "arith/add-v1", "seed": 1}'),
               cat.task('{"env": "arith/mul-v1", "seed": 2}').prompt_text(): HOSTILE,
               cad.prompt_text(): wrong_part}
    labels = ['{"env": "arith/add-v1", "seed": 1}', '{"env": "arith/mul-v1", "seed": 2}', CAD]
    prompts = tmp / "prompts.jsonl"
    prompts.write_text("".join(json.dumps({"label": l}) + "\n" for l in labels))
    page = tmp / "out" / "report.html"
    with OpenAIStub(lambda messages: answers[_text(messages[0]["content"])]) as stub:
        rc = main(["eval", "--registry", REGISTRY, "--base-url", stub.url, "--model", stub.model, "--prompts", str(prompts),
                   "--out", str(tmp / "traj.jsonl"), "--report", str(page), "--json"])
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


def test_cad_drawings_sit_side_by_side(report):
    page, _ = report
    html = page.read_text()
    images = dict(re.findall(r"<img alt='(\w+)' src='data:image/png;base64,([A-Za-z0-9+/=]+)'>", html))
    assert set(images) == {"reference", "candidate"}
    from PIL import Image

    ref, cand = (Image.open(io.BytesIO(base64.b64decode(images[k]))) for k in ("reference", "candidate"))
    assert ref.size == cand.size == (640, 480)
    assert (np.asarray(ref) != np.asarray(cand)).any()  # 4 bolt holes drawn, not the reference's 6


def test_headless_chromium_renders_the_charts(report, tmp_path):
    page, _ = report
    dom = chromium("--dump-dom", page.as_uri(), tmp_path=tmp_path)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "<title>rlhub eval: stub-model</title>" in dom.stdout  # the hostile reply ran no script
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
