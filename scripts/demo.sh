#!/usr/bin/env bash
# The main job on built-in defaults: sample prompts from the default registry, then verify
# each prompt's reference solution through the same CLI a training run's reward side uses.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-prompts.jsonl}
rlhub sample --n 16 --seed 0 --out "$out"
python3 - "$out" <<'PY'
import json, subprocess, sys
passed = total = 0
for line in open(sys.argv[1]):
    label = json.loads(line)["label"]
    ref = subprocess.run(["rlhub", "reference", "--label", label], capture_output=True, text=True, check=True).stdout
    v = subprocess.run(["rlhub", "verify", "--label", label, "--response-file", "-"], input=ref,
                       capture_output=True, text=True)
    verdict = json.loads(v.stdout)
    total += 1; passed += verdict["passed"]
    print(f"{label:60s} reward={verdict['reward']:.2f} passed={verdict['passed']}")
print(f"{passed}/{total} reference solutions passed")
sys.exit(0 if passed == total else 1)
PY
