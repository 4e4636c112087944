#!/usr/bin/env bash
# The test suite: the core's tests, every plugin's tests, and the verifier checks of the
# default registry (`pytest registry.yaml`), on every core (pytest-xdist; each environment's checks
# stay on one worker, so the verdicts they share are computed once). The registry pass checks one
# seed per environment, every check kind (CI's budget; `rlhub check` checks two): pass
# `--rlhub-seeds 2` to check as deep. pytest's summary ends with the ten slowest environments and
# the total over all of them, so the registry pass's growth shows at every run; before them, the 25
# slowest tests (`--durations`), so what a change costs CI shows too.
set -euo pipefail
cd "$(dirname "$0")/.."
dirs=(tests)
for d in plugins/*/*/tests; do [ -d "$d" ] && dirs+=("$d"); done
exec python3 -m pytest -q -p no:cacheprovider -n auto "${dirs[@]}" registry.yaml --rlhub-seeds 1 --durations=25 "$@"
