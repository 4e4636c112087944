import pytest

from hub.core.errors import UserError
from hub.config.yamlfile import load_yaml
from hub.core.files import atomic_write


def test_yaml_mapping_errors_name_the_file_and_line(tmp_path):
    path = tmp_path / "run.yaml"
    with pytest.raises(UserError, match=r"run.yaml: no such run file"):
        load_yaml(path, "run file")
    path.write_text("name: x\nmodel: [a, b\n")
    with pytest.raises(UserError, match=r"run.yaml:3: not valid YAML"):
        load_yaml(path, "run file")
    path.write_text("- a\n- b\n")
    with pytest.raises(UserError, match=r"run.yaml:1: expected a mapping \(the run file\), got list"):
        load_yaml(path, "run file")
    path.write_text("")
    assert load_yaml(path, "run file").data == {}
    path.write_text("name: x\n")
    assert load_yaml(path, "run file").data == {"name": "x"}


def test_atomic_write_leaves_nothing_behind_on_failure(tmp_path):
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")

    def fail(fh):
        fh.write("half")
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        atomic_write(target, fail)
    assert target.read_text() == "old\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


def test_run_files_and_serve_configs_name_the_line_of_a_bad_field(tmp_path):
    from hub.serve.config import ServeConfig
    from hub.trainers.openrlhf.launch import load_run

    serve = tmp_path / "serve.yaml"
    serve.write_text("serve:\n  port: 8000\n  workers: many\n  deadine_s: 3\n")
    with pytest.raises(UserError) as err:
        ServeConfig.build(str(serve))
    assert f"{serve}:3: serve.workers:" in str(err.value) and f"{serve}:4: serve.deadine_s: unknown field" in str(err.value)
    run = tmp_path / "run.yaml"
    run.write_text("name: x\nmodel: m\nmixture:\n  seed: 0\n  train_prompts: -4\n")
    with pytest.raises(UserError, match=rf"{run}:5: mixture.train_prompts: Input should be greater than 0"):
        load_run(run)
