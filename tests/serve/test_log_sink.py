"""Logging never blocks the service: a stderr pipe nobody reads costs dropped lines, counted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import requests

from hub.serve import logs, logsink
from hub.serve.work import load_catalog

from .helpers import SYNTHETIC, metric, wait_for, write_registry
from .test_cli import _free_port


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def test_a_stalled_pipe_drops_lines_and_the_caller_never_waits():
    read_end, write_end = os.pipe()  # a real pipe: 64 KB, then write() blocks
    stream = os.fdopen(write_end, "w")
    before = logsink.dropped()
    logs.setup("info", stream, buffer_lines=50)
    try:
        done = threading.Event()

        def flood():
            logs.request_id_var.set("rid-in-caller")
            for i in range(3000):  # ~600 KB: ten pipes' worth
                logs.event("flood", n=i, pad="x" * 150)
            done.set()
        threading.Thread(target=flood, daemon=True).start()
        assert done.wait(20), "logging blocked on a full pipe"
        lost = logsink.dropped() - before
        assert lost > 2000  # the pipe and the 50-line buffer hold a few hundred; the rest were dropped
        reader = threading.Thread(target=lambda: out.append(_read_all(read_end)))
        out: list[bytes] = []
        reader.start()  # the stream moves again: what was queued is written, with a note of the gap
        wait_for(lambda: logs._sink.queue.empty())
        logs.event("after")
    finally:
        logs.setup("info")  # closes the pipe's sink, writing what it still holds
    stream.close()
    reader.join(10)
    lines = [json.loads(line) for line in out[0].decode().splitlines()]  # whole lines only
    events = [line["event"] for line in lines]
    assert events[-1] == "after" and "log.dropped" in events
    assert sum(line["lines"] for line in lines if line["event"] == "log.dropped") == lost
    assert events.count("flood") + lost == 3000
    assert all(line["request_id"] == "rid-in-caller" for line in lines if line["event"] == "flood")


def test_serve_keeps_answering_while_nobody_reads_its_stderr(tmp_path):
    reg = write_registry(tmp_path / "registry.yaml")
    conf = tmp_path / "serve.yaml"
    conf.write_text("serve:\n  workers: 2\n  log_buffer_lines: 100\n  log_level: debug\n")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "serve", "--registry", str(reg), "--port", str(port),
                             "--plugin", SYNTHETIC, "--config", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"

    def flood(seed0: int, n: int = 300) -> requests.Response:  # a debug line per sample: ~60 KB a request
        labels = [json.dumps({"env": "arith/add-v1", "seed": seed0 + i}) for i in range(n)]
        return requests.post(url, json={"query": ["0"] * n, "labels": labels}, timeout=10)

    def dropped() -> float:
        return metric(SimpleNamespace(url=url), "rlhub_serve_log_lines_dropped_total")

    try:
        for _ in range(300):
            try:
                requests.get(url + "/health", timeout=1)
                break
            except requests.ConnectionError:
                assert proc.poll() is None
                time.sleep(0.05)
        assert all(flood(100 * k).status_code == 200 for k in range(4))  # ~240 KB of log: the pipe is full
        first = dropped()
        assert first > 0
        assert requests.get(url + "/health", timeout=2).json()["status"] == "ok"
        right = json.dumps({"env": "arith/add-v1", "seed": 7})
        answer = load_catalog(str(reg), [SYNTHETIC]).reference(right)
        graded = requests.post(url, json={"query": [answer, "wrong"], "labels": [right, right]}, timeout=5)
        assert graded.json()["rewards"] == [1.0, 0.0]
        assert flood(10_000).status_code == 200
        assert dropped() > first
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=30)  # still nobody reads: the stalled sink must not hold up exit
        finally:
            proc.kill()
        err = proc.stderr.read().decode()
    assert code == 0, err[-2000:]
    lines = [json.loads(line) for line in err.splitlines()]  # every line written whole
    assert lines[0]["event"] == "service.started" and lines[0]["level"] == "info"
