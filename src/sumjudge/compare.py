"""The import path ``sumjudge.compare`` of sumjudge 0.1, kept so that code written against it still runs.
The comparison lives in :mod:`sumjudge.analysis`; new code imports from there."""

from .analysis.compare import ComparisonResult, compare_runs
from .analysis.run_items import RunItems, read_result_file

__all__ = ["ComparisonResult", "RunItems", "compare_runs", "read_result_file"]
