"""Document QA as task families (hub.core.family): one family per (world, question kind), shown
as text or as page images; the document length is a family option (`env_config: {target_tokens}`)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache

from hub import Variant
from hub.core.family import Family
from rlhub_answer.plugin import AnswerConfig, AnswerHidden

from .distractors import fill, place
from .questions import ABSTAIN_EVERY, ABSTAINING, KINDS, UNANSWERABLE, Question, fmt_answer, printed
from .render import DATE_FORMATS, STYLES, Section, world_sections
from .tokens import approx_tokens, chars_for
from .worlds import BUILDERS
from .worlds.common import NAMES_TOTAL, entity_name

INSTRUCTIONS = (
    "Answer the question using only the document. Think step by step if you need to, then give your final "
    "answer as \\boxed{...}. If the document does not contain the information needed, answer "
    f"\\boxed{{{UNANSWERABLE}}}."
)
DEFAULT_TOKENS = 3000
WORLD_DRAWS = 10  # worlds drawn for one task before giving up on a question kind


class NoQuestion(RuntimeError):
    """The world offers no question of the family's kind."""
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
    # What the tool versions build their longer document from (never shown by the text kinds):
    # the sections in order, the target entity (no filler is about it), the world's title.
    sections: tuple[Section, ...] = field(default=(), compare=False, repr=False)
    target: int = 0
    date_format: str = ""
    title: str = ""


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
    def abstains(self, index: int) -> bool:
        """Whether task `index` asks about an item the document never states: one in ten of the
        abstaining kinds, by index, so that every ten consecutive tasks hold exactly one."""
        return self.qkind in ABSTAINING and index % ABSTAIN_EVERY == 1

    def draw(self, rng: random.Random, kind: str, index: int = 0) -> Doc:
        return self.sample(rng, kind, self.abstains(index))

    def sample(self, rng: random.Random, kind: str, abstain: bool = False) -> Doc:
        """A document and its question; a world that offers no such question (every ranking of
        it is a positional guess) is drawn again."""
        for _ in range(WORLD_DRAWS - 1):
            try:
                return self._sample(rng, kind, abstain)
            except NoQuestion:
                continue
        return self._sample(rng, kind, abstain)

    def _sample(self, rng: random.Random, kind: str, abstain: bool) -> Doc:
        vision = kind == "vision"
        target = rng.randrange(NAMES_TOTAL)
        world = BUILDERS[self.world](rng, entity_name(target))
        world.unprinted = unprinted(self.world, world)
        world.fixed_tables = fixed_tables(self.world)
        style = "text" if vision else rng.choice(STYLES)
        date_format = rng.choice(DATE_FORMATS)
        similar = rng.choice([0.3, 0.7, 1.0])
        evidence = world_sections(world, style, date_format, evidence=True)
        used = sum(len(s.title) + len(s.body) for s in evidence)
        budget = 0 if vision else max(0, chars_for(self.target_tokens) - used)
        sections = place(rng, evidence, fill(rng, BUILDERS[self.world], target, budget, style, date_format, similar))
        document = "\n".join(s.text(style) for s in sections)
        question = self._question(rng, world, document, abstain)
        pages = ()
        if vision:
            from .pages import render_pages  # imported on use: registering stays cheap

            pages = tuple(render_pages(document))
        return Doc(document, question, style, similar, tuple(i for i, s in enumerate(sections) if s.evidence), pages,
                   tuple(sections), target, date_format, world.title)

    def _question(self, rng: random.Random, world, document: str, abstain: bool) -> Question:
        """Draw until the world offers this kind of question and its computed answer is not in the text."""
        program = KINDS[self.qkind]
        for _ in range(100):
            q = program(rng, world, abstain=True) if abstain else program(rng, world)
            if q is not None and not any(appears(s, document) for s in q.secrets if len(s) >= 4):
                return q
        raise NoQuestion(f"{self.name}: no {self.qkind} question for this {self.world} world after 100 draws")

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
        return p.question.hidden()

    def reference(self, p: Doc, kind: str) -> str:
        return f"\\boxed{{{p.question.shown}}}"

    def metadata(self, p: Doc, kind: str) -> dict:
        q = p.question
        return {"world": self.world, "question_kind": self.qkind, "style": p.style, "hops": q.hops,
                "distractor_similarity": p.similar, "approx_tokens": approx_tokens(p.document),
                "evidence_sections": list(p.evidence_sections)}

    def wrong(self, p: Doc, kind: str) -> list[Variant]:
        """The question's own wrong answers (a wrong number, scale, sign, unit, item, day, a yes/no
        without its number), two answers at once (in one marker, and in two markers), and
        'unanswerable' for an answerable question."""
        from rlhub_answer.matchers import match_answer

        q = p.question
        # only those the verifier really rejects: a "wrong scale" of 0 is still 0
        wrong = [(note, w) for note, w in q.wrong
                 if not match_answer(w, q.answer, q.answer_type, _CFG, q.hidden().spec()).passed]
        out = [Variant(_slug(note), f"\\boxed{{{w}}}", note=note,
                       max_reward=0.0 if note == "the whole table" else None) for note, w in wrong]
        if wrong:
            out.append(Variant("hedge", f"\\boxed{{{q.shown} or {wrong[0][1]}}}", note="two answers at once"))
            out.append(Variant("hedge_markers", f"\\boxed{{{q.shown}}}\n\nFinal answer: {wrong[0][1]}",
                               note="the right answer boxed, a wrong one as the final line", max_reward=0.0))
        if q.answer_type != "unanswerable":
            out.append(Variant("unanswerable", f"\\boxed{{{UNANSWERABLE}}}", note="gave up on an answerable question"))
        return out

    def right(self, p: Doc, kind: str) -> list[str]:
        """The answer in the other markers models use, restated in a sentence after the box, and
        written the other ways the question invites (its unit, currency, percent sign, noun)."""
        q = p.question
        forms = [f"<answer>{q.shown}</answer>", f"Reasoning done.\n\nFinal answer: {q.shown}",
                 f"\\boxed{{{q.shown}}}\n\n**Answer:** that is {q.shown}, as the table shows."]
        forms += [f"\\boxed{{{f}}}" for f in q.forms]
        return forms

    def cheap(self, p: Doc, kind: str) -> dict[str, list[str]]:
        """Answers that read next to nothing: a random number of the table the question is about
        (as printed, and scaled to the full amount), every label of the table as a list, its first
        and last labels, a random row with one of its values; and for a ranking or a list, rows
        by their position in print with the question's column (the first two, rows 2 and 3, the
        last two, in either order; the first or last k); and the gold other tasks of the same
        question wording had (memorised per wording, also with its years moved to this document's:
        a deadline a fixed period after December 31 of the title's year, a ratio of fixed shares)."""
        from .wording import memorised, policies

        remembered = policies(memorised(self.world, self.qkind), p.question.text, p.title)
        table = p.question.table
        if table is None:
            return remembered
        return {**self._table_guesses(table), **self._positional(p.question), **remembered}

    @staticmethod
    def _positional(q: Question) -> dict[str, list[str]]:
        if q.column is None or q.table is None:
            return {}
        table, col = q.table, q.column
        at = table.columns.index(col)
        rows = [f"{r}: {printed(table, col, v[at])}" for r, v in table.items() if v[at] is not None]
        out = {}
        if len(rows) >= 4:
            for name, (i, j) in {"rows 1 and 2": (0, 1), "the last two rows": (-2, -1)}.items():
                out[name] = [f"\\boxed{{{rows[i]}; {rows[j]}}}"]
                out[name + ", reversed"] = [f"\\boxed{{{rows[j]}; {rows[i]}}}"]
            # any other fixed position is chance (the rows a ranking reads are printed in an order
            # drawn per document): one policy, two adjacent rows at random
            out["two adjacent rows at random"] = [f"\\boxed{{{a}; {b}}}" for x, y in zip(rows, rows[1:])
                                                  for a, b in ((x, y), (y, x))]
        for k in (3, 4):
            if len(rows) > k:
                out[f"the first {k} rows"] = [f"\\boxed{{{'; '.join(rows[:k])}}}"]
                out[f"the last {k} rows"] = [f"\\boxed{{{'; '.join(rows[-k:])}}}"]
        return out

    @staticmethod
    def _table_guesses(table) -> dict[str, list[str]]:
        cells = [v for _, values in table.rows for v in values if v is not None]
        scale = 1000 if table.unit == "usd_k" else 1
        labels = [r for r, _ in table.rows]
        named = [f"{r}: {printed(table, c, v)}" for r, values in table.rows for c, v in zip(table.columns, values)
                 if v is not None]  # a row with one of its values, as printed
        boxed = lambda text: f"\\boxed{{{text}}}"
        return {"a random number of the table": [boxed(fmt_answer(v)) for v in cells],
                "a random number of the table, scaled": [boxed(fmt_answer(v * scale)) for v in cells],
                "every label of the table": [boxed("; ".join(labels))],
                "the table's first label": [boxed(labels[0])], "the table's last label": [boxed(labels[-1])],
                "a random row with one of its values": [boxed(x) for x in named],
                "the first two rows with a value each": [boxed(f"{named[0]}; {named[len(table.columns)]}")]
                if len(named) > len(table.columns) else []}

    def secrets(self, p: Doc, kind: str, task) -> list[str]:
        """Computed answers must not appear in the prompt; looked-up ones legitimately do."""
        return list(p.question.secrets)


