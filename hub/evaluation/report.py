"""`rlhub eval --report report.html`: one self-contained page (no scripts, no links out) with
the summary table (rewards with intervals, prompt and completion tokens, model and verification
seconds at p50 / p95), bar charts of reward per domain and per environment (matplotlib, inline
SVG), the failures with their cause (causes.py), the verdict explained and the whole transcript of
a multi-turn sample, and for verifiers that draw (CAD parts) the reference and the candidate at one
shared scale (`Verifier.drawings`, the frame of `rlhub verify --render`).

Everything a model wrote is escaped; pictures are PNG bytes checked by their signature and
embedded as data URLs; anything built from a response is built in the sandbox.
"""

from __future__ import annotations

import base64
import html
import io
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from ..core.errors import UserError
from ..core.files import atomic_write
from .stats import fmt, interval
from .verdicts import explain, failure_reason, reward_why

MAX_EXAMPLES = 3  # failed examples shown per environment
MAX_DRAWN = 8  # responses drawn beside their reference (each drawing runs in the sandbox)
BAR = "#4c72b0"  # reward bars
PASS = "#dd8452"  # pass-rate markers

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 1em 0; } td, th { padding: 3px 10px; border-bottom: 1px solid #eee; }
th { text-align: left; background: #f6f6f6; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f8f8f8; padding: 8px; overflow-x: auto; font-size: 12px; max-height: 360px; }
.pair { display: flex; flex-direction: column; gap: 8px; } .pair figure { margin: 0; }
.pair img { max-width: 100%; border: 1px solid #ccc; } figcaption { font-size: 12px; color: #555; }
.chart svg { max-width: 100%; height: auto; }
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _chart(labels: list[str], rewards: list[float], passes: list[float], title: str) -> str:
    """A horizontal bar chart of mean reward (bars) and pass rate (markers), as inline SVG."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure

    height = 1.2 + 0.32 * len(labels)
    fig = Figure(figsize=(9, height))
    ax = fig.add_subplot()
    ys = list(range(len(labels)))[::-1]
    ax.barh(ys, rewards, color=BAR, label="mean reward", height=0.6)
    ax.scatter(passes, ys, color=PASS, marker="D", zorder=3, label="pass rate")
    ax.set_yticks(ys, labels, fontsize=8)
    ax.set_xlim(0, 1.0)
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text as text: smaller, and no glyph ids shared by two charts
        fig.savefig(buf, format="svg")
    svg = buf.getvalue()
    return svg[svg.index("<svg"):]  # inline: drop the XML prologue


def _png(data: bytes) -> str | None:
    if not isinstance(data, (bytes, bytearray)) or not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return None
    return "data:image/png;base64," + base64.b64encode(bytes(data)).decode("ascii")


def _pictures(renv, task, response: str, ctx) -> dict[str, Any]:
    """Drawings by caption: the verifier's (drawn from what it measured, at one scale), else the
    environment's (`Environment.drawings`, PNG bytes)."""
    from ..core.env import Environment
    from ..core.verifier import Drawing

    if renv.verifier.drawings is not None:
        return renv.verifier.drawings(task, response, ctx)
    if type(renv.env).drawings is not Environment.drawings:
        return {k: Drawing(v) for k, v in renv.env.drawings(task, response, ctx).items()}
    return {}


def _draws(renv) -> bool:
    from ..core.env import Environment

    return renv.verifier.drawings is not None or type(renv.env).drawings is not Environment.drawings


def _drawings(catalog, records: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Reference and candidate drawings for up to MAX_DRAWN responses (failed ones first)."""
    from ..core.verifier import VerifyContext

    from tqdm import tqdm

    out = []
    bar = tqdm(total=MAX_DRAWN, desc="drawings", unit="part", disable=None, leave=False)
    for rec in sorted(records, key=lambda r: bool(r.get("passed"))):
        if len(out) >= MAX_DRAWN:
            break
        if not rec.get("turns") or not rec.get("env") or rec["env"] not in catalog.envs:
            continue
        renv = catalog.get(rec["env"])
        if not _draws(renv):
            continue
        try:
            task = catalog.task(rec["label"])
            pictures = _pictures(renv, task, rec["turns"][-1]["action"], VerifyContext(profile=renv.profile))
        except Exception:  # a drawing is a nicety: the report is written without it
            pictures = {}
        shown = {k: (url, d) for k, d in pictures.items() if (url := _png(getattr(d, "png", None)))}
        if shown:
            out.append((rec, shown))
            bar.update()
    bar.close()
    return out


def _figure(caption: str, url: str, drawing) -> str:
    """One drawing; one drawn to scale carries it (`data-per-px`, `data-unit`) and says it."""
    if drawing.per_px is None:
        return f"<figure><img alt='{_e(caption)}' src='{url}'><figcaption>{_e(caption)}</figcaption></figure>"
    return (f"<figure><img alt='{_e(caption)}' src='{url}' data-per-px='{drawing.per_px:.6g}' data-unit='{_e(drawing.unit)}'>"
            f"<figcaption>{_e(caption)}: 1 pixel = {drawing.per_px:.4g} {_e(drawing.unit)}</figcaption></figure>")


def render(catalog, records: list[dict[str, Any]], summary: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    envs = [r for r in summary if r["env"] != "all" and not r["env"].endswith("/*")]
    domains: dict[str, list[dict]] = defaultdict(list)
    for rec in records:  # the means are over samples with a verdict (the rest are counted apart)
        if rec.get("error") is None:
            domains[(rec.get("env") or "?").split("/", 1)[0]].append(rec)
    dom_names = sorted(domains)
    dom_reward = [sum(r["reward"] for r in domains[d]) / len(domains[d]) for d in dom_names]
    dom_pass = [sum(bool(r["passed"]) for r in domains[d]) / len(domains[d]) for d in dom_names]
    total = next(r for r in summary if r["env"] == "all")
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>rlhub eval: {_e(meta['model'])}</title>",
             f"<style>{STYLE}</style></head><body>",
             f"<h1>rlhub eval: {_e(meta['model'])}</h1>",
             f"<p>{total['n']} tasks, mean reward <b>{fmt(total['reward'])}</b> {interval(total['reward_ci'])}, "
             f"pass rate <b>{fmt(total['pass_rate'], '.1%')}</b> {interval(total['pass_ci'], '.1%')} (95 % intervals, "
             f"over the samples with a verdict); {total['errors']} without a verdict. Endpoint {_e(meta['base_url'])}, registry {_e(meta['registry'])}, "
             f"{_e(meta['when'])}. Trajectories: {_e(meta['out'])}.</p>",
             "<h2>Reward per domain</h2>",
             f"<div class='chart' id='chart-domains'>{_chart(dom_names, dom_reward, dom_pass, 'per domain')}</div>",
             "<h2>Reward per environment</h2>",
             f"<div class='chart' id='chart-envs'>{_chart([r['env'] for r in envs], [r['reward'] or 0.0 for r in envs], [r['pass_rate'] or 0.0 for r in envs], 'per environment')}</div>",
             "<h2>Summary</h2>", _table(summary)]
    parts += _failures(catalog, records)
    drawn = _drawings(catalog, records)
    if drawn:
        parts.append("<h2>Drawings: reference and candidate</h2>")
        parts.append("<p>The pictures of one sample share one scale (the caption says how long a pixel is): "
                     "a part drawn larger is larger.</p>")
        for rec, pictures in drawn:
            figures = "".join(_figure(k, url, d) for k, (url, d) in pictures.items())
            scales = {d.per_px for _, d in pictures.values()}
            parts.append(f"<h3>{_e(rec['label'])}: reward {rec['reward']:.3f}</h3>"
                         f"<div class='pair' data-shared-scale='{'yes' if len(scales) == 1 and None not in scales else 'no'}'>"
                         f"{figures}</div>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _seconds(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _table(summary: list[dict[str, Any]]) -> str:
    head = ["environment", "tasks", "reward", "95 % interval", "pass", "95 % interval", "no verdict", "turns",
            "prompt tokens", "completion tokens", "truncated", "model s p50", "model s p95", "verify s p50",
            "verify s p95", "top failure causes"]
    rows = ["<table id='summary'><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    estimated = False
    for r in summary:
        reasons = "; ".join(f"{_e(why)} ({n})" for why, n in r["reasons"])
        mark = "*" if r.get("tokens_estimated") else ""
        estimated = estimated or bool(mark)
        prompt = r.get("prompt_tokens")
        cells = [f"<td>{_e(r['env'])}</td>", *(f"<td class='n'>{v}</td>" for v in (
            r["n"], fmt(r["reward"]), interval(r["reward_ci"]), fmt(r["pass_rate"], ".1%"), interval(r["pass_ci"], ".1%"),
            r["errors"], f"{r['turns']:.2f}", "-" if prompt is None else f"{prompt:.0f}{mark}", f"{r['tokens']:.0f}{mark}",
            f"{r['truncated']:.1%}", *(_seconds(r.get(k)) for k in ("model_p50", "model_p95", "verify_p50", "verify_p95")))),
            f"<td>{reasons}</td>"]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    note = ("<p>Tokens are per episode (prompt tokens: every turn's prompt), as the endpoint counted them"
            + ("; * some were estimated (the endpoint sent no usage)" if estimated else "") + ". Seconds per episode: "
            "model = waiting for the endpoint, verify = the environment's steps and the grading; p50 / p95 over the "
            "episodes (- where the trajectories predate the split).</p>")
    return "".join(rows) + "</table>" + note


def _text(content: Any) -> str:
    if isinstance(content, list):  # message parts: the text whole, an image by name
        return "\n".join(str(p.get("text", "")) if p.get("type") == "text" else f"[{p.get('type', 'part')}]"
                         for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def _transcript(rec: dict[str, Any]) -> str:
    """The reply of a single-turn sample; the whole transcript of a multi-turn one (the prompt,
    every reply, its tool calls and what came back), collapsed, nothing cut."""
    turns = rec.get("turns") or []
    if len(turns) <= 1:
        last = turns[-1]["action"] if turns else ""
        return f"<details class='reply'><summary>reply ({len(last)} characters)</summary><pre>{_e(last)}</pre></details>"
    parts = []
    for m in rec.get("prompt") or []:
        if isinstance(m, dict):
            parts.append(f"<b>{_e(m.get('role', 'user'))}</b><pre>{_e(_text(m.get('content')))}</pre>")
    for i, t in enumerate(turns, 1):
        calls = "".join(f"\n-> {c.get('function', {}).get('name')}({c.get('function', {}).get('arguments')})"
                        for c in t.get("tool_calls") or [])
        back = "\n".join(f"<- {r.get('name')}: {_text(r.get('content'))}" for r in t.get("tool_results") or [])
        parts.append(f"<b>turn {i}: the model</b><pre>{_e(str(t.get('action') or '') + calls)}</pre>"
                     f"<b>turn {i}: the environment</b><pre class='obs'>{_e(back or str(t.get('observation') or ''))}</pre>")
    return (f"<details class='transcript'><summary>transcript ({len(turns)} turns)</summary>{''.join(parts)}</details>")


def _failures(catalog, records: list[dict[str, Any]]) -> list[str]:
    failed: dict[str, list[dict]] = defaultdict(list)
    for rec in records:
        if failure_reason(rec):
            failed[rec.get("env") or "?"].append(rec)
    if not failed:
        return []
    out = ["<h2>Failures</h2>"]
    for env in sorted(failed):
        recs = failed[env]
        out.append(f"<h3>{_e(env)}: {len(recs)} failed</h3>")
        renv = catalog.envs.get(env)
        config = renv.verifier.config.model_dump(mode="json") if renv else None
        for rec in recs[:MAX_EXAMPLES]:
            verdict = {k: rec.get(k) for k in ("reward", "passed", "components", "details", "verifier", "error")}
            why = reward_why(renv.verifier, verdict) if renv else None
            out.append(f"<p><b class='cause'>{_e(failure_reason(rec))}</b>: {_e(rec['label'])}</p>"
                       f"<pre>{_e(explain(verdict, config, why=why))}</pre>" + _transcript(rec))
    return out


def write(catalog, records: list[dict[str, Any]], summary: list[dict[str, Any]], path: Path, **meta: Any) -> Path:
    """Write the report to `path` (whole or not at all)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UserError("--report needs matplotlib: pip install 'rlhub[report]'") from None
    meta = {"when": time.strftime("%Y-%m-%d %H:%M:%S"), **meta}
    page = render(catalog, records, summary, meta)
    atomic_write(path, lambda fh: fh.write(page))
    return path
