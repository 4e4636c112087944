"""Document QA through tools (`docqa/<world>-<kind>-tools-v1`): the prompt holds the question and
a line about the document (its title, its pages); the model searches it, reads pages or sections,
and calls `answer`, which grades with the text kind's own verifier and ends the episode.

The tasks are the text twin's (`docqa/<world>-<kind>-v1`): drawn from its seeds, with its hidden
answer and reference, graded by the same `answer_match`. The document is longer: the twin's
sections, in their order, scattered among more filler of the same kinds (other companies'
documents, boilerplate) drawn from this environment's own seed, to about TOOL_TOKENS tokens, so
that reading it all costs what retrieval saves. Filler in which a computed answer would appear is
left out. A twin that is already longer (the 128k and 1M kinds) is shown as it is.
"""

from __future__ import annotations

import re
from collections import OrderedDict

from hub import Variant
from hub.core.env import rng_for
from hub.core.family import FamilyEnvironment
from hub.core.task import Task
from hub.core.verifier import Verdict
from hub.tools import ToolCall, formats, tool
from hub.tools.episode import TOOL_INSTRUCTIONS, ToolEpisode
from rlhub_answer.extract import extract_answer

from .distractors import fill, place
from .env import Doc, appears
from .questions import UNANSWERABLE, fmt_answer, printed
from .tokens import CHARS_PER_TOKEN, chars_for
from .tooldoc import MAX_QUERY_WORDS, ToolDocument
from .worlds import BUILDERS

TOOL_TOKENS = 32_000
MAX_TURNS = 12
CONSTANTS = ("0", "1", "yes", UNANSWERABLE)  # the probe that answers without reading: the first that is wrong

PROMPT = """\
The document is not shown here: read it through the tools. It is a file of {pages} pages (about \
{tokens:,} tokens) that holds the {title} among other documents; the question is about the \
{title}. Its sections are titled, for example "{title}: overview".

Question: {question}

`search` finds the lines that best match a few keywords (each with its page and section); \
`read_page` and `read_section` show them in context. Give your final answer by calling `answer` \
with the answer alone (for example 1,250, or several items separated by semicolons); answering \
ends the episode. If the document does not contain the information needed, answer \
{unanswerable}.
{instructions}"""


class DocQAToolEpisode(ToolEpisode):
    """One task's document behind four tools; `answer` concludes."""

    document: ToolDocument

    @tool
    def search(self, query: str) -> str:
        """Search the document: the lines that best match the query's words, with their page and section.

        Args:
            query: a few keywords, e.g. a table's title and a row's name.
        """
        return self.document.search(query)

    @tool
    def read_page(self, page: int) -> str:
        """Read one page of the document.

        Args:
            page: the page number, from 1.
        """
        return self.document.read_page(page)

    @tool
    def read_section(self, name: str) -> str:
        """Read one section of the document by its title (as search results show it).

        Args:
            name: the section's title, or a part of it that only one title has.
        """
        return self.document.read_section(name)

    @tool
    def answer(self, text: str) -> str:
        """Give your final answer; this ends the episode.

        Args:
            text: the answer alone, e.g. 1,250 or "yes; -1,250" (a \\boxed{...} answer is read as well).
        """
        verdict = self.conclude(self.grade(as_response(text)), note="answered")
        return f"answer recorded: reward {verdict.reward:.3g} ({'passed' if verdict.passed else 'not passed'})"

    def last_turn(self) -> Verdict:
        verdict = Verdict(0.0, False, details={"reason": f"no answer: {self.max_turns} turns ended without a call to answer"})
        verdict.verifier = self.identity
        return verdict


def as_response(text: str) -> str:
    """The answer tool's text as a response the verifier reads: boxed, unless it already commits
    to an answer the way a text response does (\\boxed{...}, <answer>, a final-answer line)."""
    return text if extract_answer(text).text is not None else f"\\boxed{{{text}}}"


