"""`rlhub train RUN.yaml`: one run file -> prompt datasets, reward/agent file, OpenRLHF command.

The run file is validated with pydantic (unknown keys are errors, with file and field named);
the command is checked against OpenRLHF's own parser and checks before anything is launched.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...config.yamlfile import load_yaml
from ...core.errors import UserError

# Algorithm presets: advantage estimator and KL handling as OpenRLHF's own example scripts use them.
PRESETS: dict[str, dict[str, Any]] = {
    "grpo": {"--algo.advantage.estimator": "group_norm", "--algo.kl.use_loss": True,
             "--algo.kl.estimator": "k3", "--algo.kl.init_coef": 1e-3},
    "reinforce_baseline": {"--algo.advantage.estimator": "reinforce_baseline", "--algo.kl.use_loss": True,
                           "--algo.kl.estimator": "k2", "--algo.kl.init_coef": 1e-3},
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Mixture(_Strict):
    seed: int = 0
    train_prompts: int = Field(10_000, gt=0)
    eval_prompts: int = Field(256, ge=0)
    select: Optional[str] = None  # glob over the registry's environments, e.g. "terminal/*"
    format: Literal["jsonl", "parquet"] = "jsonl"


class Algorithm(_Strict):
    preset: Literal["grpo", "reinforce_baseline"] = "grpo"
    n_samples_per_prompt: int = Field(8, ge=2)
    dynamic_filtering: bool = True  # drop groups whose rewards are all equal (no learning signal)
    lr: float = Field(1e-6, gt=0)
    temperature: float = Field(1.0, gt=0)
    rollout_batch_size: int = Field(128, gt=0)
    train_batch_size: int = Field(128, gt=0)
    max_len: int = Field(4096, gt=0)
    max_new_tokens: Optional[int] = Field(1024, gt=0)
    episodes: int = Field(1, gt=0)


class Cluster(_Strict):
    address: str  # Ray dashboard address for `ray job submit`, e.g. http://head:8265


class RunConfig(_Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9._-]+$")
    model: str
    gpus: int = Field(8, gt=0)  # per node
    nodes: int = Field(1, gt=0)
    registry: str = "registry.yaml"
    mixture: Mixture = Mixture()
    algorithm: Algorithm = Algorithm()
    rewards: Literal["auto", "file", "agent", "service"] = "auto"  # auto: agent iff a multi-turn env is selected
    reward_url: Optional[str] = None  # for rewards: service (an `rlhub serve` endpoint)
    turn_format: str = "auto"  # auto (from the model's tokenizer) | chatml | llama3 | plain | JSON
    output_dir: str = "runs"
    cluster: Optional[Cluster] = None
    openrlhf: dict[str, Any] = {}  # extra OpenRLHF flags, dotted names: {"ds.zero_stage": 3}

    @model_validator(mode="after")
    def _service_needs_url(self) -> "RunConfig":
        if self.rewards == "service" and not self.reward_url:
            raise ValueError("rewards: service needs reward_url (e.g. http://host:5000/get_reward)")
        return self


def load_run(path: str | Path) -> tuple[RunConfig, Path]:
    doc = load_yaml(path, "run file")
    return doc.validate(RunConfig), doc.path.resolve().parent


def flags(mapping: dict[str, Any]) -> list[str]:
    """{"--a.b": 1, "--c": True, "--d": [0, 1]} -> ["--a.b", "1", "--c", "--d", "0", "1"]."""
    argv: list[str] = []
    for key, value in mapping.items():
        key = key if key.startswith("--") else f"--{key}"
        if value is False or value is None:
            continue
        argv.append(key)
        if value is not True:
            argv += [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]
    return argv


def file_text(kind: Literal["reward", "agent"], env: dict[str, str]) -> str:
    """The reward or agent file a run uses: settings pinned, logic imported from rlhub."""
    pins = "".join(f"os.environ.setdefault({k!r}, {v!r})\n" for k, v in env.items())
    if kind == "reward":
        body = "from hub.trainers.openrlhf.reward import reward_func  # noqa: E402,F401\n"
    else:
        body = ("from hub.trainers.openrlhf.agent import RlhubAgentExecutor  # noqa: E402\n\n\n"
                "class AgentExecutor(RlhubAgentExecutor):  # OpenRLHF looks up `AgentExecutor`\n    pass\n")
    return f'"""Written by `rlhub train`: OpenRLHF {kind} file for this run."""\n\nimport os\n\n{pins}\n{body}'


def turn_format_for(run: RunConfig, strict: bool) -> tuple[str, str | None]:
    """The turn format as JSON, and a warning when it had to be guessed."""
    from ..turn_format import TurnFormat

    if run.turn_format != "auto":
        return TurnFormat.parse(run.turn_format).to_json(), None
    try:
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(run.model, local_files_only=True)
        return TurnFormat.from_tokenizer(tok).to_json(), None
    except Exception as exc:
        if strict:
            raise UserError(f"turn_format: auto: cannot read the chat template of {run.model!r} here ({exc}); "
                            "set turn_format: chatml | llama3 | plain in the run file") from None
        return TurnFormat.parse("chatml").to_json(), f"turn_format: auto: could not load {run.model!r}'s tokenizer; assumed chatml"


def prepare(run: RunConfig, base: Path, dry_run: bool) -> dict[str, Any]:
    """Write the run directory and build the command. Returns a summary with `argv`."""
    from ...config.catalog import Catalog
    from . import reward as openrlhf_reward  # not .agent: that imports torch, for nothing a launch needs
    from ..turn_format import TURN_FORMAT_ENV
    from ...mixture import splits as promptsets

    registry = (base / run.registry).resolve()
    catalog = Catalog.load(registry)
    selected = catalog.select(run.mixture.select)
    multi_turn = [e.id for e in selected if e.max_turns > 1]
    mode = run.rewards if run.rewards != "auto" else ("agent" if multi_turn else "file")
    if multi_turn and mode != "agent":
        raise UserError(f"rewards: {mode}: the mixture has multi-turn environments ({', '.join(multi_turn[:3])}...), "
                        "which train only through the agent file (rewards: agent or auto)")
    out = (base / run.output_dir / run.name).resolve()
    remote = run.cluster is not None
    # In a cluster job, files travel in the job's working_dir: refer to them relatively.
    ref = (lambda p: p.name) if remote else str
    env = {openrlhf_reward.REGISTRY_ENV: "registry.yaml" if remote else str(registry)}
    warnings = []
    if mode == "agent":
        env[TURN_FORMAT_ENV], warn = turn_format_for(run, strict=not dry_run)
        warnings += [warn] if warn else []

    train, held = promptsets.split_labels(catalog, run.mixture.train_prompts, run.mixture.eval_prompts,
                                          run.mixture.seed, run.mixture.select)
    written = promptsets.write(catalog, {"train": train, **({"eval": held} if held else {})}, out,
                               run.mixture.format, image_ref=ref)
    paths = {name: w["path"] for name, w in written.items()}
    max_images = max(w["max_images"] for w in written.values())
    if max_images:
        with_images = sum(w["with_images"] for w in written.values())
        warnings.append(f"{with_images} prompts carry images (--data.max_images_per_prompt {max_images}): "
                        f"the model must be a vision-language model, or leave image environments out "
                        f"(mixture.select, or the registry)")
    algo = run.algorithm
    args: dict[str, Any] = {
        "--actor.model_name_or_path": run.model,
        "--actor.num_nodes": run.nodes, "--actor.num_gpus_per_node": run.gpus,
        "--ref.num_nodes": run.nodes, "--ref.num_gpus_per_node": run.gpus,
        "--vllm.num_engines": run.nodes * run.gpus, "--vllm.tensor_parallel_size": 1,
        "--train.colocate_all": True, "--vllm.enable_sleep": True, "--ds.enable_sleep": True,
        "--vllm.gpu_memory_utilization": 0.6,
        "--data.prompt_dataset": ref(paths["train"]), "--data.input_key": "input", "--data.label_key": "label",
        # rows are chat messages with string contents, images as files: see hub.mixture.splits
        "--data.apply_chat_template": True, "--data.max_len": algo.max_len,
        "--data.image_key": "images", "--data.max_images_per_prompt": max_images or None,
        "--rollout.max_new_tokens": algo.max_new_tokens, "--rollout.batch_size": algo.rollout_batch_size,
        "--rollout.n_samples_per_prompt": algo.n_samples_per_prompt, "--rollout.temperature": algo.temperature,
        "--train.batch_size": algo.train_batch_size, "--train.num_episodes": algo.episodes,
        "--actor.adam.lr": algo.lr, **PRESETS[algo.preset],
        "--algo.dynamic_filtering_enable": algo.dynamic_filtering,
        "--algo.dynamic_filtering_range": [0.0, 1.0] if algo.dynamic_filtering else None,
        "--ckpt.output_dir": ref(out / "model") if not remote else "model",
        "--ckpt.path": ref(out / "checkpoints") if not remote else "checkpoints",
        "--ckpt.save_hf": True,
    }
    if "eval" in paths:
        args.update({"--eval.dataset": ref(paths["eval"]), "--eval.steps": 20})
    if mode == "agent":
        (out / "agent_func.py").write_text(file_text("agent", env))
        args["--train.agent_func_path"] = ref(out / "agent_func.py")
    elif mode == "file":
        (out / "reward_func.py").write_text(file_text("reward", env))
        args["--reward.remote_url"] = ref(out / "reward_func.py")
    else:
        args["--reward.remote_url"] = run.reward_url
    args.update({(k if k.startswith("--") else f"--{k}"): v for k, v in run.openrlhf.items()})
    argv = flags(args)
    if remote:
        registry_copy = out / "registry.yaml"
        registry_copy.write_text(registry.read_text())
        runtime = {"working_dir": str(out), "env_vars": env}
        command = ["ray", "job", "submit", "--address", run.cluster.address, "--runtime-env-json",
                   json.dumps(runtime), "--", "python3", "-m", "openrlhf.cli.train_ppo_ray", *argv]
    else:
        command = [sys.executable, "-m", "openrlhf.cli.train_ppo_ray", *argv]
    (out / "command.sh").write_text("#!/usr/bin/env bash\n" + "".join(f"export {k}={shlex.quote(v)}\n" for k, v in env.items())
                                    + shlex.join(command) + "\n")
    (out / "run.json").write_text(run.model_dump_json(indent=2))
    files = {name: f"{w['path']} ({w['prompts']} prompts" + (f", {w['with_images']} with images)" if w["with_images"] else ")")
             for name, w in written.items()}
    if max_images:
        files["images"] = str(out / "images")
    for name in ("agent_func.py", "reward_func.py", "command.sh", "run.json"):
        if (out / name).exists():
            files[name.split(".")[0]] = str(out / name)
    return {"run_dir": str(out), "mode": mode, "argv": argv, "command": command, "env": env,
            "splits": {k: w["prompts"] for k, w in written.items()},
            "files": files, "warnings": warnings}


def launch(summary: dict[str, Any]) -> int:
    import subprocess

    env = {**os.environ, **summary["env"]}
    return subprocess.call(summary["command"], env=env, cwd=summary["run_dir"])
