"""The reward path: a label parsed once, one sample's outcome, substitute rewards decided by one
policy, and OpenRLHF's batch contract (shared by the reward file, the agent and the service)."""

from .batch import reply, score_batch, warn_bad_labels
from .outcome import Outcome, parse_label, verify_one
from .policy import FLAGS, PROMPT_MISMATCH, SUBSTITUTED, RewardPolicy, log_key, sample_logs, score
from .query import Cut, cut, cut_response

__all__ = ["FLAGS", "PROMPT_MISMATCH", "SUBSTITUTED", "Cut", "Outcome", "RewardPolicy", "cut", "cut_response", "log_key",
           "parse_label", "reply", "sample_logs", "score", "score_batch", "verify_one", "warn_bad_labels"]
