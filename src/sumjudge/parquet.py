"""The import path ``sumjudge.parquet`` of sumjudge 0.1, kept so that code written against it still runs.
Parquet lives in :mod:`sumjudge.data`; new code imports from there."""

from .data.parquet import write_frame, write_rows

__all__ = ["write_frame", "write_rows"]
