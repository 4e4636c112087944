"""The dataset card of a release: YAML metadata a search can read, and a page a person can."""

from __future__ import annotations

from pathlib import Path

from huggingface_hub import DatasetCard, DatasetCardData

from . import TAG


def write_card(path: Path, plugin, cat) -> None:
    envs = [{"id": e.id, "domain": e.domain, "verifier": e.identity.name, "reward_range": [0.0, 1.0],
             "max_turns": e.max_turns, "tags": list(e.tags)} for e in cat.envs.values()]
    verifiers = sorted({(e.identity.name, e.identity.distribution, e.identity.version) for e in cat.envs.values()})
    data = DatasetCardData(
        license=plugin.license.lower() if plugin.license != "unknown" else None,  # the Hub uses lower-case SPDX ids
        tags=[TAG, "rlhub", *sorted({e.domain for e in cat.envs.values()})],
        pretty_name=plugin.distribution,
        configs=[{"config_name": "sample", "data_files": "data/sample.parquet"}],
        rlhub={
            "distribution": plugin.distribution,
            "version": plugin.version,
            "environments": envs,
            "verifiers": [{"name": n, "distribution": d, "version": v} for n, d, v in verifiers],
        },
    )
    rows = "\n".join(f"| `{e['id']}` | {e['verifier']} | {e['max_turns']} |" for e in envs)
    body = (
        f"# {plugin.distribution} {plugin.version}\n\n{plugin.description}\n\n"
        "An [rlhub](https://pypi.org/project/rlhub/) environment plugin. Install it with\n\n"
        f"```\nrlhub install ORG/NAME@v{plugin.version} --trust\n```\n\n"
        "(replace ORG/NAME with this repository's id). Every file is listed with its sha256 in "
        "`rlhub-manifest.json`.\n\n"
        f"| environment | verifier | max turns |\n|---|---|---|\n{rows}\n"
    )
    card = DatasetCard.from_template(data, template_str="---\n{{ card_data }}\n---\n\n" + body)
    path.write_text(str(card))
