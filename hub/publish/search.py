"""`rlhub search`: environment repositories on the Hub, by tag, with what their cards declare."""

from __future__ import annotations

import contextlib
import os
from typing import Iterator

from ..core.errors import UserError
from . import TAG


@contextlib.contextmanager
def hub_errors(what: str) -> Iterator[None]:
    """The Hub's failures (offline, unreachable, no such repository) as one UserError line."""
    from huggingface_hub.errors import (HFValidationError, HfHubHTTPError, LocalEntryNotFoundError, OfflineModeIsEnabled,
                                        RepositoryNotFoundError)

    endpoint = os.environ.get("HF_ENDPOINT", "the Hub")
    try:
        yield
    except HFValidationError as exc:
        raise UserError(f"{what}: not a repository id ({str(exc).splitlines()[0]}); expected ORG/NAME") from None
    except RepositoryNotFoundError:
        raise UserError(f"{what}: no such dataset repository on {endpoint}") from None
    except (LocalEntryNotFoundError, OfflineModeIsEnabled):
        raise UserError(f"{what}: not in the local cache and the Hub is offline (HF_HUB_OFFLINE=1); "
                        "run `rlhub prefetch` where the Hub is reachable") from None
    except HfHubHTTPError as exc:
        raise UserError(f"{what}: {endpoint} answered {str(exc).splitlines()[0]}") from None
    except OSError as exc:  # connection refused, DNS: requests' errors are OSErrors
        raise UserError(f"{what}: cannot reach {endpoint}: {type(exc).__name__}: {str(exc)[:200]}") from None


def search(query: str | None = None, limit: int = 50) -> list[dict]:
    from huggingface_hub import HfApi

    rows = []
    with hub_errors("searching the Hub"):
        for info in HfApi().list_datasets(filter=TAG, search=query, limit=limit):
            rows.append({"repo": info.id, "tags": [t for t in (info.tags or []) if t != TAG],
                         "last_modified": str(info.last_modified or "")})
    return rows


def card(repo: str) -> dict:
    from huggingface_hub import DatasetCard

    with hub_errors(repo):
        data = DatasetCard.load(repo, repo_type="dataset").data.to_dict()
    meta = data.get("rlhub", {})
    return {"repo": repo, "license": data.get("license"), "distribution": meta.get("distribution"),
            "version": meta.get("version"), "environments": meta.get("environments", []),
            "verifiers": meta.get("verifiers", [])}
