"""rlhub-answer: model-free answer extraction and matching for question-answering environments.

Contract with environments: `task.hidden["answer"]` is the gold (str, number, list, or a list
of acceptable golds under key "answers"), `task.hidden["answer_type"]` one of ANSWER_TYPES.
"""

from .extract import Extracted, extract_answer
from .matchers import ANSWER_TYPES, UNANSWERABLE, match_answer

__all__ = ["ANSWER_TYPES", "UNANSWERABLE", "Extracted", "extract_answer", "match_answer"]
