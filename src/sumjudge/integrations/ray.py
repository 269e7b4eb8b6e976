"""Score a Ray Data dataset over a pool of actors, on a laptop or a cluster (extra ``ray``).

::

    import ray
    from sumjudge.integrations.ray import score_dataset

    ray.init()                                   # local; ray.init("ray://head:10001") or RAY_ADDRESS for a cluster
    ds = ray.data.read_parquet("summaries.parquet")
    scored = score_dataset(ds, model="vllm/Qwen/Qwen2.5-7B-Instruct", concurrency=4)
    scored.write_parquet("scored/")

Each actor builds one scorer when it starts and keeps it for every batch it gets, so its question
cache and its HTTP client pool live as long as the actor. Rows are sorted by a hash of their
source first (``group_by_source``), so the summaries of one document reach the same batch and
their questions are asked once. A row that cannot be scored (a cell that is not text, a judge
that keeps failing) comes back with its ``error`` set; nothing is raised out of the job.

The output keeps the input's columns and adds the result columns of
:data:`sumjudge.data.tables.ROW_COLUMNS` (``id`` is the ``id_col`` value as text, ``None`` without
one). Rows come back grouped by source, not in input order: join on your id.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
from collections.abc import Mapping
from typing import Any

from ..errors import ConfigurationError, MissingDependencyError
from ..evals import run_evals
from ..judges.base import JudgeModel, ModelConfig
from ..data.tables import ROW_COLUMNS, describe, is_missing, result_row
from ..data.parquet import rows_table

RAY_INSTALL = "pip install 'sumjudge[ray]'"
SOURCE_KEY = "__sumjudge_source_key"
"""The column that ``group_by_source`` sorts on (dropped from the output)."""


def import_ray() -> Any:
    """The ``ray`` module with Ray Data, or :class:`MissingDependencyError` naming the extra."""
    try:
        ray = importlib.import_module("ray")
        importlib.import_module("ray.data")
    except ImportError as exc:
        raise MissingDependencyError(f"Ray Data ({exc})", RAY_INSTALL) from exc
    return ray


class ScoreBatches:
    """The callable class Ray Data runs in each actor: one scorer and one event loop per actor."""

    def __init__(
        self,
        model: str | ModelConfig | JudgeModel | None,
        options: Any,
        source_col: str,
        summary_col: str,
        id_col: str | None,
        item_concurrency: int,
    ) -> None:
        from ..summarization import create_summarization_scorer

        self.scorer = create_summarization_scorer(model, options)
        self.source_col, self.summary_col, self.id_col = source_col, summary_col, id_col
        self.item_concurrency = item_concurrency
        self.loop = asyncio.new_event_loop()  # one loop for the actor's life: its client pool survives batches

    def __call__(self, batch: Any) -> Any:
        """A pandas batch in; an Arrow table out: the batch's columns plus the result columns."""
        pa = importlib.import_module("pyarrow")
        records = batch.to_dict("records")
        rows = self.loop.run_until_complete(self._score(records))
        inputs = pa.Table.from_pandas(batch.drop(columns=[c for c in batch.columns if c in _DROPPED]),
                                      preserve_index=False)
        results = rows_table(rows)
        for name in results.column_names:
            inputs = inputs.append_column(name, results.column(name))
        return inputs

    async def _score(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        rows: list[dict[str, Any] | None] = [None] * len(records)
        items: list[dict[str, Any]] = []
        for i, record in enumerate(records):
            item_id = _text_id(record.get(self.id_col)) if self.id_col else None
            problem = _cell_problem(record, (self.source_col, self.summary_col))
            if problem is not None:
                rows[i] = result_row(item_id, error=f"InputError: {problem}")
            else:
                items.append({"i": i, "id": item_id, "input": record[self.source_col],
                              "output": record[self.summary_col]})
        try:
            done = await run_evals(items, [self.scorer], concurrency=self.item_concurrency, on_error="record")
            for res in done.items:
                result = None if res.error else res.results[self.scorer.id]
                rows[res.item["i"]] = result_row(res.item["id"], result, error=res.error)
        except Exception as exc:  # never out of the job: every row of the batch carries the error
            for item in items:
                rows[item["i"]] = result_row(item["id"], error=f"{type(exc).__name__}: {exc}")
        return [r if r is not None else result_row(None, error="not scored") for r in rows]


_DROPPED = {SOURCE_KEY, *ROW_COLUMNS}


def _cell_problem(record: Mapping[str, Any], columns: tuple[str, ...]) -> str | None:
    for name in columns:
        value = record.get(name)
        if is_missing(value) or not isinstance(value, str):
            return f"column {name!r} must be text, got {describe(value)}"
    return None


def _text_id(value: Any) -> str | None:
    if is_missing(value):
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _add_source_key(source_col: str) -> Any:
    def add(batch: Any) -> Any:
        batch[SOURCE_KEY] = [
            hashlib.sha256(s.encode("utf-8", "replace")).hexdigest()[:16] if isinstance(s, str) else ""
            for s in batch[source_col]
        ]
        return batch

    return add


def score_dataset(
    ds: Any,
    *,
    model: str | ModelConfig | JudgeModel | None = None,
    options: Any = None,
    concurrency: int = 2,
    source_col: str = "source",
    summary_col: str = "summary",
    id_col: str | None = "id",
    batch_size: int = 64,
    item_concurrency: int = 8,
    group_by_source: bool = True,
    num_cpus: float = 0.5,
) -> Any:
    """Score a ``ray.data.Dataset``; returns a lazy Dataset of the input columns plus result columns.

    ``model`` and ``options`` are those of ``create_summarization_scorer``; each of the
    ``concurrency`` actors builds its own scorer from them. Each actor judges
    ``item_concurrency`` items of a batch at a time (the requests in flight are at most
    ``concurrency * item_concurrency``: size it to what the judge serves, not to the CPUs).
    ``num_cpus`` is what Ray reserves per actor; an LLM judge leaves the actor idle while it
    waits, so a fraction (``0.25``) packs more actors per machine.
    """
    ray = import_ray()
    for name, value in (("concurrency", concurrency), ("batch_size", batch_size), ("item_concurrency", item_concurrency)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigurationError(f"{name} must be an integer >= 1, got {value!r}")
    columns = ds.columns()
    missing = [c for c in (source_col, summary_col) if c not in columns]
    if missing:
        raise ConfigurationError(f"the dataset has no column {missing[0]!r} (it has: {', '.join(map(repr, columns))})")
    clash = [c for c in columns if c in ROW_COLUMNS and c != id_col]
    if clash:
        raise ConfigurationError(
            f"input columns {clash} would be overwritten by result columns; rename or drop them first"
        )
    if id_col is not None and id_col not in columns:
        id_col = None
    if group_by_source:
        ds = ds.map_batches(_add_source_key(source_col), batch_format="pandas").sort(SOURCE_KEY)
    return ds.map_batches(
        ScoreBatches,
        fn_constructor_kwargs={
            "model": model,
            "options": options,
            "source_col": source_col,
            "summary_col": summary_col,
            "id_col": id_col,
            "item_concurrency": item_concurrency,
        },
        compute=ray.data.ActorPoolStrategy(size=concurrency),
        batch_size=batch_size,
        batch_format="pandas",
        num_cpus=num_cpus,
    )


__all__ = ["ScoreBatches", "score_dataset"]
