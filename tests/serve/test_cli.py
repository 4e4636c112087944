"""`rlhub serve` as users run it: a real process, SIGTERM to stop, bad settings refused clearly."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time

import requests

from .helpers import write_registry


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_command_answers_and_stops_on_sigterm(tmp_path):
    reg = write_registry(tmp_path / "registry.yaml")
    conf = tmp_path / "serve.yaml"
    conf.write_text("serve:\n  workers: 2\n  queue_limit: 100\n")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "serve", "--registry", str(reg), "--port", str(port),
                             "--plugin", "hub.serve.synthetic", "--config", str(conf)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                health = requests.get(url + "/health", timeout=1).json()
                break
            except requests.ConnectionError:
                assert proc.poll() is None, proc.stderr.read()
                time.sleep(0.05)
        assert health["queue"]["workers"] == 2 and health["queue"]["capacity"] == 100
        r = requests.post(url, json={"query": ["42"], "prompts": [""],
                                     "labels": ['{"env": "synthetic/fast-v1", "seed": 1}']}, timeout=10)
        assert r.status_code == 200 and r.json()["rewards"] == [0.0]
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0
    events = [json.loads(line)["event"] for line in err.splitlines() if line.startswith("{")]
    assert events[0] == "service.started" and "request.answered" in events and events[-1] == "service.stopped"


def test_bad_settings_are_refused_with_a_clear_error(tmp_path):
    conf = tmp_path / "serve.yaml"
    conf.write_text("workers: 0\nbakend: ray\n")
    proc = subprocess.run([sys.executable, "-m", "hub.cli", "serve", "--config", str(conf)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "workers" in proc.stderr and "bakend" in proc.stderr and "Traceback" not in proc.stderr
