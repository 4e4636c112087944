"""The warm renderer: one CadQuery interpreter per process for every drawing, in parallel, the
same PNG bytes as a fresh interpreter draws, its caches where the settings say."""

from __future__ import annotations

import base64
import os
import subprocess
import sys

import pytest
from rlhub_cad import render
from rlhub_cad.env import CadEnvironment
from rlhub_cad.families import FAMILIES


def image_env(name: str) -> CadEnvironment:
    fam = next(f for f in FAMILIES if f.name == name)
    return CadEnvironment(f"cad/{fam.name}-image-v1", fam, "image")


@pytest.fixture
def fresh_renderer(monkeypatch, tmp_path):
    """An empty drawing cache, and this process's renderer started anew for the test."""
    monkeypatch.setenv("RLHUB_CAD_CACHE", str(tmp_path / "cache"))
    render._here().close()
    render._state = render._State()
    yield tmp_path / "cache"
    render._here().close()


def test_a_batch_is_drawn_by_one_warm_renderer_as_a_fresh_interpreter_draws_it(fresh_renderer):
    envs = [image_env("flange"), image_env("gear-spur")]
    indices = list(range(6))
    for env in envs:
        env.prepare(indices)  # every drawing starts now, in parallel
    state = render._here()
    renderer = state._renderer
    assert renderer is not None and len(state.pending) == len(envs) * len(indices)
    tasks = [env.make_task(i) for env in envs for i in indices]
    assert state._renderer is renderer and renderer.proc.poll() is None  # one renderer served them all
    assert len(list(fresh_renderer.glob("*.png"))) == len(tasks)
    # the same bytes as one drawing made in its own fresh interpreter (what the other-process check compares)
    script = envs[0].drawn_script(3)
    alone = subprocess.run([sys.executable, "-c", "import sys; from rlhub_cad.render import _draw; print(_draw(sys.stdin.read()))"],
                           input=script, capture_output=True, text=True, check=True).stdout.strip()
    assert base64.b64decode(alone) == tasks[3].images[0]


def test_a_failing_script_is_a_clear_error_and_the_renderer_goes_on(fresh_renderer):
    with pytest.raises(render.RenderError, match="ZeroDivisionError"):
        render.render_png("result = 1 / 0\n")
    png = image_env("flange").make_task(1).images[0]
    assert png.startswith(b"\x89PNG")


def test_cache_off_draws_anew_and_writes_nothing(fresh_renderer, monkeypatch):
    env = image_env("flange")
    cached_png = env.make_task(4).images[0]
    monkeypatch.setenv("RLHUB_CACHE", "off")  # as the fresh-process check runs
    render._here().recent.clear()
    assert render.cache_dir() is None and render.cached(env.drawn_script(4)) is None
    assert env.make_task(4).images[0] == cached_png
    before = set(fresh_renderer.glob("*.png"))
    env.make_task(5)
    assert set(fresh_renderer.glob("*.png")) == before


def test_a_forked_child_starts_its_own_renderer(fresh_renderer):
    env = image_env("flange")
    env.make_task(7)
    parent = render._here()._renderer.proc.pid
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its own renderer, never the parent's pipes
        try:
            os.environ["RLHUB_CACHE"] = "off"
            png = env.make_task(8).images[0]
            ok = png.startswith(b"\x89PNG") and render._here()._renderer.proc.pid != parent
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 1) == b"1"


def test_closing_with_drawings_nobody_needs_ends_the_renderer_at_once(fresh_renderer):
    """A process that is done (or failed) does not wait for queued drawings: the renderer and its
    forked workers (its own process group) are gone, and what was queued fails clearly."""
    env = image_env("gear-ring")
    env.prepare(list(range(40)))
    state = render._here()
    renderer, queued = state._renderer, list(state.pending.values())
    state.close()
    assert renderer.proc.poll() is not None
    with pytest.raises(ProcessLookupError):
        os.killpg(renderer.proc.pid, 0)  # no process of the group is left
    assert any(isinstance(f.exception(timeout=30), render.RenderError) for f in queued)


def _drawings_archive(tmp_path, scripts: dict[str, bytes]) -> str:
    """A tar of drawings named by their scripts' keys, pushed to a local object store; its pin."""
    from hub.assets.push import push

    folder = tmp_path / "drawings"
    folder.mkdir()
    for script, png in scripts.items():
        (folder / f"{render._key(script)}.png").write_bytes(png)
    [pin] = push([str(folder)], str(tmp_path / "store"))
    return pin["pin"]


def _png() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(out, format="PNG")
    return out.getvalue()


def test_an_empty_disk_node_takes_drawings_from_the_shared_archive_and_renders_nothing(fresh_renderer, monkeypatch, tmp_path):
    script = image_env("flange").drawn_script(2)
    png = _png()
    pin = _drawings_archive(tmp_path, {script: png})
    monkeypatch.setenv("RLHUB_ASSET_CACHE", str(tmp_path / "assets"))
    monkeypatch.setenv(render.SHARED, pin)
    render._shared.cache_clear()
    assert render.render_png(script) == png
    assert render._here()._renderer is None  # nothing was drawn here
    assert any((tmp_path / "assets").rglob(f"{render._key(script)}.png"))  # fetched once into the asset cache
    # a script the archive lacks is drawn here, as without it
    assert render.cached(image_env("flange").drawn_script(3)) is None
    # the fresh-process check's setting turns the shared drawings off with every other cache
    monkeypatch.setenv("RLHUB_CACHE", "off")
    render._here().recent.clear()
    assert render.cached(script) is None


def test_a_shared_archive_that_cannot_be_had_is_said_once_and_drawings_are_made_here(fresh_renderer, monkeypatch, tmp_path, capsys):
    script = image_env("flange").drawn_script(2)
    monkeypatch.setenv("RLHUB_ASSET_CACHE", str(tmp_path / "assets"))
    monkeypatch.setenv(render.SHARED, (tmp_path / "nowhere" / "d.tar").as_uri() + "#sha256=" + "0" * 64)
    render._shared.cache_clear()
    assert render.cached(script) is None
    assert render.cached(script) is None
    err = capsys.readouterr().err
    assert err.count(f"warning: {render.SHARED}") == 1 and "drawing here instead" in err
    assert render.render_png(script).startswith(b"\x89PNG")  # drawn by the warm renderer
    # a pin that is not an archive is refused by name
    monkeypatch.setenv(render.SHARED, (tmp_path / "one.png").as_uri() + "#sha256=" + "0" * 64)
    assert render.cached(image_env("flange").drawn_script(5)) is None
    assert "must name a tar archive" in capsys.readouterr().err
