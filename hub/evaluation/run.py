"""Evaluate a model on the registry through any OpenAI-compatible endpoint (vLLM's server...).

Each sampled task is played as an rlhub episode: single-turn tasks take one reply, multi-turn
ones feed the environment's observation back as the next user message until the episode ends.
Every trajectory (messages, actions, verdict, verifier identity) is written to JSONL as it
finishes, so `rescore` can grade the same rollouts again after a verifier changes.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterable

from tqdm import tqdm

from ..core.errors import UserError
from ..core.files import read_jsonl
from ..core.task import Label
from .verdicts import failure_reason

TOP_REASONS = 3  # failure reasons shown per environment


def load_labels(catalog, prompts_file: str | None, n: int, seed: int, select: str | None) -> list[str]:
    """Labels from a prompt file (`rlhub sample` / `rlhub train` output), else `n` distinct draws."""
    if prompts_file:
        labels = []
        expected = "a JSON object with a 'label' field"
        for i, record in read_jsonl(prompts_file, "prompt file (--prompts)", expected):
            if not isinstance(record, dict) or "label" not in record:
                raise UserError(f"{prompts_file}:{i}: expected {expected}")
            labels.append(record["label"])
        labels = labels[:n] if n else labels
        if not labels:
            raise UserError(f"{prompts_file}: no labels in it: nothing to evaluate")
        return labels
    if n <= 0:
        raise UserError(f"--n must be a positive number of tasks, got {n}: nothing to evaluate")
    from ..mixture.splits import split_labels

    _, held = split_labels(catalog, 1, n, seed, select)
    return held


def _messages(task) -> list[dict[str, Any]]:
    return list(task.prompt) if isinstance(task.prompt, list) else [{"role": "user", "content": task.prompt}]


def _next_messages(action: str, calls: list[dict], step) -> list[dict[str, Any]]:
    """The assistant's turn and what answers it: its tool calls' results as `tool` messages (what
    could not be read of the turn as a user message), or the observation as a user message."""
    if not calls and not step.tool_results:
        return [{"role": "assistant", "content": action}, {"role": "user", "content": step.observation}]
    out: list[dict[str, Any]] = [{"role": "assistant", "content": action or None, "tool_calls": calls} if calls
                                 else {"role": "assistant", "content": action}]
    out += [r.message() for r in step.tool_results]
    if step.notes or not step.tool_results:
        out.append({"role": "user", "content": "\n".join(step.notes) or step.observation})
    return out


def _usage(reply, messages: list[dict[str, Any]], action: str, calls: list[dict]) -> dict[str, Any]:
    """A turn's prompt and completion tokens: the endpoint's own count (`usage`), else an estimate
    (`length_penalty`'s count, no tokenizer), marked `tokens_estimated`."""
    from ..plugins.builtin.length import count_tokens

    usage = getattr(reply, "usage", None)
    prompt = getattr(usage, "prompt_tokens", None)
    completion = getattr(usage, "completion_tokens", None)
    out: dict[str, Any] = {}
    if completion is None:
        completion = count_tokens(action + ("".join(json.dumps(c) for c in calls) if calls else ""))
        out["tokens_estimated"] = True
    if prompt is None:
        prompt = count_tokens("\n".join(_text_of(m.get("content")) for m in messages))
        out["tokens_estimated"] = True
    return {"tokens": int(completion), "prompt_tokens": int(prompt), **out}


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # parts: text counted, images not (their tokens depend on the model)
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


async def _play(catalog, client, model: str, label: str, gen: dict[str, Any], pool: ThreadPoolExecutor,
                step_timeout: float) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    record: dict[str, Any] = {"label": label, "env": None, "model": model, "turns": [], "reward": 0.0,
                              "passed": False, "error": None, "tokens": 0, "prompt_tokens": 0,
                              "tokens_estimated": False, "model_s": 0.0, "verify_s": 0.0}
    start = time.perf_counter()
    try:
        record["env"] = Label.parse(label).env
        episode = await loop.run_in_executor(pool, catalog.episode, label)
        await loop.run_in_executor(pool, episode.reset)
        messages = _messages(episode.task)
        record["prompt"] = messages
        tools = await loop.run_in_executor(pool, catalog.tools, label, episode.task)
        if tools:  # a tool environment: the endpoint gets the schemas and answers with tool_calls
            record["tools"] = [t["function"]["name"] for t in tools]
        while True:
            t0 = time.perf_counter()
            reply = await client.chat.completions.create(model=model, messages=messages, **gen,
                                                         **({"tools": tools} if tools else {}))
            model_s = time.perf_counter() - t0
            message = reply.choices[0].message
            action = message.content or ""
            calls = [c.model_dump() for c in message.tool_calls or []] if tools else []
            usage = _usage(reply, messages, action, calls)
            played = {"role": "assistant", "content": action, "tool_calls": calls} if tools else action
            t1 = time.perf_counter()
            step = await asyncio.wait_for(loop.run_in_executor(pool, episode.step, played), step_timeout)
            step_s = time.perf_counter() - t1
            turn = {"action": action, "observation": step.observation, "done": step.done,
                    "finish_reason": reply.choices[0].finish_reason, **usage,
                    "model_s": round(model_s, 4), "step_s": round(step_s, 4)}
            if tools:
                turn["tool_calls"] = calls
                turn["tool_results"] = [r.message() for r in step.tool_results]
                turn["notes"] = list(step.notes)  # said to the model after the results (rlhub export rebuilds the transcript)
            record["turns"].append(turn)
            record["tokens"] += usage["tokens"]
            record["prompt_tokens"] += usage["prompt_tokens"]
            record["tokens_estimated"] = record["tokens_estimated"] or bool(usage.get("tokens_estimated"))
            record["model_s"] = round(record["model_s"] + model_s, 4)
            record["verify_s"] = round(record["verify_s"] + step_s, 4)
            if step.done:
                break
            messages = messages + _next_messages(action, calls, step)
        verdict = step.verdict
        record.update(verdict.to_dict() if verdict else {"error": "episode ended without a verdict"})
    except asyncio.TimeoutError:
        record["error"] = f"environment step took longer than {step_timeout} s"
    except UserError as exc:
        record["error"] = str(exc)
    except Exception as exc:  # the endpoint failed (connection, HTTP status): recorded, not fatal
        record["error"] = f"{type(exc).__name__}: {exc}"
    record["seconds"] = round(time.perf_counter() - start, 4)
    return record


async def run_eval(catalog, labels: list[str], base_url: str, model: str, out: Path, concurrency: int = 16,
                   max_tokens: int = 1024, temperature: float = 0.0, api_key: str = "EMPTY",
                   step_timeout: float = 300.0, timeout: float = 600.0, progress: bool = True) -> list[dict[str, Any]]:
    from openai import AsyncOpenAI

    if concurrency <= 0:
        raise UserError(f"--concurrency must be positive, got {concurrency}")
    client = AsyncOpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=2)
    gen = {"max_tokens": max_tokens, "temperature": temperature}
    sem = asyncio.Semaphore(concurrency)
    records: list[dict[str, Any]] = []
    out.parent.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="rlhub-eval") as pool, \
            out.open("w") as fh, tqdm(total=len(labels), desc="eval", unit="task", disable=not progress) as bar:
        async def one(label: str) -> None:
            async with sem:
                rec = await _play(catalog, client, model, label, gen, pool, step_timeout)
            records.append(rec)
            fh.write(json.dumps(rec, default=str) + "\n")
            fh.flush()
            bar.update()
            bar.set_postfix(reward=f"{sum(r['reward'] for r in records) / len(records):.3f}")

        await asyncio.gather(*(one(label) for label in labels))
    await client.close()
    return records


