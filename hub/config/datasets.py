"""Environments declared in registry.yaml straight from a dataset (JSONL, Parquet, CSV or Hub id).

Rows are loaded with `datasets` (memory-mapped Arrow, so a large file costs little) and
addressed by row index: the label is `{"env": ..., "row": i}`.
"""

from __future__ import annotations

import random
from functools import cached_property
from pathlib import Path
from typing import Any

from ..assets import AssetError, AssetRef, is_url, local
from ..core.env import Environment
from ..core.errors import RegistryError
from .registry import DatasetSource
from ..core.task import Label, Task

_FORMATS = {".jsonl": "json", ".json": "json", ".parquet": "parquet", ".csv": "csv"}


class _Row(dict):
    """format_map helper: a missing column is a clear error, not a KeyError traceback."""

    def __missing__(self, key: str) -> Any:
        raise KeyError(key)


class DatasetEnvironment(Environment):
    def __init__(self, env_id: str, source: DatasetSource, where: str = "", prepare_row=None) -> None:
        super().__init__(env_id)
        self.source = source
        self.where = where
        self.prepare_row = prepare_row  # a preset's row -> row (derived columns), applied before columns and templates

    @cached_property
    def rows(self):
        import datasets

        src = self.source
        datasets.disable_progress_bars()
        try:
            if src.path is not None:
                name = AssetRef.parse(src.path).name if is_url(src.path) else src.path
                fmt = src.format or _FORMATS.get(Path(name).suffix.lower())
                if fmt is None:
                    raise RegistryError(f"{self.where}: cannot tell the format of {src.path!r}; set dataset.format")
                ds = datasets.load_dataset(fmt, data_files=self._local(src.path), split="train")
            else:
                ds = datasets.load_dataset(src.hf, split=src.split)
        except RegistryError:
            raise
        except Exception as exc:
            raise RegistryError(f"{self.where}: cannot load dataset for {self.id}: {type(exc).__name__}: {exc}") from None
        available = set(ds.column_names) | ({"assets"} if src.assets else set())
        if self.prepare_row is not None and len(ds):  # columns a preset derives from each row count as there
            available |= set(self._prepared(dict(ds[0]), 0))
        missing = sorted(set(src.columns.values()) - available)
        if missing:
            raise RegistryError(
                f"{self.where}: dataset.columns name column(s) {missing} that {src.path or src.hf} does not have "
                f"(it has {ds.column_names})"
            )
        return ds

    @property
    def num_tasks(self) -> int:  # type: ignore[override]
        return len(self.rows)

    def label(self, index: int) -> Label:
        return Label(env=self.id, row=index)

    def _local(self, value: str) -> str:
        """A local path, or a pinned URL fetched into the asset cache (a fetch that fails or does not
        match its pin is the registry entry's error)."""
        try:
            return local(value)
        except AssetError as exc:
            raise RegistryError(f"{self.where}: dataset {self.id}: {exc}") from None

    @cached_property
    def assets(self) -> str | None:
        """The entry's `assets` folder on this machine (an archive URL: extracted once per node)."""
        return self._local(self.source.assets) if self.source.assets else None

    def _with_assets(self, row: dict) -> dict:
        """The row, with the entry's `assets` folder as the column 'assets' (where the row has none)."""
        if self.source.assets:
            row.setdefault("assets", self.assets)
        return row

    def _prepared(self, row: dict, index: int) -> dict:
        """The row with the entry's assets and what its preset derives; a row the preset cannot take
        (a repository missing from the assets, say) is the user's error, named with its row."""
        row = self._with_assets(row)
        if self.prepare_row is None:
            return row
        try:
            return self.prepare_row(row)
        except (ValueError, KeyError, TypeError, OSError) as exc:
            raise RegistryError(f"{self.where}: dataset {self.id}, row {index}: {exc}") from None

    def generate(self, rng: random.Random, index: int) -> Task:
        row = _Row(self._prepared(dict(self.rows[index]), index))
        fields = {role: row[column] for role, column in self.source.columns.items()}
        prompt = fields.pop("prompt")
        given_reference = fields.pop("reference", None)  # the reference is not the verifier's data
        try:
            if self.source.prompt_template:
                prompt = self.source.prompt_template.format_map(_Row(row, prompt=prompt))
            reference = (
                self.source.reference_template.format_map(row)
                if self.source.reference_template
                else str(given_reference if given_reference is not None else fields.get("answer", ""))
            )
        except KeyError as exc:
            raise RegistryError(f"{self.where}: template names column {exc} that the dataset does not have") from None
        return Task(prompt=prompt, hidden=fields, reference=reference, metadata={"row": index})
