"""Counting the retries of OpenRLHF's reward client, which logs each failed try ("Request error
...") before it sleeps 1 s and tries again: the burst test and bench_burst.py read the same count."""

from __future__ import annotations

import logging


class CountTries(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.failed = 0

    def emit(self, record) -> None:
        self.failed += "error" in record.getMessage()
