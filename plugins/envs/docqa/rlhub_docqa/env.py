"""Document QA as task families (hub.core.family): one family per (world, question kind), shown
as text or as page images; the document length is a family option (`env_config: {target_tokens}`)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from hub import Variant
from hub.core.family import Family
from rlhub_answer.plugin import AnswerConfig, AnswerHidden

from .distractors import fill, place
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


@dataclass(frozen=True)
class Doc:
    """One task's draw: the document (text, or the pages it is shown as) and the question over it."""

    document: str
    question: Question
    style: str
    similar: float  # how alike the distractors are
    evidence_sections: tuple[int, ...]
    pages: tuple[bytes, ...] = ()


class DocQAFamily(Family[Doc]):
    prompts = {"text": "<document>\n{document}\n</document>\n\nQuestion: {question_text}\n\n{instructions}",
               "vision": "The document is shown in {pages} page image(s).\n\nQuestion: {question_text}\n\n{instructions}"}

    def __init__(self, world: str, qkind: str, target_tokens: int = DEFAULT_TOKENS) -> None:
        if world not in BUILDERS:
            raise ValueError(f"unknown world {world!r}; expected one of {sorted(BUILDERS)}")
        if qkind not in KINDS:
            raise ValueError(f"unknown question kind {qkind!r}; expected one of {sorted(KINDS)}")
        if not 500 <= target_tokens <= 2_000_000:
            raise ValueError(f"target_tokens must be in [500, 2000000], got {target_tokens}")
        self.world, self.qkind, self.target_tokens = world, qkind, target_tokens
        self.name = f"{world}-{qkind}"
        self.description = f"{qkind} question over a generated {world} document"

    def configure(self, *, target_tokens: int | None = None) -> "DocQAFamily":
        """`env_config: {target_tokens: 32000}`: the document's length, distractors around the evidence."""
        return DocQAFamily(self.world, self.qkind, target_tokens or self.target_tokens)

    # -- the draw -----------------------------------------------------------------------------------
    def sample(self, rng: random.Random, kind: str) -> Doc:
        vision = kind == "vision"
        target = rng.randrange(NAMES_TOTAL)
        world = BUILDERS[self.world](rng, entity_name(target))
        style = "text" if vision else rng.choice(STYLES)
        date_format = rng.choice(DATE_FORMATS)
        similar = rng.choice([0.3, 0.7, 1.0])
        evidence = world_sections(world, style, date_format, evidence=True)
        used = sum(len(s.title) + len(s.body) for s in evidence)
        budget = 0 if vision else max(0, chars_for(self.target_tokens) - used)
        sections = place(rng, evidence, fill(rng, BUILDERS[self.world], target, budget, style, date_format, similar))
        document = "\n".join(s.text(style) for s in sections)
        question = self._question(rng, world, document)
        pages = ()
        if vision:
            from .pages import render_pages  # imported on use: registering stays cheap

            pages = tuple(render_pages(document))
        return Doc(document, question, style, similar, tuple(i for i, s in enumerate(sections) if s.evidence), pages)

    def _question(self, rng: random.Random, world, document: str) -> Question:
        """Draw until the world offers this kind of question and its computed answer is not in the text."""
        for _ in range(100):
            q = KINDS[self.qkind](rng, world)
            if q is not None and not any(appears(s, document) for s in q.secrets if len(s) >= 4):
                return q
        raise RuntimeError(f"{self.name}: no {self.qkind} question for this {self.world} world after 100 draws")

    # -- the task -------------------------------------------------------------------------------------
    def fields(self, p: Doc) -> dict:
        return {"question_text": p.question.text, "instructions": INSTRUCTIONS, "pages": len(p.pages)}

    def prompt(self, p: Doc, kind: str):
        text = super().prompt(p, kind)
        if kind != "vision":
            return text
        return [{"role": "user", "content": [{"type": "image"} for _ in p.pages] + [{"type": "text", "text": text}]}]

    def images(self, p: Doc, kind: str) -> list[bytes]:
        return list(p.pages)

    def hidden(self, p: Doc, kind: str) -> AnswerHidden:
        return AnswerHidden(answer=p.question.answer, answer_type=p.question.answer_type)

    def reference(self, p: Doc, kind: str) -> str:
        return f"\\boxed{{{p.question.shown}}}"

    def metadata(self, p: Doc, kind: str) -> dict:
        q = p.question
        return {"world": self.world, "question_kind": self.qkind, "style": p.style, "hops": q.hops,
                "distractor_similarity": p.similar, "approx_tokens": approx_tokens(p.document),
                "evidence_sections": list(p.evidence_sections)}

    def wrong(self, p: Doc, kind: str) -> list[Variant]:
        """The question's own wrong answers (a wrong number, scale, sign, item, day), a hedge
        between the right answer and a wrong one, and 'unanswerable' for an answerable question."""
        from rlhub_answer.matchers import match_answer

        q = p.question
        # only those the verifier really rejects: a "wrong scale" of 0 is still 0
        wrong = [(note, w) for note, w in q.wrong if not match_answer(w, q.answer, q.answer_type, _CFG).passed]
        out = [Variant(_slug(note), f"\\boxed{{{w}}}", note=note) for note, w in wrong]
        if wrong:
            out.append(Variant("hedge", f"\\boxed{{{q.shown} or {wrong[0][1]}}}", note="two answers at once"))
        if q.answer_type != "unanswerable":
            out.append(Variant("unanswerable", f"\\boxed{{{UNANSWERABLE}}}", note="gave up on an answerable question"))
        return out

    def right(self, p: Doc, kind: str) -> list[str]:
        """The answer in the other markers models use, and written the other ways it may be written."""
        q = p.question
        forms = [f"<answer>{q.shown}</answer>", f"Reasoning done.\n\nFinal answer: {q.shown}"]
        if q.answer_type in ("number", "percent") and "," in q.shown:
            forms.append(f"\\boxed{{{q.shown.replace(',', '')}}}")  # without thousands separators
        if q.answer_type == "percent":
            forms.append(f"\\boxed{{{q.shown}\\%}}")
        if q.answer_type == "list":
            forms.append("\\boxed{" + "; ".join(reversed(q.answer)) + "}")  # order is free
        if q.answer_type == "yesno":
            forms.append(f"\\boxed{{{q.shown.capitalize()}}}")
        return forms

    def secrets(self, p: Doc, kind: str, task) -> list[str]:
        """Computed answers must not appear in the prompt; looked-up ones legitimately do."""
        return list(p.question.secrets)


def _slug(note: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", note.lower()).strip("_")