def summarize(records: Iterable[dict[str, Any]], attempts: int = 1) -> list[dict[str, Any]]:
    """Per environment, per domain (`cad/*`, when the run has more than one environment of it),
    then an 'all' row: samples, mean reward and pass rate over the samples with a verdict and
    their 95 % intervals (hub/evaluation/stats.py), samples without a verdict (`errors`) and their
    rate, pass@k with several attempts per task, mean turns, mean completion tokens, truncation
    rate (a reply cut at --max-tokens), mean seconds per episode, the median and 95th percentile
    of an episode's model time and verification time (its environment steps, grading included),
    mean prompt tokens (every turn's prompt) and how many samples' tokens were estimated, and the
    top failure reasons. Trajectories written before the split (no model_s) give None there."""
    from .stats import _group, scored

    groups = _group(records)
    envs_of = defaultdict(set)
    for key in groups:
        if "/" in key and not key.endswith("/*"):
            envs_of[key.split("/")[0]].add(key)
    rows = []
    for env in sorted(groups, key=lambda e: (e == "all", e.split("/")[0], e.endswith("/*"), e)):
        if env.endswith("/*") and len(envs_of[env[:-2]]) < 2:
            continue  # a domain of one environment: its row would repeat the environment's
        rs = groups[env]
        n = len(rs)
        reasons = Counter(x for x in map(failure_reason, rs) if x)
        rows.append({"env": env, **scored(rs, attempts),
                     "errors": sum(r.get("error") is not None for r in rs),
                     "turns": sum(len(r.get("turns", [])) for r in rs) / n,
                     "tokens": sum(r.get("tokens") or 0 for r in rs) / n,
                     "truncated": sum(any(t.get("finish_reason") == "length" for t in r.get("turns", [])) for r in rs) / n,
                     "seconds": sum(r.get("seconds") or 0.0 for r in rs) / n,
                     **_latency(rs),
                     "prompt_tokens": _mean([r["prompt_tokens"] for r in rs if isinstance(r.get("prompt_tokens"), (int, float))]),
                     "tokens_estimated": sum(bool(r.get("tokens_estimated")) for r in rs),
                     "reasons": reasons.most_common(TOP_REASONS)})
    return rows


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _latency(records: list[dict[str, Any]]) -> dict[str, float | None]:
    """p50 and p95 of the model's and the verification's seconds per episode (None without data)."""
    import numpy as np

    out: dict[str, float | None] = {}
    for key in ("model_s", "verify_s"):
        values = [float(r[key]) for r in records if isinstance(r.get(key), (int, float)) and r.get("turns")]
        for q in (50, 95):
            out[f"{key[:-2]}_p{q}"] = float(np.percentile(values, q)) if values else None
    return out


