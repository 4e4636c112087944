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
    exclude: list[str] = []  # globs of selected environments to leave out, e.g. ["docqa/*-1m-v1"]
    format: Literal["jsonl", "parquet"] = "jsonl"


class Algorithm(_Strict):
    preset: Literal["grpo", "reinforce_baseline"] = "grpo"
    n_samples_per_prompt: int = Field(8, ge=2)
    dynamic_filtering: bool = True  # drop groups whose rewards are all equal (no learning signal)
    lr: float = Field(1e-6, gt=0)
    temperature: float = Field(1.0, gt=0)
    rollout_batch_size: int = Field(128, gt=0)
    train_batch_size: int = Field(128, gt=0)
    max_len: Optional[int] = Field(None, gt=0)  # None: chosen from the mixture's measured lengths (lengths.py)
    max_new_tokens: Optional[int] = Field(1024, gt=0)
    feedback_tokens: int = Field(512, ge=0)  # assumed per turn for an environment's reply (session budgets)
    episodes: int = Field(1, gt=0)


class Cluster(_Strict):
    address: str  # Ray dashboard address for `ray job submit`, e.g. http://head:8265


class RunConfig(_Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9._-]+$")
    model: str
    gpus: int = Field(8, gt=0)  # per node
    nodes: int = Field(1, gt=0)
    registry: Optional[str] = None  # relative to the run file; --registry overrides; default: as every verb
    context_len: Optional[int] = Field(None, gt=0)  # the model's context, where its config.json is not here
    modality: Literal["auto", "multimodal", "text-only"] = "auto"  # ... and whether it sees images
    mixture: Mixture = Mixture()
    algorithm: Algorithm = Algorithm()
    rewards: Literal["auto", "file", "agent", "service"] = "auto"  # auto: agent iff a multi-turn env is selected
    reward_url: Optional[str] = None  # for rewards: service (an `rlhub serve` endpoint)
    turn_format: str = "auto"  # auto (from the model's tokenizer) | chatml | llama3 | plain | JSON
    tool_format: str = "auto"  # how the model writes tool calls: auto (from its chat template) | hermes | ...
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


def registry_path(run: RunConfig, base: Path, given: str | None) -> tuple[Path | str | None, str | None]:
    """The registry a run uses: --registry, else the run file's `registry:` (beside the run file),
    else None: the default every verb uses (./registry.yaml, else the installed plugins'
    registries). A pinned URL stays a URL (each node fetches it). Also a note when --registry
    overrides the run file's."""
    from ...assets import is_url

    def where(p: str) -> Path | str:
        return p if is_url(p) else (base / p).resolve()

    if given:
        note = (f"--registry {given} overrides the run file's registry: {run.registry}"
                if run.registry and str(where(run.registry)) != str(given if is_url(given) else Path(given).resolve()) else None)
        return (given if is_url(given) else Path(given)), note
    return (where(run.registry) if run.registry else None), None


def load_tokenizer(run: RunConfig) -> tuple[Any, str | None]:
    """The model's tokenizer if it is on this machine (nothing is downloaded), else (None, why)."""
    try:
        from transformers import AutoTokenizer

        return AutoTokenizer.from_pretrained(run.model, local_files_only=True), None
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}"


def turn_format_for(run: RunConfig, strict: bool, tok: Any = None, why: str | None = None) -> tuple[str, str | None]:
    """The turn format as JSON, and a warning when it had to be guessed."""
    from ..turn_format import TurnFormat

    if run.turn_format != "auto":
        return TurnFormat.parse(run.turn_format).to_json(), None
    try:
        if tok is None:
            raise UserError(why or "no tokenizer")
        return TurnFormat.from_tokenizer(tok).to_json(), None
    except Exception as exc:
        if strict:
            raise UserError(f"turn_format: auto: cannot read the chat template of {run.model!r} here ({exc}); "
                            "set turn_format: chatml | llama3 | plain in the run file") from None
        return TurnFormat.parse("chatml").to_json(), f"turn_format: auto: could not load {run.model!r}'s tokenizer; assumed chatml"


