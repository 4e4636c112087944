"""`rlhub train`: --registry is honoured, sequence limits come from the mixture's measured prompt
lengths (or a refusal with the numbers), image prompts meet the model's modality, --preflight."""

from __future__ import annotations

import json

import pytest
import yaml
from openrlhf_harness import REPO, chatml_tokenizer

from hub.cli import main

LONG = 40_000  # characters in the long row: 10,000 tokens by the chars/4 estimate, 40,000+ by a byte tokenizer


@pytest.fixture
def small_registry(tmp_path):
    """A registry of one dataset environment whose rows are short questions and one long document."""
    rows = [{"q": f"What is {i} squared?", "a": str(i * i)} for i in range(5)] + [{"q": "x" * LONG, "a": "0"}]
    (tmp_path / "qa.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "small.yaml").write_text(yaml.safe_dump({"environments": [
        {"dataset": {"id": "mydata/long-v1", "path": "qa.jsonl", "columns": {"prompt": "q", "answer": "a"}},
         "verifier": "exact_match"}]}))
    return tmp_path / "small.yaml"


def write_run(tmp_path, **fields):
    run = {"name": "t", "model": "some/model", "registry": str(REPO / "registry.yaml"),
           "mixture": {"train_prompts": 6, "eval_prompts": 0}, "output_dir": str(tmp_path / "runs"), **fields}
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(run))
    return path


def local_model(tmp_path, context: int):
    """A text-only model on this machine: its config (context `context`) and a byte-level tokenizer."""
    from transformers import Qwen2Config

    where = tmp_path / "model"
    Qwen2Config(max_position_embeddings=context, vocab_size=300, hidden_size=8, intermediate_size=8,
                num_hidden_layers=1, num_attention_heads=1, num_key_value_heads=1).save_pretrained(where)
    chatml_tokenizer().save_pretrained(where)
    return str(where)


