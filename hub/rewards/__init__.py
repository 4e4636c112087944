"""The reward path: a label parsed once, one sample's outcome, substitute rewards decided by one
policy, and OpenRLHF's batch contract (shared by the reward file, the agent and the service)."""

from .batch import reply, score_batch
from .outcome import Outcome, parse_label, verify_one
from .policy import FLAGS, RewardPolicy, log_key
from .query import cut_response

__all__ = ["FLAGS", "Outcome", "RewardPolicy", "cut_response", "log_key", "parse_label", "reply", "score_batch",
           "verify_one"]
