"""TRL GRPOTrainer reward function over rlhub's verifiers.

    from trainer.trl_reward import rlhub_reward   # or: from hub.trainers.adapters import trl_reward
    GRPOTrainer(model=..., reward_funcs=[rlhub_reward], train_dataset=load_dataset("json", data_files="train.jsonl")["train"])

The dataset needs `prompt` (rename rlhub's `input`) and `label` columns; the registry is $RLHUB_REGISTRY.
"""

from hub.trainers.adapters import trl_reward as rlhub_reward  # noqa: F401
