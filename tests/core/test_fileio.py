import pytest

from hub.core.errors import UserError
from hub.config.yamlfile import atomic_write, load_yaml_mapping


def test_yaml_mapping_errors_name_the_file_and_line(tmp_path):
    path = tmp_path / "run.yaml"
    with pytest.raises(UserError, match=r"run.yaml: no such run file"):
        load_yaml_mapping(path, "run file")
    path.write_text("name: x\nmodel: [a, b\n")
    with pytest.raises(UserError, match=r"run.yaml:3: not valid YAML"):
        load_yaml_mapping(path, "run file")
    path.write_text("- a\n- b\n")
    with pytest.raises(UserError, match=r"expected a mapping \(the run file\), got list"):
        load_yaml_mapping(path, "run file")
    path.write_text("")
    assert load_yaml_mapping(path, "run file") == {}
    path.write_text("name: x\n")
    assert load_yaml_mapping(path, "run file") == {"name": "x"}


def test_atomic_write_leaves_nothing_behind_on_failure(tmp_path):
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")

    def fail(fh):
        fh.write("half")
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        atomic_write(target, fail)
    assert target.read_text() == "old\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]
