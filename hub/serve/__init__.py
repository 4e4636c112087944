"""`rlhub serve`: the reward service for training clusters (OpenRLHF's remote reward protocol).

    config.py      ServeConfig: every setting, from flags or a YAML file
    protocol.py    the request body (validated) and the response body
    estimates.py   per-environment duration estimates learned from history
    scheduler.py   the bounded queue: shortest-expected-first with ageing, push-back when full
    retry_line.py  first refused, first admitted: room held for the requests a full queue turned away
    work.py        one sample's work and its outcome; `verify_one`, shared by every backend
    local_backend.py / ray_backend.py   where verification runs: threads here, or Ray actors
    service.py     ties them together: admit a batch, schedule it, answer within the deadline
    metrics.py     Prometheus metrics;  logs.py: structured JSON logs keyed by request id
    logsink.py     the log sink that never blocks: a bounded queue, a writer thread, dropped lines counted
    app.py         the aiohttp application (routes, status codes)
    server.py      running it: the CLI's foreground server, and a background one for tests
    synthetic.py   a controlled-duration environment for load and scheduling tests (opt-in)
"""

from .config import ServeConfig

__all__ = ["ServeConfig"]