@lru_cache(maxsize=None)
def _rows_by_draw(kind: str) -> dict[int, list[tuple[str, ...]]]:
    """Per table, the rows (in print order) of each of a fixed set of documents of this kind."""
    out: dict[int, list[tuple[str, ...]]] = {}
    for seed in range(16):
        world = BUILDERS[kind](random.Random(0x5EED + seed), entity_name(seed))
        for i, table in enumerate(world.tables):
            out.setdefault(i, []).append(tuple(r for r, _ in table.items()))
    return out


@lru_cache(maxsize=None)
def printed_rows(kind: str) -> dict[int, frozenset[str]]:
    """The row names documents of this kind print, per table."""
    return {i: frozenset(r for rows in draws for r in rows) for i, draws in _rows_by_draw(kind).items()}


@lru_cache(maxsize=None)
def fixed_tables(kind: str) -> frozenset[int]:
    """The tables every document of this kind prints with the same rows in the same order (a
    statement of operations, a datasheet's parameters): a ranking or list over one is the form's
    structure, the same rows every time, so those questions are never asked of them."""
    return frozenset(i for i, draws in _rows_by_draw(kind).items() if len(set(draws)) == 1)


def unprinted(kind: str, world) -> list[tuple[str, int]]:
    """Rows other documents of this kind print in a table that this document does not print
    anywhere: absent items whose names the model has seen answered elsewhere."""
    here = {r for t in world.tables for r, _ in t.rows}
    return [(name, i) for i, names in printed_rows(kind).items() if i < len(world.tables)
            for name in sorted(names - here)]


def _slug(note: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", note.lower()).strip("_")