def test_registry_flag_is_honoured_and_the_chosen_lengths_are_stated(tmp_path, capsys, small_registry):
    run = write_run(tmp_path)  # the run file names the default registry; --registry wins
    rc = main(["train", str(run), "--dry-run", "--registry", str(small_registry)])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert f"registry: {small_registry} (--registry {small_registry} overrides the run file's registry" in out.err
    rows = [json.loads(line) for line in open(tmp_path / "runs" / "t" / "train.jsonl")]
    assert {r["datasource"] for r in rows} == {"mydata/long-v1"}  # the small registry's mixture, not the default's
    # 6 prompts drawn from 6 rows: every row, each measured; the long one is 40,000 / 4 tokens by estimate
    need = LONG // 4 + 1024
    chosen = -(-need // 1024) * 1024
    assert f"# lengths: --data.max_len {chosen}, --rollout.max_new_tokens 1024: covers the longest sampled need " \
           f"(mydata/long-v1: {LONG // 4:,} prompt tokens + 1,024 generated = {need:,})" in out.out
    assert "estimated as characters / 4" in out.out and "(up to 8 per environment, 1 environments, of 6 rows)" in out.out
    assert f"--data.max_len {chosen} " in out.out.splitlines()[-1] + " "  # the printed command uses it
    assert "prompt tokens are estimated as characters / 4 (some/model's tokenizer is not on this machine)" in out.err
    # the long row's prompt is in the dataset whole
    assert max(len(r["input"][0]["content"]) for r in rows) == LONG


def test_a_mixture_that_cannot_fit_max_len_is_refused_with_the_numbers(tmp_path, capsys, small_registry):
    run = write_run(tmp_path, registry=str(small_registry), algorithm={"max_len": 4096})
    rc = main(["train", str(run), "--dry-run"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 2, err  # the registry line, then one error line
    assert ("the mixture cannot fit algorithm.max_len 4,096: 1 environment(s) have prompts longer than "
            "4,096 - 1,024 generated tokens = 3,072") in err
    assert "mydata/long-v1 (10,000)" in err and "raise algorithm.max_len to at least 11,264" in err
    assert not (tmp_path / "runs" / "t" / "command.sh").exists()  # nothing to launch was written


def test_the_local_models_context_bounds_the_choice_and_its_tokenizer_measures(tmp_path, capsys, small_registry):
    run = write_run(tmp_path, registry=str(small_registry), model=local_model(tmp_path, 8192))
    rc = main(["train", str(run), "--dry-run"])
    err = capsys.readouterr().err
    assert rc == 2
    # the byte tokenizer counts every character (and the template): over 40,000 tokens
    line = err.strip().splitlines()[-1]
    assert "the mixture cannot fit" in line and "context of 8,192 tokens (config.json of" in line
    assert "(max_position_embeddings)" in line and "measured by tokenizer" in line
    tokens = int(line.split("mydata/long-v1 (")[1].split(")")[0].replace(",", ""))
    assert tokens > LONG
    assert "mixture.exclude: [mydata/long-v1]" in line


def test_dry_run_preflight_on_the_small_registry_prints_the_table(tmp_path, capsys, small_registry):
    run = write_run(tmp_path, registry=str(small_registry), context_len=32768)
    rc = main(["train", str(run), "--dry-run", "--preflight"])
    out = capsys.readouterr()
    assert rc == 1, out.err  # vLLM is not installed here
    assert "# lengths: model context: 32,768 (the run file's context_len)" in out.out
    table = out.out.split("# preflight:")[1]
    vllm = next(line for line in table.splitlines() if line.startswith("vllm "))
    assert "not installed" in vllm and "missing" in vllm and "pip install 'vllm==0.29.0'" in vllm
    assert "openrlhf" in table and "bwrap" in table and "rlhub" in table and "the registry pins none" in table
    assert "preflight: missing here: vllm" in out.err
    # a launch from here checks the packages first and starts nothing without them
    rc = main(["train", str(run)])
    out = capsys.readouterr()
    assert rc == 1 and "preflight: missing here: vllm" in out.err and "nothing launched" in out.err


IMAGES = {"train_prompts": 2, "eval_prompts": 0, "select": "docqa/bom-lookup-vision-v1"}


@pytest.mark.parametrize("how", ["config", "run file"])
def test_image_prompts_and_a_text_only_model_are_refused(tmp_path, capsys, how):
    fields = {"model": local_model(tmp_path, 32768)} if how == "config" else {"modality": "text-only"}
    rc = main(["train", str(write_run(tmp_path, mixture=IMAGES, **fields)), "--dry-run"])
    err = capsys.readouterr().err
    assert rc == 2
    assert "docqa/bom-lookup-vision-v1 (and maybe other environments of the mixture) prompts with images" in err
    assert ("(no vision_config)" if how == "config" else "text-only (the run file's modality)") in err


@pytest.mark.parametrize("modality, warned", [("auto", True), ("multimodal", False)])
def test_image_prompts_warn_unless_the_model_is_known_to_see_images(tmp_path, capsys, modality, warned):
    rc = main(["train", str(write_run(tmp_path, mixture=IMAGES, modality=modality)), "--dry-run", "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert ("must be a vision-language model" in out.err) is warned
    if warned:
        assert "not checked: unknown: some/model's config is not on this machine and the run file states no modality" in out.err
    summary = json.loads(out.out)
    assert summary["model"]["modality"] == (None if warned else "multimodal")
    assert "images:" in summary["lengths"]["lines"][-1]  # image tokens are counted, and said to be an estimate


def test_the_readmes_cluster_run_file_is_valid_and_its_globs_select():
    from hub.config.catalog import Catalog
    from hub.mixture.promptfile import selected_envs
    from hub.trainers.openrlhf.launch import RunConfig

    readme = (REPO / "README.md").read_text()
    block = readme.split("### Train on a cluster")[1].split("```yaml\n")[1].split("```")[0]
    run = RunConfig.model_validate(yaml.safe_load(block))
    assert run.cluster is not None and run.algorithm.max_len is None  # chosen from the measured lengths
    envs = selected_envs(Catalog.load(REPO / "registry.yaml"), run.mixture.select, tuple(run.mixture.exclude))
    assert envs and not any(e.id.endswith(("-1m-v1", "-128k-v1", "-vision-v1")) for e in envs)
