"""OpenRLHF reward-function file: `--reward.remote_url trainer/reward_func.py`.

Grades each sample with the verifier its label names. The registry is $RLHUB_REGISTRY
(default: ./registry.yaml, else rlhub's packaged default). Tuning: RLHUB_REWARD_DEADLINE_S
(seconds per call, default 150; past it the sample earns 0 and extra_logs rlhub/timeout = 1),
RLHUB_REWARD_WORKERS (verification threads, default 16).
"""

from hub.trainers.openrlhf.reward import reward_func  # noqa: F401  (OpenRLHF looks up `reward_func`)
