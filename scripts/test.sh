#!/usr/bin/env bash
# The test suite: the core's tests, every plugin's tests, and the verifier checks of the
# default registry (`pytest registry.yaml`), on every core (pytest-xdist; each environment's checks
# stay on one worker, so the verdicts they share are computed once).
set -euo pipefail
cd "$(dirname "$0")/.."
dirs=(tests)
for d in plugins/*/*/tests; do [ -d "$d" ] && dirs+=("$d"); done
exec python3 -m pytest -q -p no:cacheprovider -n auto "${dirs[@]}" registry.yaml "$@"
