"""Result rows as Arrow tables and Parquet files (extra ``parquet``: pyarrow).

Every table-shaped result has the columns of :data:`sumjudge.tables.ROW_COLUMNS`; here they get
one fixed Arrow schema, so files written from different runs, batches or Ray blocks have the
same types even when a batch holds only failures or only empty verdict lists (which Arrow would
otherwise read as lists of nulls)::

    from sumjudge.integrations.parquet import write_rows
    write_rows("results.parquet", rows)
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..errors import MissingDependencyError
from ..tables import ROW_COLUMNS

PARQUET_INSTALL = "pip install 'sumjudge[parquet]'"


def import_pyarrow() -> Any:
    """The ``pyarrow`` module, or :class:`MissingDependencyError` with the line that installs it."""
    try:
        return importlib.import_module("pyarrow")
    except ImportError as exc:
        raise MissingDependencyError(f"pyarrow ({exc})", PARQUET_INSTALL) from exc


def import_parquet() -> Any:
    import_pyarrow()
    return importlib.import_module("pyarrow.parquet")


def result_schema() -> Any:
    """The Arrow schema of result rows (:data:`sumjudge.tables.ROW_COLUMNS`, in order)."""
    pa = import_pyarrow()
    alignment = pa.struct([("claim", pa.string()), ("supported", pa.bool_()), ("reason", pa.string())])
    coverage = pa.struct([("question", pa.string()), ("answered", pa.bool_()), ("reason", pa.string())])
    types = {
        "id": pa.string(),
        "score": pa.float64(),
        "alignment_score": pa.float64(),
        "coverage_score": pa.float64(),
        "reason": pa.string(),
        "claim_count": pa.int64(),
        "supported_count": pa.int64(),
        "question_count": pa.int64(),
        "answered_count": pa.int64(),
        "prompt_tokens": pa.int64(),
        "completion_tokens": pa.int64(),
        "total_tokens": pa.int64(),
        "calls": pa.int64(),
        "error": pa.string(),
        "alignment": pa.list_(alignment),
        "questions": pa.list_(pa.string()),
        "coverage": pa.list_(coverage),
    }
    assert tuple(types) == ROW_COLUMNS, "the Arrow schema must list every result column, in order"
    return pa.schema([(name, types[name]) for name in ROW_COLUMNS])


def rows_table(rows: Iterable[Mapping[str, Any]]) -> Any:
    """An Arrow table of result rows, with :func:`result_schema`."""
    pa = import_pyarrow()
    clean = [{name: _plain(row.get(name)) for name in ROW_COLUMNS} for row in rows]
    for row in clean:
        if row["id"] is not None:
            row["id"] = str(row["id"])
    return pa.Table.from_pylist(clean, schema=result_schema())


def _plain(value: Any) -> Any:
    """pandas' missing values (NaN, NA) and NumPy arrays as Arrow takes them."""
    if value is None:
        return None
    if isinstance(value, float) and value != value:
        return None
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return value.tolist()
    return value


def write_rows(path: str | Path, rows: Iterable[Mapping[str, Any]]) -> None:
    """Write result rows to one Parquet file."""
    import_parquet().write_table(rows_table(rows), str(path))


def write_frame(path: str | Path, frame: Any) -> None:
    """Write a result DataFrame (``score_frame``, ``EvalResult.to_pandas()``) with the fixed schema."""
    write_rows(path, frame.to_dict("records"))


__all__ = ["import_pyarrow", "result_schema", "rows_table", "write_frame", "write_rows"]
