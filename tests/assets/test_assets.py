"""Content-addressed assets against real servers: S3 is moto's server mode (a real S3-speaking
HTTP server, reached through s3fs as production reaches AWS or MinIO), http a local server that can
cut a body short; the sandbox is the real bwrap one."""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import subprocess
import sys
import textwrap
import threading

import pytest

from hub.assets import AssetCache, AssetError, AssetRef
from hub.cli.main import main
from hub.core.errors import RegistryError

BODY = os.urandom(256 << 10)
SHA = hashlib.sha256(BODY).hexdigest()


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("RLHUB_ASSET_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def leftovers(root) -> list[str]:
    """Every file under the cache but its locks: a failed fetch must leave none."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and "locks" not in p.parts)


class Served(http.server.ThreadingHTTPServer):
    """/blob: BODY (every GET counted); /cut: claims BODY's length, sends half, hangs up."""

    gets = 0


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def _head(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()

    def do_HEAD(self) -> None:  # noqa: N802
        self._head()

    def do_GET(self) -> None:  # noqa: N802
        self._head()
        if self.path == "/cut":
            self.wfile.write(BODY[: len(BODY) // 2])
            self.wfile.flush()
            self.connection.shutdown(2)
            return
        self.server.gets += 1
        self.wfile.write(BODY)


@pytest.fixture(scope="module")
def web():
    server = Served(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()


def test_push_pull_and_a_sandbox_reads_it_read_only(s3, cache_dir, tmp_path, capsys, sandbox):
    """The whole path: push a dataset file and a folder, pin them in a registry (dataset path, a
    profile mount), pull them into an empty cache, use them: rows from the fetched file, the folder
    mounted read-only in a real bwrap task."""
    (tmp_path / "qa.jsonl").write_text('{"question": "What is 2+3?", "answer": "5"}\n')
    pages = tmp_path / "pages"
    (pages / "p1").mkdir(parents=True)
    (pages / "p1" / "page.txt").write_text("page one text")
    assert main(["assets", "push", str(tmp_path / "qa.jsonl"), str(pages), "s3://rlhub-assets/bench", "--json"]) == 0
    qa, folder = json.loads(capsys.readouterr().out)
    assert folder["url"].endswith(f"/sha256/{folder['sha256']}/pages.tar") and qa["uploaded"]
    assert main(["assets", "push", str(tmp_path / "qa.jsonl"), "s3://rlhub-assets/bench", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0] == {**qa, "uploaded": False}  # same bytes: nothing sent again
    reg = tmp_path / "registry.yaml"
    reg.write_text(textwrap.dedent(f"""\
        version: 1
        profiles:
          with-pages: {{extends: python, mounts: [{{src: "{folder['pin']}", dst: /pages}}]}}
        environments:
          - dataset: {{id: s3data/qa-v1, path: "{qa['pin']}", assets: "{folder['pin']}",
                       columns: {{prompt: question, answer: answer}}}}
            verifier: exact_match
            profile: with-pages
    """))
    assert main(["assets", "ls", "--registry", str(reg), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [a["cached"] for a in listed["assets"]] == [False, False, False] and listed["entries"] == 0
    assert main(["assets", "pull", "--registry", str(reg), "--json"]) == 0
    pulled = json.loads(capsys.readouterr().out)
    assert [a["fetched"] for a in pulled["assets"]] == [True, True, False] and pulled["failed"] == 0  # one folder, twice

    import hub

    cat = hub.load(reg)
    assert "What is 2+3?" in cat.task({"env": "s3data/qa-v1", "row": 0}).prompt_text()
    renv = cat.get("s3data/qa-v1")
    assert open(os.path.join(renv.env.assets, "p1", "page.txt")).read() == "page one text"  # the rows' 'assets'
    profile = renv.profile
    r = sandbox.run(profile, ["sh", "-c", "cat /pages/p1/page.txt; echo changed > /pages/p1/page.txt"])
    assert r.stdout.startswith("page one text") and r.exit_code != 0, (r.stdout, r.stderr)
    assert (cache_dir / "sha256" / folder["sha256"][:2] / f"{folder['sha256']}.d" / "p1" / "page.txt").read_text() \
        == "page one text"


def test_a_mismatched_hash_is_refused_naming_both_and_leaves_nothing(s3, cache_dir):
    s3.pipe("rlhub-assets/changed.bin", BODY)
    wrong = "0" * 64
    with pytest.raises(AssetError) as err:
        AssetCache().path(AssetRef.parse(f"s3://rlhub-assets/changed.bin#sha256={wrong}"))
    assert "s3://rlhub-assets/changed.bin" in str(err.value) and wrong in str(err.value) and SHA in str(err.value)
    assert leftovers(cache_dir) == []


def test_a_missing_bucket_is_one_error_and_pull_exits_2(s3, cache_dir, capsys):
    assert main(["assets", "pull", f"s3://no-such-bucket-here/x.bin#sha256={SHA}"]) == 2
    assert "not found (no such object, or its bucket does not exist)" in capsys.readouterr().err
    assert main(["assets", "push", __file__, "s3://no-such-bucket-here/p"]) == 2
    assert "the bucket or folder does not exist" in capsys.readouterr().err
    assert leftovers(cache_dir) == []


def test_access_denied_is_one_error_naming_the_asset_and_leaves_nothing(s3, cache_dir, capsys, monkeypatch):
    """The same server with its authentication on (moto checks every request's key against its IAM,
    as AWS does): our key is unknown there, so S3 answers 403 to the read and to the write."""
    import moto.settings

    s3.pipe("rlhub-assets/private.bin", BODY)  # written while the server still lets anyone in
    monkeypatch.setattr(moto.settings, "INITIAL_NO_AUTH_ACTION_COUNT", 0)
    s3.invalidate_cache()
    url = f"s3://rlhub-assets/private.bin#sha256={SHA}"
    with pytest.raises(AssetError) as err:
        AssetCache().path(AssetRef.parse(url))
    assert str(err.value).startswith("asset s3://rlhub-assets/private.bin: access denied"), err.value
    assert main(["assets", "pull", url]) == 2
    assert "access denied" in capsys.readouterr().err
    assert main(["assets", "push", __file__, "s3://rlhub-assets/denied"]) == 2
    assert "access denied" in capsys.readouterr().err
    assert leftovers(cache_dir) == []


def test_a_cut_download_is_an_error_and_no_partial_file_is_kept(web, cache_dir):
    port = web.server_address[1]
    with pytest.raises(AssetError, match="nothing was kept"):
        AssetCache().path(AssetRef.parse(f"http://127.0.0.1:{port}/cut#sha256={SHA}"))
    assert leftovers(cache_dir) == []


FETCH = """\
import sys
from hub.assets import AssetCache, AssetRef
print(AssetCache().path(AssetRef.parse(sys.argv[1])).read_bytes() == open(sys.argv[2], 'rb').read())
"""


def test_two_processes_fetching_at_once_download_once(web, cache_dir, tmp_path):
    expected = tmp_path / "expected.bin"
    expected.write_bytes(BODY)
    pin = f"http://127.0.0.1:{web.server_address[1]}/blob#sha256={SHA}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    before = web.gets
    procs = [subprocess.Popen([sys.executable, "-c", FETCH, pin, str(expected)], env=env, stdout=subprocess.PIPE,
                              text=True) for _ in range(2)]
    outs = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert outs == ["True", "True"] and web.gets - before == 1
    assert leftovers(cache_dir) == [f"sha256/{SHA[:2]}/{SHA}"]


def test_a_full_disk_is_one_error_and_leaves_nothing(cache_dir, tmp_path):
    """The file-size limit makes the cache's disk 'full' at 64 KiB: the write fails mid-asset."""
    src = tmp_path / "big.bin"
    src.write_bytes(BODY)
    code = ("import resource, sys\nresource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))\n"
            "from hub.assets import AssetCache, AssetError, AssetRef\n"
            "try:\n    AssetCache().path(AssetRef.parse(sys.argv[1]))\nexcept AssetError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code, f"{src.as_uri()}#sha256={SHA}"], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}, timeout=60)
    assert "no room to write it in the cache" in out.stdout, out.stderr
    assert leftovers(cache_dir) == []


def test_the_cache_keeps_to_its_bound_dropping_the_least_recently_used(cache_dir, tmp_path):
    cache = AssetCache(max_bytes=3 * 1024)
    refs = []
    for i in range(3):
        data = bytes([i]) * 1500
        (tmp_path / f"a{i}").write_bytes(data)
        refs.append(AssetRef.parse(f"{(tmp_path / f'a{i}').as_uri()}#sha256={hashlib.sha256(data).hexdigest()}"))
    cache.path(refs[0]), cache.path(refs[1])
    os.utime(cache.blob(refs[0].sha256), (1, 1))  # used long ago
    cache.path(refs[2])
    assert [cache.cached(r) is not None for r in refs] == [False, True, True]
    with pytest.raises(AssetError, match="more than the cache may hold"):
        AssetCache(max_bytes=1000).path(refs[0])


@pytest.mark.parametrize("url, expected", [
    ("ftp://mirror.example/qa.jsonl#sha256=" + SHA, "scheme 'ftp' is not allowed"),
    ("http://mirror.example/qa.jsonl#sha256=" + SHA, "plain http is allowed only to this machine"),
    ("s3://bucket/qa.jsonl", "is not pinned: write it as URL#sha256=HEX"),
    ("simplecache::s3://bucket/qa.jsonl#sha256=" + SHA, "chained fsspec URLs"),
])
def test_a_bad_asset_url_in_a_registry_is_refused_at_its_line(tmp_path, url, expected):
    from hub.config import registry

    text = f"version: 1\nenvironments:\n  - dataset:\n      id: x/qa-v1\n      path: '{url}'\n      columns: {{prompt: q}}\n"
    with pytest.raises(RegistryError) as err:
        registry.parse(text, tmp_path / "registry.yaml")
    assert f"registry.yaml:5: environments.0.dataset.path: " in str(err.value) and expected in str(err.value)


def test_eval_output_goes_to_object_storage(s3, tmp_path):
    """`rlhub eval --out s3://...`: written locally as ever, uploaded when done, read back by rescore."""
    from hub.assets.remote import local_input, remote_output
    from hub.core.errors import UserError

    out = remote_output("s3://rlhub-assets/runs/traj.jsonl", "--out")
    out.local.write_text('{"label": "x", "turns": []}\n')
    assert out.upload() == "s3://rlhub-assets/runs/traj.jsonl" and not out.local.exists()
    assert open(local_input("s3://rlhub-assets/runs/traj.jsonl", "trajectories file")).read().startswith('{"label"')
    with pytest.raises(UserError, match="the bucket 'no-such-bucket-here' does not exist"):
        remote_output("s3://no-such-bucket-here/traj.jsonl", "--out")
