"""Rows in, rows and files out: the one reader of data files (JSONL, JSON, CSV, TSV, Parquet; every
field checked before the first judge call), DataFrames and Hugging Face datasets as rows, result rows as
tables and Parquet, and the one writer of files (refuses inputs and stores, writes through a rename).

Nothing here knows of judges or scorers. The names below are imported on first use (:mod:`sumjudge._lazy`).
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(["Dataset", "DatasetInfo", "Fields", "FORMATS"], ".datasets"),
    **dict.fromkeys(["AtomicFile", "OutputPlan", "check_paths"], ".files"),
    **dict.fromkeys(["write_frame", "write_rows"], ".parquet"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .datasets import FORMATS, Dataset, DatasetInfo, Fields
    from .files import AtomicFile, OutputPlan, check_paths
    from .parquet import write_frame, write_rows

__all__ = ["FORMATS", "AtomicFile", "Dataset", "DatasetInfo", "Fields", "OutputPlan", "check_paths", "write_frame", "write_rows"]
