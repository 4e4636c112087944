"""OpenRLHF: the reward-function file, the multi-turn agent, its own argument parser, and `rlhub train`."""
