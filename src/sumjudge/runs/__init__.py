"""Running a data set through a scorer into the run store: :func:`run_dataset` (the whole
``sumjudge score``: judge built once, run opened or resumed, rows scored, outputs written, gates
judged) and the gates that decide whether a finished run passes. The names below are imported on
first use (:mod:`sumjudge._lazy`).
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(["RunEvents", "RunOutputs", "DatasetResult", "run_dataset", "run_dataset_sync"], ".dataset"),
    **dict.fromkeys(["ErrorAllowance", "Gates", "PassRate"], ".gates"),
    **dict.fromkeys(["BatchMode", "ProviderRounds"], ".provider_batch"),
    **dict.fromkeys(["ProbeResult", "make_plan", "run_probe", "run_probe_sync"], ".probe"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .dataset import RunEvents, RunOutputs, DatasetResult, run_dataset, run_dataset_sync
    from .gates import ErrorAllowance, Gates, PassRate
    from .provider_batch import BatchMode, ProviderRounds
    from .probe import ProbeResult, make_plan, run_probe, run_probe_sync

__all__ = [
    "RunEvents",
    "BatchMode",
    "RunOutputs",
    "DatasetResult",
    "ErrorAllowance",
    "Gates",
    "PassRate",
    "ProviderRounds",
    "ProbeResult",
    "make_plan",
    "run_dataset",
    "run_dataset_sync",
    "run_probe",
    "run_probe_sync",
]
