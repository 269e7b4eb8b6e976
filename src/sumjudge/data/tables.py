"""Items and results as table rows: a DataFrame or a Hugging Face ``Dataset`` in, one flat row per item out.

``run_evals`` reads a table through :func:`table_items` (each row becomes an item mapping,
its ``input``/``output`` columns checked before the first judge call), and every table-shaped
result (``EvalResult.to_pandas()``, ``score_frame``, Ray Data, Parquet export) is made of the
rows of :func:`result_row` / :func:`record_row`: id, score, both axes, reason, counts of claims
and questions, tokens, error, and the verdicts as nested columns.

Neither pandas nor ``datasets`` is imported to *recognise* a table (duck typing); pandas is
imported only to build a DataFrame, with an error that names the extra to install.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..errors import InputError, MissingDependencyError

PANDAS_INSTALL = "pip install 'sumjudge[pandas]'"

ROW_COLUMNS: tuple[str, ...] = (
    "id",
    "score",
    "alignment_score",
    "coverage_score",
    "reason",
    "claim_count",
    "supported_count",
    "unchecked_count",
    "question_count",
    "answered_count",
    "prompt_tokens",
    "completion_tokens",
    "total_tokens",
    "calls",
    "error",
    "alignment",
    "questions",
    "coverage",
)
"""The columns of a result row, in order. The last three are nested: ``alignment`` is a list of
``{claim, supported, reason, quote, quote_offsets, verified}`` (and ``unchecked: true`` where the judge
could not check the claim either way), ``questions`` a list of strings, ``coverage`` a list of
``{question, answered, reason, quote, quote_offsets, verified}`` (``None`` for an item that failed; the
evidence fields ``None`` in records made before quotes were checked)."""


def import_pandas() -> Any:
    """The ``pandas`` module, or :class:`MissingDependencyError` with the line that installs it."""
    try:
        return importlib.import_module("pandas")
    except ImportError as exc:
        raise MissingDependencyError(f"pandas ({exc})", PANDAS_INSTALL) from exc


# --------------------------------------------------------------------------------------------
# Tables in
# --------------------------------------------------------------------------------------------


def is_dataframe(data: Any) -> bool:
    """A pandas DataFrame (or anything shaped like one), recognised without importing pandas."""
    return hasattr(data, "itertuples") and hasattr(data, "columns") and hasattr(data, "index")


def is_hf_dataset(data: Any) -> bool:
    """A Hugging Face ``datasets.Dataset``, recognised without importing ``datasets``."""
    return hasattr(data, "column_names") and hasattr(data, "features") and hasattr(data, "select_columns")


def is_table(data: Any) -> bool:
    return is_dataframe(data) or is_hf_dataset(data)


def table_columns(data: Any) -> list[str]:
    return [str(c) for c in (data.columns if is_dataframe(data) else data.column_names)]


def table_rows(data: Any) -> Iterator[dict[str, Any]]:
    """Each row of a DataFrame or Dataset as a ``{column: value}`` dict, read lazily."""
    if is_dataframe(data):
        names = [str(c) for c in data.columns]
        for values in data.itertuples(index=False, name=None):
            yield dict(zip(names, values))
    else:
        for row in data:
            yield dict(row)


def row_label(data: Any, position: int) -> str:
    """How an error names the row at ``position`` (0-based): ``row N`` (1-based, as the data set tool
    counts), plus the DataFrame's index label when the index is not the default 0..n-1."""
    label = f"row {position + 1}"
    if is_dataframe(data):
        index = data.index
        if not (getattr(index, "is_monotonic_increasing", False) and _is_default_index(index)):
            label += f" (index {index[position]!r})"
    return label


def _is_default_index(index: Any) -> bool:
    start, step = getattr(index, "start", None), getattr(index, "step", None)
    return start == 0 and step == 1


