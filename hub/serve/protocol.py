"""OpenRLHF's remote reward protocol: the request body, validated, and the response body.

Request:  {"query": [str...], "prompts": [str...], "labels": [str|object...]}
          ("queries" is accepted for "query"; "prompts" may be omitted: the query is the response)
Response: {"rewards": [float...], "scores": [float...], "extra_logs": {"rlhub/<flag>": [float...]},
           "request_id": str, "errors": [str|null...]}
The flags are those of `hub.rewards.reply`, so both reward paths log the same keys.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..rewards import Outcome, log_key, reply


class BadRequest(ValueError):
    """The body is not a reward request; answered with HTTP 400 and this message."""


@dataclass
class RewardBatch:
    queries: list[str]
    prompts: list[str]
    labels: list[Any]

    def __len__(self) -> int:
        return len(self.queries)


def _strings(obj: dict, key: str) -> list[str]:
    value = obj[key]
    if not isinstance(value, list):
        raise BadRequest(f"'{key}' must be a list of strings, got {type(value).__name__}")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise BadRequest(f"'{key}[{i}]' must be a string, got {type(item).__name__}")
    return value


def parse_body(raw: bytes) -> RewardBatch:
    try:
        obj = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadRequest(f"body is not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise BadRequest(f"body must be a JSON object with 'query', 'prompts', 'labels', got {type(obj).__name__}")
    if "query" not in obj and "queries" in obj:
        obj["query"] = obj.pop("queries")
    missing = [k for k in ("query", "labels") if k not in obj]
    if missing:
        raise BadRequest(f"body lacks {', '.join(repr(m) for m in missing)} (expected 'query', 'prompts', 'labels')")
    unknown = set(obj) - {"query", "prompts", "labels"}
    if unknown:
        raise BadRequest(f"unexpected key(s) {sorted(unknown)} (expected 'query', 'prompts', 'labels')")
    queries = _strings(obj, "query")
    prompts = _strings(obj, "prompts") if obj.get("prompts") is not None else [""] * len(queries)
    labels = obj["labels"]
    if not isinstance(labels, list):
        raise BadRequest(f"'labels' must be a list, got {type(labels).__name__}")
    if not (len(queries) == len(prompts) == len(labels)):
        raise BadRequest(f"'query', 'prompts' and 'labels' must have the same length, got "
                         f"{len(queries)}, {len(prompts)}, {len(labels)}")
    return RewardBatch(queries, prompts, labels)


def response_body(outcomes: list[Outcome], request_id: str) -> dict[str, Any]:
    body = reply(outcomes)
    body["extra_logs"][log_key("retried")] = [float(o.attempts > 1) for o in outcomes]
    return {**body, "request_id": request_id, "errors": [o.error for o in outcomes]}
