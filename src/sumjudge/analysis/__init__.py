"""What the numbers of finished runs say: two runs compared item by item (:mod:`.compare`), a
judge's agreement with people's ratings (:mod:`.agreement`), and a run's rates corrected for the
judge's errors from people's labels (:mod:`.corrected`). The names below are imported on first
use (:mod:`sumjudge._lazy`).
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(["ComparisonResult", "compare_runs"], ".compare"),
    **dict.fromkeys(["RunItems", "read_result_file"], ".run_items"),
    **dict.fromkeys(["AgreementReport", "measure_agreement"], ".agreement"),
    **dict.fromkeys(["Correction", "correct_run", "correction_from_store"], ".corrected"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .agreement import AgreementReport, measure_agreement
    from .compare import ComparisonResult, compare_runs
    from .corrected import Correction, correct_run, correction_from_store
    from .run_items import RunItems, read_result_file

__all__ = ["AgreementReport", "ComparisonResult", "Correction", "RunItems", "compare_runs", "correct_run",
           "correction_from_store", "measure_agreement", "read_result_file"]
