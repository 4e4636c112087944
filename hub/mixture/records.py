"""One prompt record per label, the same in `rlhub sample`'s file and `rlhub train`'s datasets:
OpenRLHF's prompt format (`--data.input_key input --data.label_key label`) plus the environment
id as `datasource` (OpenRLHF reports evaluation metrics per data source), and `tools`: the OpenAI
function schemas the prompt's episode offers, for the chat template (`apply_chat_template(input,
tools=tools)`), [] for a text environment so that every row has the same keys. Answers never appear."""

from __future__ import annotations

from typing import Any, Iterable, Iterator


def prompt_record(catalog, label: str) -> dict[str, Any]:
    task = catalog.task(label)
    return {"input": task.prompt, "label": label, "datasource": task.env_id, "tools": catalog.tools(label, task)}


def prompt_records(catalog, labels: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The records of `labels`, in order. The environments hear of every label first
    (`Catalog.prepare`): costly shared work, such as drawing images, starts at once, in parallel."""
    labels = list(labels)
    catalog.prepare(labels)
    for label in labels:
        yield prompt_record(catalog, label)
