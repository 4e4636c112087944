#!/usr/bin/env bash
# Installs everything rlhub needs on a fresh Debian/Ubuntu machine with Python >= 3.10:
# bubblewrap (the sandbox), the libraries CadQuery's import needs, Chromium (the tests open
# `rlhub eval --report` pages in it, headless), the core and every plugin.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! command -v bwrap >/dev/null || ! command -v chromium >/dev/null || ! ldconfig -p | grep -q libGL.so.1 \
    || [ ! -d /usr/share/fonts/truetype/dejavu ]; then
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq bubblewrap libseccomp2 libgl1 libglu1-mesa libxrender1 libxext6 libx11-6 fonts-dejavu-core >/dev/null
  # Debian's chromium (Ubuntu ships it as a snap, which containers lack): the report test skips without it
  $SUDO apt-get install -y -qq chromium >/dev/null 2>&1 || echo "setup: chromium not installed; the report test will be skipped" >&2
fi

PY=${PYTHON:-python3}
# The core and every plugin, editable (edits to hub/ and plugins/ take effect without reinstalling),
# with the trainer glue's extras. torch 2.13.0 is the CPU build (unpinned would pull CUDA).
pkgs=(-e ".[test,train,report,s3,otel]")
for p in plugins/verifiers/*/ plugins/envs/*/; do
  [ -f "$p/pyproject.toml" ] && pkgs+=(-e "$p")
done
"$PY" -m pip install -q --disable-pip-version-check torch==2.13.0 "${pkgs[@]}"
# OpenRLHF's own agent/reward classes on a CPU: it pins flash-attn and cannot be fully installed
# without CUDA, so it goes in without its dependencies (`openrlhf.utils.agent` needs only aiohttp).
"$PY" -m pip install -q --disable-pip-version-check --no-deps openrlhf==0.11.2
# verl's agent-loop and tool classes on a CPU, the same way (its pins want CUDA-era vLLM/transformers);
# these are the light modules verl.experimental.agent_loop imports. TRL's GRPOTrainer installs whole.
"$PY" -m pip install -q --disable-pip-version-check --no-deps verl==0.9.1
"$PY" -m pip install -q --disable-pip-version-check tensordict==0.10.0 hydra-core==1.3.8 codetiming==1.4.0 \
  cachetools==8.0.2 trl==1.16.0
# The real projects' sdists rlhub-swe ships tasks for (swe/real-*), checked against their pinned sha256.
"$PY" -m hub.cli swe fetch --quiet
