"""Asset fetch: cold (from an S3 server, through s3fs, hashed and renamed into the cache) against
warm (a cache hit), per asset size, in one run.

    python benchmarks/bench_assets.py [--sizes 64K,1M,16M,64M] [--repeat 5]

The S3 server is moto's server mode on this machine (a real S3-speaking HTTP server): a cold fetch
here measures rlhub's side (request, streaming, sha256, fsync, rename) without a network, so on a
real bucket it is a floor. Each cold fetch starts from an empty cache; each warm one is a hit on
the file the cold one left. Prints the median of each, the throughput of the cold fetch and the
cold/warm ratio.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hub.assets import AssetCache, AssetRef  # noqa: E402
from hub.assets.cache import parse_size  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="64K,1M,16M,64M", help="asset sizes, comma-separated")
    ap.add_argument("--repeat", type=int, default=5, help="fetches of each kind per size")
    args = ap.parse_args()

    import fsspec
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    os.environ.update(AWS_ENDPOINT_URL=f"http://{host}:{port}", AWS_ACCESS_KEY_ID="bench",
                      AWS_SECRET_ACCESS_KEY="bench", AWS_DEFAULT_REGION="us-east-1")
    fs = fsspec.filesystem("s3")
    fs.mkdir("rlhub-bench")
    root = Path(tempfile.mkdtemp(prefix="rlhub-bench-assets-"))
    print(f"{'size':>8}  {'cold median':>12}  {'cold MB/s':>9}  {'warm median':>12}  {'cold/warm':>10}")
    try:
        for label in args.sizes.split(","):
            data = os.urandom(parse_size(label, "--sizes"))
            sha = hashlib.sha256(data).hexdigest()
            fs.pipe(f"rlhub-bench/{sha}.bin", data)
            ref = AssetRef.parse(f"s3://rlhub-bench/{sha}.bin#sha256={sha}")
            cold, warm = [], []
            for _ in range(args.repeat):
                shutil.rmtree(root / "cache", ignore_errors=True)
                cache = AssetCache(root / "cache")
                start = time.perf_counter()
                path = cache.path(ref)
                cold.append(time.perf_counter() - start)
                for _ in range(3):
                    start = time.perf_counter()
                    assert cache.path(ref) == path
                    warm.append(time.perf_counter() - start)
            c, w = statistics.median(cold), statistics.median(warm)
            print(f"{label:>8}  {c * 1e3:>9.2f} ms  {len(data) / c / 1e6:>9.1f}  {w * 1e6:>9.1f} us  {c / w:>9.0f}x")
    finally:
        shutil.rmtree(root, ignore_errors=True)
        server.stop()


if __name__ == "__main__":
    main()
