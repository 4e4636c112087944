"""A Hugging Face Hub on loopback for tests: olah serves the read API from local git repositories,
and a few write routes beside it (create repo, preupload, commit, tag, list) store into them.

The client side is always the real `huggingface_hub`, pointed here with HF_ENDPOINT.
"""

from __future__ import annotations

import base64
import json
import socket
import subprocess
import threading
import time
from pathlib import Path

import yaml
from fastapi import Request
from fastapi.responses import JSONResponse

GIT = ["git", "-c", "user.name=hub", "-c", "user.email=hub@localhost"]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run([*GIT, "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


class LocalHub:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.mirrors = root / "mirrors"
        self.mirrors.mkdir(parents=True, exist_ok=True)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def repo_path(self, repo_type: str, repo_id: str) -> Path:
        return self.mirrors / repo_type / repo_id

    # -- server ---------------------------------------------------------------------------------
    def start(self) -> "LocalHub":
        import olah.server as olah
        import uvicorn
        from olah.configs import OlahConfig
        from olah.utils.logging import build_logger

        cfg = OlahConfig()
        cfg.offline = True  # never reach for huggingface.co
        cfg.mirrors_path = [str(self.mirrors)]
        cfg.repos_path = str(self.root / "olah-cache")
        cfg.metadata_cache_ttl = 0
        cfg.host, cfg.port = "127.0.0.1", self.port
        cfg.mirror_netloc = cfg.mirror_lfs_netloc = f"127.0.0.1:{self.port}"
        olah.app.state.app_settings = olah.AppSettings(config=cfg)
        olah.logger = build_logger("olah", "olah.log", logger_dir=str(self.root / "logs"))
        olah.app.state.logger = olah.logger
        self._add_write_routes(olah.app)
        self.server = uvicorn.Server(uvicorn.Config(olah.app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("local hub did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def _add_write_routes(self, app) -> None:
        hub = self
        if getattr(app.state, "rlhub_write_routes", False):
            app.state.rlhub_hub = hub
            return
        app.state.rlhub_write_routes = True
        app.state.rlhub_hub = hub
        before = len(app.router.routes)

        @app.post("/api/repos/create")
        async def create_repo(request: Request):
            body = await request.json()
            repo_type = body.get("type", "model") + "s"
            repo_id = f"{body['organization']}/{body['name']}" if body.get("organization") else body["name"]
            path = app.state.rlhub_hub.repo_path(repo_type, repo_id)
            url = f"{app.state.rlhub_hub.endpoint}/{repo_type}/{repo_id}"
            if path.exists():
                return JSONResponse({"error": "You already created this repo", "url": url}, status_code=409)
            path.mkdir(parents=True)
            _git(path, "init", "-q", "-b", "main")
            (path / ".gitattributes").write_text("*.whl binary\n*.parquet binary\n")
            _git(path, "add", "-A")
            _git(path, "commit", "-qm", "initial commit")
            return {"url": url, "name": repo_id}

        @app.post("/api/validate-yaml")
        async def validate_yaml(request: Request):
            body = await request.json()
            text = body.get("content", "")
            try:
                yaml.safe_load(text.split("---")[1] if text.startswith("---") else "")
            except yaml.YAMLError as exc:
                return JSONResponse({"errors": [{"message": str(exc)}]}, status_code=400)
            return {"errors": [], "warnings": []}

        @app.post("/api/{repo_type}/{org}/{name}/preupload/{revision}")
        async def preupload(repo_type: str, org: str, name: str, revision: str, request: Request):
            body = await request.json()
            return {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False}
                              for f in body.get("files", [])]}

        @app.post("/api/{repo_type}/{org}/{name}/commit/{revision}")
        async def commit(repo_type: str, org: str, name: str, revision: str, request: Request):
            path = app.state.rlhub_hub.repo_path(repo_type, f"{org}/{name}")
            if not path.exists():
                return JSONResponse({"error": "Repository not found"}, status_code=404)
            summary = "commit"
            for line in (await request.body()).decode().splitlines():
                if not line.strip():
                    continue
                op = json.loads(line)
                key, value = op["key"], op["value"]
                if key == "header":
                    summary = value.get("summary") or summary
                elif key == "file":
                    target = path / value["path"]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(base64.b64decode(value["content"]))
                elif key in ("deletedFile", "deletedFolder"):
                    subprocess.run([*GIT, "-C", str(path), "rm", "-rq", "--ignore-unmatch", value["path"]], check=True)
                else:
                    return JSONResponse({"error": f"unsupported operation {key}"}, status_code=400)
            _git(path, "add", "-A")
            _git(path, "commit", "-q", "--allow-empty", "-m", summary)
            oid = _git(path, "rev-parse", "HEAD")
            return {"commitUrl": f"{app.state.rlhub_hub.endpoint}/{repo_type}/{org}/{name}/commit/{oid}",
                    "commitOid": oid, "pullRequestUrl": None}

        @app.post("/api/{repo_type}/{org}/{name}/tag/{revision}")
        async def tag(repo_type: str, org: str, name: str, revision: str, request: Request):
            path = app.state.rlhub_hub.repo_path(repo_type, f"{org}/{name}")
            body = await request.json()
            if _git(path, "tag", "--list", body["tag"]):
                return JSONResponse({"error": f"Tag {body['tag']} already exists"}, status_code=409)
            _git(path, "tag", "-a", body["tag"], "-m", body.get("message") or body["tag"], revision)
            return {"ok": True}

        @app.get("/api/datasets")
        async def list_datasets(filter: str | None = None, search: str | None = None):
            rows = []
            for readme in sorted(app.state.rlhub_hub.mirrors.glob("datasets/*/*/README.md")):
                repo_id = f"{readme.parent.parent.name}/{readme.parent.name}"
                text = readme.read_text()
                meta = yaml.safe_load(text.split("---")[1]) if text.startswith("---") else {}
                tags = (meta or {}).get("tags", [])
                if (filter and filter not in tags) or (search and search not in repo_id):
                    continue
                rows.append({"id": repo_id, "_id": repo_id, "author": repo_id.split("/")[0], "tags": tags,
                             "private": False, "downloads": 0, "likes": 0,
                             "lastModified": "2026-01-01T00:00:00.000Z"})
            return rows

        # olah's catch-all file routes (/{org_repo}/{hash_file}) would shadow ours: ours go first
        routes = app.router.routes
        routes[:] = routes[before:] + routes[:before]

    # -- tampering, for tests --------------------------------------------------------------------
    def tamper(self, repo_id: str, tag: str, edit) -> None:
        """Change files of a released tag and move the tag: what a compromised Hub could do."""
        path = self.repo_path("datasets", repo_id)
        _git(path, "checkout", "-q", tag)
        edit(path)
        _git(path, "add", "-A")
        _git(path, "commit", "-qm", "tampered")
        _git(path, "tag", "-f", "-a", tag, "-m", tag)
        _git(path, "checkout", "-q", "main")
