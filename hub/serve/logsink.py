"""A log sink that never blocks the code that logs: the stdlib's QueueHandler/QueueListener.

Records are formatted where they are logged (the request id and any other context variable are
read there), put into a bounded queue without waiting, and written by one thread. When the
stream stalls (a stderr pipe nobody reads fills at 64 KB), that thread blocks and the queue
fills; from then on lines are dropped and counted (`dropped()`, rlhub_serve_log_lines_dropped_total
in /metrics), never waited for. Once the stream moves again, a `log.dropped` line says how many
were lost.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import threading
import time
from logging.handlers import QueueHandler, QueueListener

DEFAULT_BUFFER_LINES = 10_000


class _Drops:
    """Log lines dropped in this process, over every sink it has had."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()  # lines are logged from the loop and from worker threads

    def add(self, n: int = 1) -> None:
        with self._lock:
            self.count += n


DROPS = _Drops()


def dropped() -> int:
    return DROPS.count


class _Enqueue(QueueHandler):
    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            DROPS.add()


class _Write(logging.Handler):
    """Writes the lines already formatted; notes the lines dropped since the last one it wrote.

    A stream with a file descriptor (stderr) is written with os.write: no Python-level lock is
    held while blocked, so a writer stuck on a full pipe cannot deadlock the interpreter's own
    flush of sys.stderr at exit."""

    def __init__(self, stream) -> None:
        super().__init__()
        self.stream = stream
        try:
            stream.flush()
            self.fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):  # io.StringIO and the like
            self.fd = None
        self.reported = DROPS.count

    def _out(self, line: str) -> None:
        if self.fd is None:
            self.stream.write(line)
            self.stream.flush()
            return
        data = memoryview(line.encode("utf-8", "backslashreplace"))
        while data:
            data = data[os.write(self.fd, data):]

    def handle(self, record: logging.LogRecord) -> bool:
        # only the listener's thread writes: no handler lock, so logging.shutdown() at exit never
        # waits for a write stuck on a full pipe
        self.emit(record)
        return True

    def emit(self, record: logging.LogRecord) -> None:
        try:
            missed = DROPS.count - self.reported
            if missed > 0:
                self.reported += missed
                note = {"ts": round(time.time(), 6), "level": "warning", "logger": record.name,
                        "event": "log.dropped", "lines": missed, "why": "the log stream did not keep up"}
                self._out(json.dumps(note) + "\n")
            self._out(record.getMessage() + "\n")
        except Exception:  # noqa: BLE001 - a closed or broken stream: the line is lost
            DROPS.add()  # (saying so on stderr would fail the same way)


class _Listener(QueueListener):
    def stop(self, timeout: float = 2.0) -> bool:
        """Write what is queued, for at most `timeout` seconds; False if the stream stayed stalled."""
        thread, self._thread = self._thread, None
        if thread is None:
            return True
        end = time.monotonic() + timeout
        try:
            self.queue.put(self._sentinel, timeout=timeout)
        except queue.Full:
            return False  # the writer is a daemon thread: it never holds the process up
        thread.join(max(0.0, end - time.monotonic()))
        return not thread.is_alive()


class LogSink:
    """`handler` goes on the loggers; a thread writes to `stream`; `close()` drains it (bounded)."""

    def __init__(self, stream, formatter: logging.Formatter, buffer_lines: int = DEFAULT_BUFFER_LINES) -> None:
        self.queue: queue.Queue = queue.Queue(max(1, buffer_lines))
        self.handler = _Enqueue(self.queue)
        self.handler.setFormatter(formatter)
        self._listener = _Listener(self.queue, _Write(stream))
        self._listener.start()

    def close(self, timeout: float = 2.0) -> bool:
        return self._listener.stop(timeout)
