"""Score a pandas DataFrame (or a Hugging Face ``Dataset``) and get a DataFrame back (extras ``pandas``, ``hf``).

::

    from sumjudge import create_summarization_scorer
    from sumjudge.integrations.pandas import score_frame

    results = score_frame(df, create_summarization_scorer(), source_col="article", summary_col="summary")
    df.join(results)        # same index as df: one row per item

The whole table is checked before the first judge call, the way ``sumjudge score`` checks a
file: a missing column, a cell that is not text, a bad or duplicate id raises ``InputError``
naming the column and the row. An item whose judge keeps failing is recorded with its error
and the others go on. The result has one row per item, in the table's order and with its index:
the columns of :data:`sumjudge.data.tables.ROW_COLUMNS` (verdicts in nested columns).
"""

from __future__ import annotations

import numbers
from typing import Any

from .._aio import run_sync
from ..errors import InputError
from ..evals import Scorer, run_evals
from ..data.tables import (
    check_columns,
    describe,
    import_pandas,
    is_dataframe,
    is_hf_dataset,
    is_missing,
    result_row,
    row_label,
    rows_frame,
    table_rows,
)

DEFAULT_ID_COL = "id"


def frame_items(
    data: Any,
    *,
    source_col: str = "source",
    summary_col: str = "summary",
    id_col: str | None = DEFAULT_ID_COL,
) -> list[dict[str, Any]]:
    """The items of a table, every row checked: ``{"id", "input": source, "output": summary}``.

    Ids are strings, as in the run store: the ``id_col`` value when the row has one, else the
    1-based row number (``id_col`` left at ``"id"`` and no such column: row numbers; any other
    ``id_col`` must exist). Raises :class:`InputError` naming the column and the row.
    """
    if not (is_dataframe(data) or is_hf_dataset(data)):
        raise InputError(f"expected a pandas DataFrame or a datasets.Dataset, got {type(data).__name__}")
    what = "DataFrame" if is_dataframe(data) else "Dataset"
    check_columns(data, [source_col, summary_col], what=what)
    if id_col is not None and id_col != DEFAULT_ID_COL:
        check_columns(data, [id_col], what=what)
    items: list[dict[str, Any]] = []
    seen: set[str] = set()
    for position, row in enumerate(table_rows(data)):
        texts = []
        for name in (source_col, summary_col):
            value = row[name]
            if is_missing(value) or not isinstance(value, str):
                raise InputError(f"{what} {row_label(data, position)}: column {name!r} must be text, got {describe(value)}")
            texts.append(value)
        item_id = _item_id(row.get(id_col) if id_col else None, position)
        if item_id is None:
            raise InputError(
                f"{what} {row_label(data, position)}: column {id_col!r} must be text or an integer, "
                f"got {describe(row.get(id_col))}"
            )
        if item_id in seen:
            raise InputError(f"{what} {row_label(data, position)}: duplicate id {item_id!r} in column {id_col!r}")
        seen.add(item_id)
        items.append({"id": item_id, "input": texts[0], "output": texts[1]})
    return items


def _item_id(raw: Any, position: int) -> str | None:
    """The id of a row; ``None`` when the cell holds something that cannot be an id."""
    if is_missing(raw) or (isinstance(raw, str) and not raw):
        return str(position + 1)
    if isinstance(raw, bool):
        return None
    if isinstance(raw, str):
        return raw
    if isinstance(raw, numbers.Integral):
        return str(int(raw))
    if isinstance(raw, float) and raw.is_integer():  # an int column with gaps reads as float
        return str(int(raw))
    return None


async def score_frame_async(
    data: Any,
    scorer: Scorer,
    *,
    source_col: str = "source",
    summary_col: str = "summary",
    id_col: str | None = DEFAULT_ID_COL,
    concurrency: int = 8,
) -> Any:
    """Score every row of a DataFrame or ``Dataset``; a DataFrame with one row per item.

    The async form of :func:`score_frame`.
    """
    pd = import_pandas()
    items = frame_items(data, source_col=source_col, summary_col=summary_col, id_col=id_col)
    evals = await run_evals(items, [scorer], concurrency=concurrency, on_error="record")
    rows = [
        result_row(done.item["id"], None if done.error else done.results[scorer.id], error=done.error)
        for done in evals.items
    ]
    index = data.index if is_dataframe(data) else pd.RangeIndex(len(items))
    return rows_frame(rows, index=index)


def score_frame(
    data: Any,
    scorer: Scorer,
    *,
    source_col: str = "source",
    summary_col: str = "summary",
    id_col: str | None = DEFAULT_ID_COL,
    concurrency: int = 8,
) -> Any:
    """Score every row of a DataFrame (or a Hugging Face ``Dataset``); a DataFrame with one row per item.

    ``source_col`` and ``summary_col`` name the text columns; ``id_col`` the ids (default
    ``"id"``, else the row number). ``concurrency`` items are judged at a time. The result has
    the table's index (``df.join(results)`` lines them up) and the columns of
    :data:`sumjudge.data.tables.ROW_COLUMNS`. Works inside a running event loop (Jupyter) too.
    """
    return run_sync(
        lambda: score_frame_async(
            data, scorer, source_col=source_col, summary_col=summary_col, id_col=id_col, concurrency=concurrency
        )
    )


__all__ = ["frame_items", "score_frame", "score_frame_async"]
