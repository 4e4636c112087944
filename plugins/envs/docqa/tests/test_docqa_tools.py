"""The tool kinds: an episode played through search, read and answer (to 1.0, and not without the
right value), every misuse of a tool answered with an error the episode goes on after, and the
tool document: the twin's sections kept in order inside a longer one, no computed answer in it."""

import json
import re

import pytest

import hub
from hub.tools import ToolCall
from rlhub_docqa.env import appears
from rlhub_docqa.plugin import env_ids
from rlhub_docqa.tooldoc import MAX_QUERY_CHARS, PAGE_CHARS


def label(env: str, seed: int) -> str:
    return json.dumps({"env": env, "seed": seed})


@pytest.fixture(scope="module")
def cat():
    return hub.load()


def test_a_tool_kind_for_every_text_and_long_kind():
    tools = env_ids(tools=True)
    text = [i for i in env_ids() if "-vision-" not in i]
    assert sorted(tools) == sorted(i.removesuffix("-v1") + "-tools-v1" for i in text) and len(tools) >= 100


@pytest.mark.parametrize("env, seed", [("docqa/financials-lookup-tools-v1", 0), ("docqa/invoices-list-tools-v1", 2)])
def test_played_to_full_reward_by_reading_what_search_finds(cat, env, seed):
    lab = label(env, seed)
    task, renv = cat.task(lab), cat.get(env)
    shown = task.reference.removeprefix("\\boxed{").removesuffix("}")
    assert shown not in task.prompt and "<document>" not in task.prompt
    assert [t["function"]["name"] for t in cat.tools(lab)] == ["search", "read_page", "read_section", "answer"]
    question = task.prompt.split("Question: ")[1].split("\n")[0]
    table = re.search(r'in the table "([^"]+)"', question, re.I).group(1)
    with cat.episode(lab) as ep:
        ep.reset()
        found = ep.step([ToolCall("search", {"query": " ".join(re.findall(r'"([^"]+)"', question))})])
        hits = found.tool_results[0].content.splitlines()[1:]
        top = next(h for h in hits if f"[{table}]" in h)  # the question's table, not another company's
        page = int(re.match(r"p\. (\d+) ", top).group(1))
        read = ep.step([ToolCall("read_page", {"page": page}), ToolCall("read_section", {"name": table})])
        page_text, section = (r.content for r in read.tool_results)
        assert not read.done and f"[page {page} of " in page_text and section.startswith(f"[section {table!r}")
        items = [i.split(": ")[-1] for i in shown.split("; ")]  # a list's values, or the lookup's amount
        if env.endswith("lookup-tools-v1"):  # printed in thousands, negatives in parentheses
            items = [f"({abs(int(shown.replace(',', ''))) // 1000:,})"]
        assert all(i in section for i in items), (items, section[:400])
        end = ep.step([ToolCall("answer", {"text": shown})])
    assert end.done and end.verdict.reward == 1.0 and end.verdict.passed
    assert end.tool_results[0].content == "answer recorded: reward 1 (passed)"
    assert renv.identity == cat.get(renv.env.text_twin).identity


def test_bad_pages_empty_queries_and_unknown_sections_are_tool_errors(cat):
    lab = label("docqa/budget-count-tools-v1", 3)
    pages = cat.task(lab).metadata["pages"]
    bad = [ToolCall("read_page", {"page": p}) for p in (0, -1, pages + 1, 10**12)] + [
        ToolCall("read_page", {"page": "two"}), ToolCall("read_page", {"page": 1.5}), ToolCall("read_page", {}),
        ToolCall("search", {"query": ""}), ToolCall("search", {"query": "  \n\t"}), ToolCall("search", {"query": "!!! ??"}),
        ToolCall("search", {"query": "cost " * 65}), ToolCall("search", {"query": "x" * (MAX_QUERY_CHARS + 1)}),
        ToolCall("search", {"query": None}),
        ToolCall("read_section", {"name": ""}), ToolCall("read_section", {"name": "no such section anywhere"}),
        ToolCall("read_section", {"name": ": overview"})]  # every document's overview: which one?
    with cat.episode(lab) as ep:
        ep.reset()
        step = ep.step(bad)
        assert not step.done and all(r.is_error for r in step.tool_results), [r.content for r in step.tool_results if not r.is_error]
        says = [r.content for r in step.tool_results]
        assert f"the pages are numbered 1 to {pages}" in says[0] and f"there is no page {pages + 1}" in says[2]
        assert all("no words to search for" in s for s in says[7:10]) and "at most 64 words" in says[10]
        assert f"a query has at most {MAX_QUERY_CHARS}" in says[11]
        assert "sections have ': overview' in their title" in says[15] and "give one title in full" in says[15]
        assert "no section is titled 'no such section anywhere'" in says[14] and len(says) == 16
        nothing = ep.step([ToolCall("search", {"query": "zzzqqq"}), ToolCall("answer", {"text": ["1", "2"]})])
        assert not nothing.done and nothing.tool_results[1].is_error
        assert nothing.tool_results[0].content.startswith("no line matches") and not nothing.tool_results[0].is_error
        end = ep.step([ToolCall("answer", {"text": "0"})])
    assert end.done and end.verdict.reward == 0.0 and end.verdict.error is None
    assert end.verdict.details["tools"]["errors"] == {"tool_refused": 12, "bad_arguments": 5}


def test_the_tool_document_holds_the_twin_s_in_order_and_no_computed_answer(cat):
    for env, seed in [("docqa/financials-percent-change-tools-v1", 4), ("docqa/sla-ratio-tools-v1", 5)]:
        tool_env, twin = cat.get(env).env, cat.get(env.replace("-tools-v1", "-v1")).env
        doc, twin_task = tool_env.document(seed), cat.task(label(twin.id, seed))
        text = "\n".join(line.text for line in doc.lines)
        twin_text = twin_task.prompt.split("<document>\n")[1].split("\n</document>")[0]
        assert len(text) > 8 * len(twin_text) and doc.page_count > 30
        assert all(len(line.text) <= PAGE_CHARS for line in doc.lines)
        ours = {id(s) for s in tool_env.params(seed).sections}
        kept = [s.text(twin_task.metadata["style"]) for s in doc.sections if id(s) in ours]
        assert "\n".join(kept) == twin_text  # every section of the twin's, in its order
        for secret in twin.secrets(twin_task):
            assert not appears(secret, text)
        assert tool_env.document(seed) is doc and cat.task(label(env, seed)).hidden == twin_task.hidden
