"""The import path ``sumjudge.batch`` of sumjudge 0.1, kept so that code written against it still runs.
The batch run lives in :mod:`sumjudge.runs`; new code imports from there."""

from .runs.batch import BatchEvents, BatchOutputs, BatchResult, run_batch, run_batch_sync

__all__ = ["BatchEvents", "BatchOutputs", "BatchResult", "run_batch", "run_batch_sync"]
