"""rlhub-answer: model-free answer extraction and matching for question-answering environments.

Contract with environments (`plugin.AnswerHidden`): `task.hidden["answer"]` is the gold (str,
number, list), `task.hidden["answer_type"]` one of ANSWER_TYPES (default "text").
"""

from .extract import Extracted, extract_answer
from .matchers import ANSWER_TYPES, UNANSWERABLE, match_answer

__all__ = ["ANSWER_TYPES", "UNANSWERABLE", "Extracted", "extract_answer", "match_answer"]