class DocQAToolEnvironment(FamilyEnvironment):
    """The tool version of one text docqa environment (its id with `-tools` before the version)."""

    max_turns = MAX_TURNS

    def __init__(self, env_id: str, family, kind: str) -> None:
        super().__init__(env_id, family, kind)
        if not env_id.endswith("-tools-v1"):
            raise ValueError(f"{env_id}: a docqa tool environment's id ends with -tools-v1")
        self.text_twin = env_id.removesuffix("-tools-v1") + "-v1"
        self._documents: OrderedDict[int, ToolDocument] = OrderedDict()

    # -- the document ---------------------------------------------------------------------------
    def document(self, index: int) -> ToolDocument:
        if index not in self._documents:
            self._documents[index] = self._build(index, self.params(index))
            while len(self._documents) > 4:
                self._documents.popitem(last=False)
        return self._documents[index]

    def _build(self, index: int, doc: Doc) -> ToolDocument:
        sections = list(doc.sections)
        budget = chars_for(TOOL_TOKENS) - sum(len(s.title) + len(s.body) for s in sections)
        if budget > 0:
            rng = rng_for(self.id, index)  # this environment's own draw: the twin's task is untouched
            world = self.family.world
            extra = fill(rng, BUILDERS[world], doc.target, budget, doc.style, doc.date_format, doc.similar)
            secrets = [s for s in doc.question.secrets if len(s) >= 4]
            extra = [s for s in extra if not any(appears(x, s.text(doc.style)) for x in secrets)]
            sections = place(rng, sections, extra)
        return ToolDocument(sections, doc.style)

    def generate(self, rng, index: int) -> Task:
        task = super().generate(rng, index)  # the twin's draw: its hidden answer and reference
        doc, document = self.params(index), self.document(index)
        tokens = document.chars // CHARS_PER_TOKEN
        task.prompt = PROMPT.format(
            pages=document.page_count, tokens=tokens, title=doc.title,
            question=doc.question.text, unanswerable=UNANSWERABLE,
            instructions=TOOL_INSTRUCTIONS.format(finish="call `answer` to finish", turns=self.max_turns,
                                                  calls=DocQAToolEpisode.max_calls_per_turn))
        task.metadata.update({"text_twin": self.text_twin, "pages": document.page_count,
                              "approx_tokens": tokens})
        return task

    tool_episode = DocQAToolEpisode  # its @tool methods are the prompt's tools

    def episode(self, task, verifier, ctx):
        ep = DocQAToolEpisode(task, verifier, ctx, max_turns=self.max_turns)
        ep.document = self.document(task.label.index)
        return ep

    def secrets(self, task: Task) -> list[str]:
        """The answer (looked up or computed: the prompt shows no document now) and the document's
        own lines about the target: none of it may reach the prompt."""
        doc = self.params(task.label.index)
        lines = [line.strip() for s in doc.sections if s.evidence for line in s.body.split("\n")]
        q = doc.question
        # what the question itself writes (the sentinel it offers, its example "no; -1,250") is asked, not leaked
        answer = [q.shown] if not appears(q.shown, q.text) and q.answer_type != "unanswerable" else []
        return [*q.secrets, *answer, *(line for line in lines if len(line) >= 16)]

    # -- plays ----------------------------------------------------------------------------------
    def evidence(self, index: int) -> tuple[str, list[int]]:
        """(a search query for what the question reads, the pages of the sections it names)."""
        doc, document = self.params(index), self.document(index)
        q = doc.question
        named = [i for i, s in enumerate(document.sections) if s.evidence and f'"{s.title}"' in q.text]
        if not named:  # a question of the overview's dates and terms
            named = [i for i, s in enumerate(document.sections) if s.evidence and s.title.endswith(": overview")]
        quoted = re.findall(r'"([^"]+)"', q.text)  # the rows and tables it names, else its question
        query = " ".join(quoted) if quoted else f"{doc.title} {q.text.split('?')[0]}"
        pages = sorted({p for i in named for p in document.pages_of(i)})
        return " ".join(query.split()[:MAX_QUERY_WORDS]), pages or [1]

    def _reading(self, index: int) -> list[list[ToolCall]]:
        query, pages = self.evidence(index)
        return [[ToolCall("search", {"query": query})], [ToolCall("read_page", {"page": p}) for p in pages[:8]]]

    def tool_turns(self, task: Task) -> list[list[ToolCall]]:
        """Search for what the question names, read the pages it is on, answer with the reference."""
        shown = self.params(task.label.index).question.shown
        return [*self._reading(task.label.index), [ToolCall("answer", {"text": shown})]]

    def episode_probes(self, task: Task) -> tuple[list[Variant], list[Variant]]:
        """Wrong plays: a constant answered without reading; another cell of the question's table
        (or the question's own wrong answer where it reads no table) answered after reading the
        right pages; reading to the last turn without answering."""
        index = task.label.index
        render = lambda turns: tuple(formats.render(t) for t in turns)
        wrong = self._wrong_values(index)
        constant = next((c for c in CONSTANTS if self._rejects(index, c)), None)
        probes = []
        if constant is not None:
            probes.append(Variant("blind_constant", constant, note=f"answered {constant!r} without reading",
                                  turns=render([[ToolCall("answer", {"text": constant})]])))
        if wrong:
            probes.append(Variant("another_value", wrong[0], note="read the right pages, answered another value",
                                  turns=render([*self._reading(index), [ToolCall("answer", {"text": wrong[0]})]])))
        query, pages = self.evidence(index)
        stall = [[ToolCall("search", {"query": query})]] + [[ToolCall("read_page", {"page": pages[0]})]] * (self.max_turns - 1)
        probes.append(Variant("never_answered", "", note=f"read for all {self.max_turns} turns, never answered",
                              turns=render(stall)))
        return probes, []

    def _rejects(self, index: int, text: str) -> bool:
        from rlhub_answer.matchers import match_answer
        from .env import _CFG

        q = self.params(index).question
        return not match_answer(text, q.answer, q.answer_type, _CFG, q.hidden().spec()).passed

    def _wrong_values(self, index: int) -> list[str]:
        """Other values of the question's table, as an answer would write them (a row with its
        value for a list), that the verifier rejects; else the question's own wrong answers."""
        q = self.params(index).question
        table, out = q.table, []
        if table is not None:
            for row, values in table.items():
                for col, v in zip(table.columns, values):
                    if v is None:
                        continue
                    out.append(f"{row}: {printed(table, col, v)}" if q.answer_type == "list"
                               else fmt_answer(v * table.scale_of(col)))
        out += [w for _, w in q.wrong]
        return [w for w in dict.fromkeys(out) if self._rejects(index, w)][:1]
