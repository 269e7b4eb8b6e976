"""What a data set run leaves behind: the SQLite run store (:mod:`.database`), its typed records (a
finished item is a :class:`ScoredItem` or a :class:`FailedItem`), the lock that keeps one process per
run, and a run's figures. The names below are imported on first use (:mod:`sumjudge._lazy`).
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(["DEFAULT_STORE_PATH", "ItemRecord", "RunRecord", "RunStore"], ".database"),
    **dict.fromkeys(["FailedItem", "ItemOutcome", "ScoredItem"], ".records"),
    "RunStats": ".run_stats",
    **dict.fromkeys(["ItemLabel", "LabelBook", "VerdictLabel"], ".labels"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .database import DEFAULT_STORE_PATH, ItemRecord, RunRecord, RunStore
    from .records import FailedItem, ItemOutcome, ScoredItem
    from .run_stats import RunStats
    from .labels import ItemLabel, LabelBook, VerdictLabel

__all__ = [
    "DEFAULT_STORE_PATH",
    "FailedItem",
    "LabelBook",
    "ItemLabel",
    "ItemOutcome",
    "ItemRecord",
    "RunRecord",
    "RunStats",
    "RunStore",
    "ScoredItem",
    "VerdictLabel",
]