def tool_format_for(run: RunConfig, strict: bool, tok: Any = None) -> tuple[str, str | None]:
    """The tool-call format the agent reads the model's calls in, and a warning when guessed."""
    from ...tools import formats
    from ..tool_play import tool_format_of

    if run.tool_format != "auto":
        try:
            return formats.check_format(run.tool_format), None
        except ValueError as exc:
            raise UserError(f"tool_format: {exc}") from None
    found = tool_format_of(tok) if tok is not None else None
    if found:
        return found, None
    if strict and tok is not None:
        raise UserError(f"tool_format: auto: {run.model!r}'s chat template shows no tool-call format rlhub reads "
                        f"({', '.join(formats.known_formats())}); set tool_format in the run file")
    return formats.DEFAULT_FORMAT, (f"tool_format: auto: {'no tokenizer for' if tok is None else 'no tool-call format in'} "
                                    f"{run.model!r}; assumed {formats.DEFAULT_FORMAT}")


def offers_tools(env) -> bool:
    """Whether an environment's episodes offer tools, without building a task."""
    return bool(getattr(env, "is_tool_env", False))


def tool_prompts(catalog, tok: Any) -> tuple[Any, bool, str | None]:
    """How prompts carry their tools (OpenRLHF's PromptDataset applies the chat template without
    them). Every tool row's `input` gets them in a system turn, as a hermes (Qwen2.5) template
    writes them; with the model's tokenizer here, every row also gets `prompt`, rendered by the
    model's own template with `tools=`, which is what trains (--data.input_key prompt, no chat
    template applied again) unless prompts carry images (OpenRLHF's processor renders those from
    `input`). Returns (row hook, text prompts written?, warning)."""
    from ..tool_play import tools_system_prompt

    def hook(row: dict[str, Any], task) -> dict[str, Any]:
        schemas = catalog.tools(row["label"], task)
        if tok is not None:
            row["prompt"] = tok.apply_chat_template(row["input"], tools=schemas or None, tokenize=False,
                                                    add_generation_prompt=True)
        if schemas:
            chat = row["input"]
            system = chat[0]["content"] if chat and chat[0]["role"] == "system" else ""
            rest = chat[1:] if system else chat
            row["input"] = [{"role": "system", "content": tools_system_prompt(schemas, system)}, *rest]
        return row

    warning = None if tok is not None else ("tool prompts: the model's tokenizer is not here, so the tools are written "
                                            "into a system turn as a hermes (Qwen2.5) template renders them")
    return hook, tok is not None, warning


def text_only_refusal(run: RunConfig, facts, env_id: str) -> UserError:
    """Image prompts for a text-only model: it would train on the text with `<image>`
    placeholders and never see the picture."""
    return UserError(f"{env_id} (and maybe other environments of the mixture) prompts with images, but {run.model} is "
                     f"text-only ({facts.modality_from}): it would see `<image>` placeholders and no picture. Leave the "
                     "image environments out (mixture.exclude: ['cad/*-image-v1', 'docqa/*-vision-v1'], or "
                     "mixture.select) or train a vision-language model")


def image_warning(facts, written: dict[str, dict[str, Any]], image_envs: set[str]) -> str | None:
    """Image prompts and a model not known to be a vision-language model: say so, and how to check."""
    with_images = sum(w["with_images"] for w in written.values())
    if not with_images or facts.modality == "multimodal":
        return None
    envs = sorted(image_envs)
    listed = ", ".join(envs[:3]) + (f" and {len(envs) - 3} more environments" if len(envs) > 3 else "")
    max_images = max(w["max_images"] for w in written.values())
    return (f"{with_images} prompts carry images (--data.max_images_per_prompt {max_images}; {listed}): the model "
            f"must be a vision-language model, or leave image environments out (mixture.exclude / mixture.select); "
            f"not checked: {facts.modality_from}")


