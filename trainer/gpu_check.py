"""GPU check (H200, < 10 min): OpenRLHF's MultiTurnAgentExecutor + rlhub's agent on a real
transformers model (randomly initialised from a config: nothing is downloaded) against terminal
environments; prints generation time, verification time and the fraction of wall time the GPU
waits on verification.

    python trainer/gpu_check.py [--select 'terminal/session-*'] [--episodes 256] [--batch 128]

Needs: torch (CUDA), transformers, tokenizers, OpenRLHF's package tree + pylatexenc + aiohttp,
bwrap on PATH (Debian's bubblewrap unpacked with dpkg -x), rlhub and the terminal plugin.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from types import SimpleNamespace

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "trainer"))  # the locally built ChatML tokenizer


class BatchingEngine:
    """vLLM's `generate(token_ids, sampling_params)` over transformers' generate: requests that
    arrive together are padded into one batch. Records the time the GPU is busy."""

    def __init__(self, model, tokenizer, batch: int, max_new: int):
        self.model, self.tok, self.batch, self.max_new = model, tokenizer, batch, max_new
        self.queue: list[tuple[list[int], asyncio.Future]] = []
        self.busy_s = 0.0
        self.new_tokens = 0
        self._task = None

    async def generate(self, token_ids, sampling_params, multi_modal_data=None):
        fut = asyncio.get_running_loop().create_future()
        self.queue.append((list(token_ids), fut))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())
        return await fut

    async def _drain(self):
        import torch

        await asyncio.sleep(0.005)  # let concurrent requests join the batch
        while self.queue:
            group, self.queue = self.queue[: self.batch], self.queue[self.batch:]
            width = max(len(ids) for ids, _ in group)
            pad = self.tok.pad_token_id
            ids = torch.tensor([[pad] * (width - len(x)) + x for x, _ in group], device="cuda")
            mask = (torch.arange(width, device="cuda")[None, :] >= torch.tensor([width - len(x) for x, _ in group], device="cuda")[:, None]).long()
            start = time.perf_counter()
            # Runs on the event loop's thread on purpose: the GPU is the thing being measured.
            out = await asyncio.to_thread(self.model.generate, input_ids=ids, attention_mask=mask, do_sample=True,
                                          max_new_tokens=self.max_new, pad_token_id=pad, eos_token_id=self.tok.eos_token_id)
            self.busy_s += time.perf_counter() - start
            for row, (_, fut) in zip(out[:, width:].tolist(), group):
                eos = self.tok.eos_token_id
                row = row[: row.index(eos) + 1] if eos in row else row
                self.new_tokens += len(row)
                text = self.tok.decode(row, skip_special_tokens=False)
                fut.set_result(SimpleNamespace(outputs=[SimpleNamespace(
                    token_ids=row, text=text, finish_reason="stop" if eos in row else "length", logprobs=None)]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--select", default="terminal/session-*")
    ap.add_argument("--registry", default=os.environ.get("RLHUB_REGISTRY", str(REPO / "registry.yaml")))
    ap.add_argument("--episodes", type=int, default=256)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--max-new", type=int, default=256)
    ap.add_argument("--max-len", type=int, default=4096)
    ap.add_argument("--layers", type=int, default=24)
    args = ap.parse_args()
    os.environ["RLHUB_REGISTRY"] = args.registry

    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from conftest import chatml_tokenizer, sampling_params
    from hub.trainers.openrlhf import agent as openrlhf_agent
    from hub.config.catalog import Catalog
    from hub.mixture.splits import split_labels

    cat = Catalog.load(args.registry)
    try:
        cat.select(args.select)
    except Exception:
        print(f"no environment matches {args.select!r} in {args.registry}; falling back to arith/guess-v1")
        args.select = "arith/guess-v1"
    tok = chatml_tokenizer()
    cfg = Qwen2Config(vocab_size=len(tok), hidden_size=1024, intermediate_size=2816, num_hidden_layers=args.layers,
                      num_attention_heads=16, num_key_value_heads=16, max_position_embeddings=args.max_len,
                      tie_word_embeddings=True, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    model = Qwen2ForCausalLM(cfg).to(torch.bfloat16).cuda().eval()
    print(f"model: random Qwen2, {sum(p.numel() for p in model.parameters()) / 1e9:.2f} B params, bf16")

    # Time every environment step (sandbox runs + verification) as the agent makes it.
    verify_s = [0.0]
    step = openrlhf_agent.RlhubAgent.step

    async def timed_step(self, states, **kw):
        t = time.perf_counter()
        try:
            return await step(self, states, **kw)
        finally:
            verify_s[0] += time.perf_counter() - t
    openrlhf_agent.RlhubAgent.step = timed_step

    _, labels = split_labels(cat, 1, args.episodes, seed=0, select=args.select)
    executor = openrlhf_agent.RlhubAgentExecutor()
    engine = BatchingEngine(model, tok, args.batch, args.max_new)

    async def run():
        prompts = [tok.apply_chat_template([{"role": "user", "content": cat.task(l).prompt_text()}], tokenize=False,
                                           add_generation_prompt=True) for l in labels]
        return await asyncio.gather(*(executor.execute(p, l, sampling_params(), args.max_len, tok, engine)
                                      for p, l in zip(prompts, labels)))

    start = time.perf_counter()
    outs = asyncio.run(run())
    wall = time.perf_counter() - start
    flags = {k: sum(o["extra_logs"].get(k, 0.0) for o in outs) for k in ("rlhub/timeout", "rlhub/no_verdict", "rlhub/bad_label")}
    turns = sum(len(o["action_ranges"]) for o in outs)
    print(f"episodes {len(outs)} ({args.select}), turns {turns}, mean reward {sum(o['reward'] for o in outs) / len(outs):.3f}, flags {flags}")
    print(f"wall {wall:.1f} s | generation (GPU busy) {engine.busy_s:.1f} s, {engine.new_tokens / max(engine.busy_s, 1e-9):.0f} new tok/s"
          f" | verification (sum over episodes) {verify_s[0]:.1f} s, {verify_s[0] / max(turns, 1) * 1e3:.0f} ms/step")
    print(f"GPU waits on verification: {1 - engine.busy_s / wall:.1%} of wall time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