def read_trajectories(path: str | Path) -> list[dict[str, Any]]:
    from ..assets.remote import local_input

    records = []
    expected = "a trajectory written by `rlhub eval` (with 'label' and 'turns')"
    for i, rec in read_jsonl(local_input(str(path), "trajectories file"), "trajectories file", expected):
        if not isinstance(rec, dict) or "label" not in rec or "turns" not in rec:
            raise UserError(f"{path}:{i}: expected {expected}")
        records.append(rec)
    return records


def rescore_one(catalog, rec: dict[str, Any]) -> dict[str, Any]:
    """Replay the recorded actions through a fresh episode and grade again with today's verifier."""
    new = {k: v for k, v in rec.items() if k not in ("components", "details", "verifier", "error")}
    new.update(previous={"reward": rec.get("reward"), "passed": rec.get("passed"), "verifier": rec.get("verifier")},
               reward=0.0, passed=False, error=None)
    actions = [{"role": "assistant", "content": t["action"], "tool_calls": t["tool_calls"]} if "tool_calls" in t
               else t["action"] for t in rec["turns"]]
    if not actions:
        new["error"] = rec.get("error") or "no actions recorded"
        return new
    try:
        episode = catalog.episode(rec["label"])
        episode.reset()
        for i, action in enumerate(actions):
            step = episode.step(action)
            if step.done:
                break
        if not step.done or i != len(actions) - 1:
            new["error"] = "the environment no longer ends where the recorded episode did; not comparable"
            return new
        new.update(step.verdict.to_dict())
        new["verifier_changed"] = changed_identity(rec, new)
    except UserError as exc:
        new["error"] = str(exc)
    return new


def changed_identity(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What graded `new` differently from `old`: [] when the verifier's identity is the same; for
    a rubric the names of the parts whose identity (distribution, version, config) changed, or
    were added or dropped; else the verifier's name."""
    if old.get("verifier") == new.get("verifier"):
        return []

    def parts(rec: dict[str, Any]) -> dict[str, Any]:
        found = (rec.get("details") or {}).get("parts") or {}
        return {name: p.get("verifier") for name, p in found.items() if isinstance(p, dict)}

    before, after = parts(old), parts(new)
    names = [n for n in sorted(set(before) | set(after)) if before.get(n) != after.get(n)]
    return names or [str((new.get("verifier") or {}).get("name") or (old.get("verifier") or {}).get("name"))]


def rescore(catalog, records: list[dict[str, Any]], out: Path, workers: int = 8, progress: bool = True) -> list[dict[str, Any]]:
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(tqdm(pool.map(lambda r: rescore_one(catalog, r), records), total=len(records),
                            desc="rescore", unit="task", disable=not progress))
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as fh:
        for rec in results:
            fh.write(json.dumps(rec, default=str) + "\n")
    return results
