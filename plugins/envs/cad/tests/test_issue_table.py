"""Issue 12's table, through `rlhub verify`: edits to the reference of a dimensioned counterbore
plate that used to pass (or score 0.92-0.99) must all fail, score at most 0.5 (a bare box at most
0.3), and the verdict must name the wrong feature in mm. `--render` draws the difference."""

from __future__ import annotations

import json

import pytest

from hub.cli import main
from rlhub_cad.fmt import n

LABEL = '{"env": "cad/plate-counterbore-dimensioned-v1", "seed": 0}'


@pytest.fixture(scope="module", autouse=True)
def _private_mesh_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("RLHUB_MESH_CACHE", str(tmp_path_factory.mktemp("mesh-cache")))
    yield
    mp.undo()


def verify(tmp_path, capsys, script: str, *extra: str) -> tuple[int, dict]:
    path = tmp_path / "answer.txt"
    path.write_text(f"```python\n{script}\n```\n")
    code = main(["verify", "--label", LABEL, "--response-file", str(path), *extra])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def plate():
    import hub

    task = hub.load().task(LABEL)
    return task.hidden["reference_script"], task.metadata["params"]


def _table(script: str, p: dict) -> dict[str, tuple[str, str]]:
    """change -> (edited script, what the verdict must say)."""
    def swap(old: str, new: str) -> str:
        assert old in script, old
        return script.replace(old, new)

    pitch = f"pitch_x = {n(p['pitch_x'])}"
    return {
        "hole pattern moved 5 mm": (swap(pitch, f"pitch_x = {n(p['pitch_x'] + 10)}"), "moved 5 mm"),
        "hole pattern moved 2 mm": (swap(pitch, f"pitch_x = {n(p['pitch_x'] + 4)}"), "moved 2 mm"),
        "counterbores on the bottom face": (swap('.faces(">Z").workplane()', '.faces("<Z").workplane()'),
                                            "opens on the -Z face, expected the +Z face"),
        "plain holes": (swap(".cboreHole(hole_d, cbore_d, cbore_depth)", ".hole(hole_d)"),
                        f"no counterbore, expected Ø{n(p['cbore_d'])} x {n(p['cbore_depth'])} deep"),
        "length 10 mm short": (swap(f"length = {n(p['length'])}", f"length = {n(p['length'] - 10)}"),
                               f"({n(p['length'] - 10)} mm), expected"),
        "thickness 1 mm over": (swap(f"thickness = {n(p['thickness'])}", f"thickness = {n(p['thickness'] + 1)}"),
                                f"extent along Z: 0..{n(p['thickness'] + 1)}"),
        "a bare box": ("import cadquery as cq\nresult = cq.Workplane('XY').box(%s, %s, %s, centered=(True, True, False))"
                       % (n(p["length"]), n(p["width"]), n(p["thickness"])), "missing: through counterbored hole"),
    }


def test_the_reference_passes(tmp_path, capsys, plate):
    code, out = verify(tmp_path, capsys, plate[0])
    assert code == 0 and out["reward"] == 1.0 and out["passed"]


@pytest.mark.parametrize("change", ["hole pattern moved 5 mm", "hole pattern moved 2 mm", "counterbores on the bottom face",
                                    "plain holes", "length 10 mm short", "thickness 1 mm over", "a bare box"])
def test_no_change_in_the_table_passes(tmp_path, capsys, plate, change):
    script, says = _table(*plate)[change]
    code, out = verify(tmp_path, capsys, script)
    assert code == 1 and not out["passed"]
    assert out["reward"] <= (0.3 if change == "a bare box" else 0.5), out["reward"]
    assert any(says in m for m in out["details"]["mismatches"]), out["details"]["mismatches"]


def test_a_larger_move_scores_lower(tmp_path, capsys, plate):
    table = _table(*plate)
    far = verify(tmp_path, capsys, table["hole pattern moved 5 mm"][0])[1]["reward"]
    near = verify(tmp_path, capsys, table["hole pattern moved 2 mm"][0])[1]["reward"]
    assert 0.05 < far < near <= 0.5


def test_render_writes_the_side_by_side_image(tmp_path, capsys, plate):
    picture = tmp_path / "diff.png"
    code, out = verify(tmp_path, capsys, _table(*plate)["counterbores on the bottom face"][0], "--render", str(picture))
    assert code == 1 and not out["passed"]
    data = picture.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width >= 800 and height >= 1000 and len(data) > 30_000


def test_render_refuses_verifiers_that_draw_nothing(tmp_path, capsys):
    path = tmp_path / "answer.txt"
    path.write_text("7")
    assert main(["verify", "--label", '{"env": "arith/add-v1", "seed": 3}', "--response-file", str(path),
                 "--render", str(tmp_path / "x.png")]) == 2
    assert "draws no pictures" in capsys.readouterr().err