def is_missing(value: Any) -> bool:
    """None, or a float NaN (pandas' missing value in an object or float column)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def describe(value: Any) -> str:
    if is_missing(value):
        return "a missing value"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"a number ({value!r})"
    return type(value).__name__


def check_columns(data: Any, needed: Sequence[str], *, what: str = "table") -> None:
    """Raise :class:`InputError` naming the first needed column the table lacks."""
    have = table_columns(data)
    for name in needed:
        if name not in have:
            shown = ", ".join(repr(c) for c in have[:20]) + (", ..." if len(have) > 20 else "")
            raise InputError(f"{what}: no column {name!r} (it has: {shown or 'no columns'})")


def table_items(data: Any, *, needed: Sequence[str]) -> Iterable[Mapping[str, Any]]:
    """``run_evals``' view of its data: a table becomes its rows, anything else is returned as is.

    For a table, the ``needed`` columns (``input``, and ``output`` without a target) are checked
    before the first judge call: a missing column, or a cell that is missing or neither text nor a
    message list/dict, raises :class:`InputError` naming the column and the row.
    """
    if not is_table(data):
        return data
    what = "DataFrame" if is_dataframe(data) else "Dataset"
    check_columns(data, needed, what=what)
    for position, row in enumerate(table_rows(data)):
        for name in needed:
            value = row[name]
            if is_missing(value) or not isinstance(value, (str, list, dict)):
                raise InputError(
                    f"{what} {row_label(data, position)}: column {name!r} must be text or messages, "
                    f"got {describe(value)}"
                )
    return table_rows(data)


# --------------------------------------------------------------------------------------------
# Results out
# --------------------------------------------------------------------------------------------


def record_row(record: Mapping[str, Any]) -> dict[str, Any]:
    """The flat row of one finished item, from its ``--out`` record (what the run store keeps)."""
    verdicts = record.get("verdicts") or None
    usage = record.get("usage") or None
    alignment = list(verdicts["alignment"]) if verdicts else None
    questions = list(verdicts["questions"]) if verdicts else None
    coverage = list(verdicts["coverage"]) if verdicts else None
    prompt = int(usage.get("prompt_tokens", 0)) if usage else None
    completion = int(usage.get("completion_tokens", 0)) if usage else None
    return {
        "id": record.get("id"),
        "score": record.get("score"),
        "alignment_score": record.get("alignment_score"),
        "coverage_score": record.get("coverage_score"),
        "reason": record.get("reason"),
        "claim_count": len(alignment) if alignment is not None else None,
        "supported_count": sum(bool(v.get("supported")) for v in alignment) if alignment is not None else None,
        "unchecked_count": sum(bool(v.get("unchecked")) for v in alignment) if alignment is not None else None,
        "question_count": len(questions) if questions is not None else None,
        "answered_count": sum(bool(v.get("answered")) for v in coverage) if coverage is not None else None,
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion if usage else None,
        "calls": int(usage.get("calls", 0)) if usage else None,
        "error": record.get("error"),
        "alignment": alignment,
        "questions": questions,
        "coverage": coverage,
    }


def result_record(item_id: Any, result: Any) -> dict[str, Any]:
    """The ``--out`` shape of one scorer result (a ``SummarizationResult`` or anything with its fields)."""
    data = result.model_dump(mode="json")
    pre = data.get("preprocess_step_result") or {}
    ana = data.get("analyze_step_result") or {}
    return {
        "id": item_id,
        "score": data.get("score"),
        "alignment_score": data.get("alignment_score"),
        "coverage_score": data.get("coverage_score"),
        "reason": data.get("reason"),
        "verdicts": {
            "alignment": pre.get("alignment", []),
            "questions": pre.get("questions", []),
            "coverage": ana.get("coverage", []),
        },
        "usage": data.get("usage") or {},
        "error": None,
    }


def result_row(item_id: Any, result: Any = None, *, error: str | None = None) -> dict[str, Any]:
    """The flat row of one item: from its scorer result, or from the error that stopped it."""
    if result is None:
        return record_row({"id": item_id, "error": error or "no result"})
    return record_row(result_record(item_id, result))


def rows_frame(rows: Iterable[Mapping[str, Any]], *, index: Any = None) -> Any:
    """A pandas DataFrame of result rows, with the :data:`ROW_COLUMNS` in order (pandas extra)."""
    pd = import_pandas()
    frame = pd.DataFrame.from_records(list(rows), columns=list(ROW_COLUMNS))
    for name in ("score", "alignment_score", "coverage_score"):
        frame[name] = frame[name].astype("float64")
    for name in ROW_COLUMNS[5:13]:  # counts and tokens: integers, missing for failed items
        frame[name] = frame[name].astype("Int64")
    if index is not None:
        frame.index = index
    return frame


__all__ = [
    "ROW_COLUMNS",
    "check_columns",
    "import_pandas",
    "is_dataframe",
    "is_hf_dataset",
    "is_table",
    "record_row",
    "result_record",
    "result_row",
    "row_label",
    "rows_frame",
    "table_items",
    "table_rows",
]
