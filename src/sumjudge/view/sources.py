"""An item's source and summary for the item page. The run store keeps verdicts, not texts: the
texts are read from the run's data file (``runs.data``, the path ``sumjudge score`` was given),
looked for where the viewer was started and beside the store's folder, and shown only when the
source's digest matches the one the run recorded (a file changed since is not shown as the one judged).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..data.datasets import Dataset, Fields
from ..errors import SumjudgeError
from ..store.records import source_digest
from ..report.evidence import highlight
from .markup import e

_KEPT = 4  # data files held in memory at once


@dataclass(frozen=True)
class Texts:
    source: str | None
    summary: str | None
    note: str
    """Why the texts are missing, or where they came from."""


class SourceFinder:
    """Reads data files once and keeps the last few (by path, size and modification time)."""

    def __init__(self, roots: list[Path]) -> None:
        self.roots = roots
        self._cache: OrderedDict[tuple[str, int, int, Fields], dict[str, tuple[str, str]]] = OrderedDict()

    def _locate(self, data: str) -> Path | None:
        p = Path(data)
        candidates = [p] if p.is_absolute() else [root / p for root in self.roots]
        return next((c for c in candidates if c.is_file()), None)

    def _rows(self, path: Path, fields: Fields) -> dict[str, tuple[str, str]]:
        st = path.stat()
        key = (str(path.resolve()), st.st_size, st.st_mtime_ns, fields)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        with Dataset(path, fields=fields) as ds:
            rows = {r.id: (r.source, r.summary) for r in ds.rows()}
        self._cache[key] = rows
        while len(self._cache) > _KEPT:
            self._cache.popitem(last=False)
        return rows

    def texts(self, data: str, item_id: str, digest: str | None, fields: Mapping[str, str] | None = None) -> Texts:
        """The item's texts from ``data``, read with the run's field names (``fields``; the defaults when the
        store recorded none)."""
        path = self._locate(data)
        if path is None:
            return Texts(None, None, f"the run's data file {data!r} is not found from here, so its texts are not shown")
        try:
            rows = self._rows(path, Fields(**fields) if fields else Fields())
        except (SumjudgeError, OSError, ValueError) as exc:
            return Texts(None, None, f"{data}: cannot be read ({exc})")
        found = rows.get(item_id)
        if found is None:
            return Texts(None, None, f"{data} holds no item {item_id!r} now")
        if digest and source_digest(found[0]) != digest:
            return Texts(None, None, f"the source of {item_id!r} in {data} changed since the run, so it is not shown")
        return Texts(found[0], found[1], f"from {os.path.relpath(path) if not path.is_absolute() else path}")


