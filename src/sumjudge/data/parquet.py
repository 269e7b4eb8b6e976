"""Result rows as Arrow tables and Parquet files (extra ``parquet``: pyarrow).

Every table-shaped result has the columns of :data:`sumjudge.data.tables.ROW_COLUMNS`; here they get
one fixed Arrow schema, so files written from different runs, batches or Ray blocks have the
same types even when a batch holds only failures or only empty verdict lists (which Arrow would
otherwise read as lists of nulls)::

    from sumjudge.data.parquet import write_rows
    write_rows("results.parquet", rows)
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import InputError, MissingDependencyError
from .tables import ROW_COLUMNS

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
    """The Arrow schema of result rows (:data:`sumjudge.data.tables.ROW_COLUMNS`, in order)."""
    pa = import_pyarrow()
    evidence = [("quote", pa.string()), ("quote_offsets", pa.list_(pa.int64())), ("verified", pa.bool_())]
    # "unchecked": true where the judge could not check the claim, else null
    # "differs": the words a judge shows wrong in an unsupported claim, and the passage's in their
    # place, each with its offsets where the scorer located them, else null
    difference = pa.struct([("claim", pa.string()), ("source", pa.string()),
                            ("claim_offsets", pa.list_(pa.int64())), ("source_offsets", pa.list_(pa.int64()))])
    alignment = pa.struct([("claim", pa.string()), ("supported", pa.bool_()), ("reason", pa.string()), *evidence,
                           ("unchecked", pa.bool_()), ("differs", pa.list_(difference))])
    coverage = pa.struct([("question", pa.string()), ("answered", pa.bool_()), ("reason", pa.string()), *evidence])
    types = {
        "id": pa.string(),
        "score": pa.float64(),
        "alignment_score": pa.float64(),
        "coverage_score": pa.float64(),
        "reason": pa.string(),
        "claim_count": pa.int64(),
        "supported_count": pa.int64(),
        "unchecked_count": pa.int64(),
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


def write_rows(where: str | Path | BinaryIO, rows: Iterable[Mapping[str, Any]], *, chunk: int = 1000) -> int:
    """Write result rows to one Parquet file (a path or a binary stream), ``chunk`` rows at a time,
    so a run of any size is written in flat memory. Returns the number of rows written."""
    pq = import_parquet()
    count = 0
    with pq.ParquetWriter(where if not isinstance(where, (str, Path)) else str(where), result_schema()) as writer:
        for part in _chunks(rows, chunk):
            writer.write_table(rows_table(part))
            count += len(part)
    return count


def _chunks(rows: Iterable[Mapping[str, Any]], size: int) -> Iterator[list[Mapping[str, Any]]]:
    part: list[Mapping[str, Any]] = []
    for row in rows:
        part.append(row)
        if len(part) >= size:
            yield part
            part = []
    if part:
        yield part


def write_frame(where: str | Path | BinaryIO, frame: Any) -> int:
    """Write a result DataFrame (``score_frame``, ``EvalResult.to_pandas()``) with the fixed schema."""
    return write_rows(where, frame.to_dict("records"))


def parquet_columns(path: str | Path, name: str) -> list[str]:
    """The column names of a Parquet file, as its schema lists them (a name may repeat)."""
    pq = import_parquet()
    pa = import_pyarrow()
    try:
        return list(pq.read_schema(str(path)).names)
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"{name}: not a readable Parquet file: {exc}") from None


def parquet_records(path: str | Path, name: str, batch_size: int = 1024) -> Iterator[tuple[int, str, Any]]:
    """The rows of a Parquet file as ``(row number, "", {column: value})``, read a batch at a time
    (the reader protocol of :mod:`sumjudge.data.datasets`)."""
    pq = import_parquet()
    pa = import_pyarrow()
    try:
        reader = pq.ParquetFile(str(path))
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"{name}: not a readable Parquet file: {exc}") from None
    number = 0
    try:
        for batch in reader.iter_batches(batch_size=batch_size):
            for record in batch.to_pylist():
                number += 1
                yield number, "", record
    except pa.ArrowException as exc:
        raise InputError(f"{name}: after row {number}: cannot read the Parquet file: {exc}") from None
    finally:
        reader.close()


__all__ = ["import_pyarrow", "parquet_columns", "parquet_records", "result_schema", "rows_table", "write_frame", "write_rows"]
