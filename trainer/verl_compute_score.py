"""verl reward file: custom_reward_function.path=trainer/verl_compute_score.py, name=compute_score.

The rlhub label travels as each sample's reward_model.ground_truth; the registry is $RLHUB_REGISTRY.
"""

from hub.trainers.adapters import verl_compute_score as compute_score  # noqa: F401
