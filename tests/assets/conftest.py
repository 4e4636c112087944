"""Fixtures of the asset tests: a real S3 server (moto's server mode) on loopback."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="package")
def s3():
    """A moto S3 server on a free port, with a bucket; s3fs finds it through AWS_ENDPOINT_URL."""
    import logging

    import fsspec
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    env = {"AWS_ENDPOINT_URL": f"http://{host}:{port}", "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
           "AWS_DEFAULT_REGION": "us-east-1"}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    fs = fsspec.filesystem("s3", skip_instance_cache=True)
    fs.mkdir("rlhub-assets")
    yield fs
    for k, v in saved.items():
        os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    fsspec.filesystem("s3").clear_instance_cache()
    server.stop()