def prepare(run: RunConfig, base: Path, dry_run: bool, catalog=None) -> dict[str, Any]:
    """Write the run directory and build the command. Returns a summary with `argv`. `catalog`:
    the registry's (default: the run file's `registry:`, else the default registry)."""
    from ...config.catalog import Catalog
    from . import lengths, model_facts
    from . import reward as openrlhf_reward  # not .agent: that imports torch, for nothing a launch needs
    from ..tool_play import TOOL_FORMAT_ENV
    from ..turn_format import TURN_FORMAT_ENV
    from ...mixture import splits as promptsets
    from ...mixture.promptfile import selected_envs

    if catalog is None:
        catalog = Catalog.load(registry_path(run, base, None)[0])
    union = catalog.registry.is_union
    pin = catalog.registry.pin  # a registry from object storage: every node fetches it by its pin
    registry = None if union or pin else Path(catalog.registry.path).resolve()
    selected = selected_envs(catalog, run.mixture.select, tuple(run.mixture.exclude))
    multi_turn = [e.id for e in selected if e.max_turns > 1]
    mode = run.rewards if run.rewards != "auto" else ("agent" if multi_turn else "file")
    if multi_turn and mode != "agent":
        raise UserError(f"rewards: {mode}: the mixture has multi-turn environments ({', '.join(multi_turn[:3])}...), "
                        "which train only through the agent file (rewards: agent or auto)")
    out = (base / run.output_dir / run.name).resolve()
    remote = run.cluster is not None
    # In a cluster job, files travel in the job's working_dir: refer to them relatively.
    ref = (lambda p: p.name) if remote else str
    # The installed plugins' registries are no one file: each node resolves its own (preflight
    # lists the versions it must have); a registry file is pinned, and travels with a cluster job.
    env = ({openrlhf_reward.REGISTRY_ENV: pin} if pin else {} if union
           else {openrlhf_reward.REGISTRY_ENV: "registry.yaml" if remote else str(registry)})
    warnings = []
    train, held = promptsets.split_labels(catalog, run.mixture.train_prompts, run.mixture.eval_prompts,
                                          run.mixture.seed, run.mixture.select, tuple(run.mixture.exclude))
    with_tools = any(offers_tools(e.env) for e in selected)
    tok, why = load_tokenizer(run)  # for lengths too; None when it is not on this machine
    if mode == "agent":
        env[TURN_FORMAT_ENV], warn = turn_format_for(run, strict=not dry_run, tok=tok, why=why)
        warnings += [warn] if warn else []
    if with_tools:
        env[TOOL_FORMAT_ENV], warn = tool_format_for(run, strict=not dry_run, tok=tok)
        warnings += [warn] if warn else []
    hook, text_prompts, warn = tool_prompts(catalog, tok) if with_tools else (None, False, None)
    warnings += [warn] if warn else []
    config, config_why = model_facts.load_config(run.model)
    facts = model_facts.facts(run, config, config_why)
    meter = lengths.Meter(tok, {e.id: e.max_turns for e in selected})
    image_envs: set[str] = set()

    def row_hook(row: dict[str, Any], task) -> dict[str, Any]:
        row = hook(row, task) if hook else row
        meter.add(row, task)
        if row["images"]:
            if facts.modality == "text-only":  # refused at the first such prompt, not after the whole dataset
                raise text_only_refusal(run, facts, row["datasource"])
            image_envs.add(row["datasource"])
        return row

    written = promptsets.write(catalog, {"train": train, **({"eval": held} if held else {})}, out,
                               run.mixture.format, image_ref=ref, row_hook=row_hook, text_prompt=text_prompts)
    warn = image_warning(facts, written, image_envs)
    warnings += [warn] if warn else []
    limits = lengths.choose(meter, run.algorithm, facts, run.model)  # UserError when the mixture cannot fit
    warnings += limits.pop("warnings")
    paths = {name: w["path"] for name, w in written.items()}
    max_images = max(w["max_images"] for w in written.values())
    if text_prompts and max_images:
        text_prompts = False
        warnings.append("tool prompts: the mixture has images, so OpenRLHF renders `input` (tools in a system turn "
                        "as a hermes template writes them), not the `prompt` column")
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
        "--data.apply_chat_template": True, "--data.max_len": limits["max_len"],
        "--data.image_key": "images", "--data.max_images_per_prompt": max_images or None,
        "--rollout.max_new_tokens": algo.max_new_tokens, "--rollout.batch_size": algo.rollout_batch_size,
        "--rollout.n_samples_per_prompt": algo.n_samples_per_prompt, "--rollout.temperature": algo.temperature,
        "--train.batch_size": algo.train_batch_size, "--train.num_episodes": algo.episodes,
        "--actor.adam.lr": algo.lr, **PRESETS[algo.preset],
        # tool prompts rendered here by the model's own template, with their tools (see tool_prompts)
        **({"--data.input_key": "prompt", "--data.apply_chat_template": False} if text_prompts else {}),
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
        if registry is not None:
            (out / "registry.yaml").write_text(registry.read_text())
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
            "splits": {k: w["prompts"] for k, w in written.items()}, "registry": catalog.registry.name,
            "lengths": limits, "model": {"context": facts.context, "context_from": facts.context_from,
                                         "modality": facts.modality, "modality_from": facts.modality_from},
            "files": files, "warnings": warnings}


def launch(summary: dict[str, Any]) -> int:
    import subprocess

    env = {**os.environ, **summary["env"]}
    return subprocess.call(summary["command"], env=env, cwd=summary["run_dir"])
