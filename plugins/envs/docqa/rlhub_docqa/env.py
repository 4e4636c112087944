"""The document-QA environment: one world kind x one question kind (x length, x modality)."""

from __future__ import annotations

import random
import re

from hub import Environment, Task
from rlhub_answer.matchers import match_answer
from rlhub_answer.plugin import AnswerConfig

from .distractors import fill, place
from .pages import render_pages
from .questions import KINDS, UNANSWERABLE, Question
from .render import DATE_FORMATS, STYLES, world_sections
from .tokens import approx_tokens, chars_for
from .worlds import BUILDERS
from .worlds.common import NAMES_TOTAL, entity_name

INSTRUCTIONS = (
    "Answer the question using only the document. Think step by step if you need to, then give your final "
    "answer as \\boxed{...}. If the document does not contain the information needed, answer "
    f"\\boxed{{{UNANSWERABLE}}}."
)
DEFAULT_TOKENS = 3000
_CFG = AnswerConfig()


def appears(secret: str, text: str) -> bool:
    """The same test the core's no-leak check applies."""
    return re.search(r"(?<![\w.])" + re.escape(secret) + r"(?![\w])", text) is not None


class DocQA(Environment):
    def __init__(self, env_id: str, world: str, kind: str, target_tokens: int = DEFAULT_TOKENS,
                 vision: bool = False) -> None:
        super().__init__(env_id)
        if world not in BUILDERS:
            raise ValueError(f"unknown world {world!r}; expected one of {sorted(BUILDERS)}")
        if kind not in KINDS:
            raise ValueError(f"unknown question kind {kind!r}; expected one of {sorted(KINDS)}")
        if not 500 <= target_tokens <= 2_000_000:
            raise ValueError(f"target_tokens must be in [500, 2000000], got {target_tokens}")
        self.world, self.kind, self.target_tokens, self.vision = world, kind, target_tokens, vision

    def generate(self, rng: random.Random, index: int) -> Task:
        target = rng.randrange(NAMES_TOTAL)
        world = BUILDERS[self.world](rng, entity_name(target))
        style = "text" if self.vision else rng.choice(STYLES)
        date_format = rng.choice(DATE_FORMATS)
        similar = rng.choice([0.3, 0.7, 1.0])  # how alike the distractors are
        evidence = world_sections(world, style, date_format, evidence=True)
        used = sum(len(s.title) + len(s.body) for s in evidence)
        budget = 0 if self.vision else max(0, chars_for(self.target_tokens) - used)
        sections = place(rng, evidence, fill(rng, BUILDERS[self.world], target, budget, style, date_format, similar))
        document = "\n".join(s.text(style) for s in sections)
        question = self._question(rng, world, document)
        body = f"Question: {question.text}\n\n{INSTRUCTIONS}"
        if self.vision:
            images = render_pages(document)
            prompt = [{"role": "user", "content": [{"type": "image"} for _ in images] + [
                {"type": "text", "text": f"The document is shown in {len(images)} page image(s).\n\n{body}"}]}]
        else:
            images = []
            prompt = f"<document>\n{document}\n</document>\n\n{body}"
        # Keep only wrong answers the verifier really rejects (a "wrong scale" of 0 is still 0).
        wrong = [w for w in question.wrong if not match_answer(w, question.answer, question.answer_type, _CFG).passed]
        hidden = {"answer": question.answer, "answer_type": question.answer_type}
        metadata = {"wrong": wrong, "secrets": question.secrets, "world": self.world, "kind": self.kind, "style": style, "hops": question.hops,
                    "distractor_similarity": similar, "approx_tokens": approx_tokens(document),
                    "evidence_sections": [i for i, s in enumerate(sections) if s.evidence]}
        return Task(prompt=prompt, hidden=hidden, reference=f"\\boxed{{{question.shown}}}", metadata=metadata,
                    images=images)

    def _question(self, rng: random.Random, world, document: str) -> Question:
        """Draw until the world offers this kind of question and its computed answer is not in the text."""
        for _ in range(100):
            q = KINDS[self.kind](rng, world)
            if q is not None and not any(appears(s, document) for s in q.secrets if len(s) >= 4):
                return q
        raise RuntimeError(f"{self.id}: no {self.kind} question for this {self.world} world after 100 draws")

    def wrong_responses(self, task: Task) -> list[str]:
        """The question's own wrong answers (wrong number, scale, sign, item, day), plus 'unanswerable'
        for an answerable question."""
        wrong = [f"\\boxed{{{w}}}" for w in task.metadata["wrong"]]
        if task.hidden["answer_type"] != "unanswerable":
            wrong.append(f"\\boxed{{{UNANSWERABLE}}}")
        return wrong

    def secrets(self, task: Task) -> list[str]:
        """Computed answers must not appear in the prompt; looked-up ones legitimately do."""
        return list(task.metadata["secrets"])
