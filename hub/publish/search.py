"""`rlhub search`: environment repositories on the Hub, by tag, with what their cards declare."""

from __future__ import annotations

from . import TAG


def search(query: str | None = None, limit: int = 50) -> list[dict]:
    from huggingface_hub import HfApi

    rows = []
    for info in HfApi().list_datasets(filter=TAG, search=query, limit=limit):
        rows.append({"repo": info.id, "tags": [t for t in (info.tags or []) if t != TAG],
                     "last_modified": str(info.last_modified or "")})
    return rows


def card(repo: str) -> dict:
    from huggingface_hub import DatasetCard

    data = DatasetCard.load(repo, repo_type="dataset").data.to_dict()
    meta = data.get("rlhub", {})
    return {"repo": repo, "license": data.get("license"), "distribution": meta.get("distribution"),
            "version": meta.get("version"), "environments": meta.get("environments", []),
            "verifiers": meta.get("verifiers", [])}
