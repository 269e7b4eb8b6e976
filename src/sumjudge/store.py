"""The run store: every batch run and every finished item, in SQLite, committed as each item finishes.

A run is identified by a *key*: a hash of the judge model, the scoring options and the data's
fingerprint. Running the same command on the same data finds the run with that key and resumes
it: items already finished are not judged again. Items that failed are recorded with their error
and are tried again on the next run (a failure is not a finished item).

Stdlib ``sqlite3`` on the event-loop thread is enough here: one writer, one small row per finished
item, WAL journal with ``synchronous=NORMAL``, so a commit costs well under a millisecond and a
killed process (SIGKILL) loses nothing that was committed (only a power loss may drop the last
few commits). ``aiosqlite`` would only add a thread hop per write.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

DEFAULT_STORE_PATH = Path(".sumjudge") / "runs.db"

ItemStatus = Literal["ok", "error"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    key TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    status TEXT NOT NULL,
    model TEXT NOT NULL,
    options TEXT NOT NULL,
    data TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    total_items INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_key ON runs(key, created_at);
CREATE TABLE IF NOT EXISTS items (
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    row_number INTEGER NOT NULL,
    status TEXT NOT NULL,
    score REAL,
    alignment_score REAL,
    coverage_score REAL,
    calls INTEGER NOT NULL DEFAULT 0,
    tokens INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    record TEXT NOT NULL,
    finished_at REAL NOT NULL,
    PRIMARY KEY (run_id, item_id)
);
"""


def run_key(model: str, options: dict[str, Any], fingerprint: str) -> str:
    """What makes two runs "the same command on the same data"."""
    blob = json.dumps({"model": model, "options": options, "data": fingerprint}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


@dataclass(frozen=True)
class RunRecord:
    id: str
    key: str
    created_at: float
    updated_at: float
    status: str
    model: str
    options: dict[str, Any]
    data: str
    fingerprint: str
    total_items: int
    ok: int = 0
    errors: int = 0
    mean_score: float | None = None

    @property
    def done(self) -> int:
        return self.ok + self.errors


@dataclass(frozen=True)
class ItemRecord:
    item_id: str
    row_number: int
    status: ItemStatus
    score: float | None
    record: dict[str, Any]
    """The JSON line written to ``--out`` for this item."""


class RunStore:
    """A SQLite file holding runs and their items. Use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path = DEFAULT_STORE_PATH) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None)  # autocommit: each write commits
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- runs ---------------------------------------------------------------------------------

    def open_run(
        self,
        *,
        model: str,
        options: dict[str, Any],
        data: str,
        fingerprint: str,
        total_items: int,
        resume: bool = True,
    ) -> tuple[RunRecord, bool]:
        """The run for this command and data: the latest one with the same key when ``resume``,
        else a new one. Returns ``(run, resumed)``."""
        key = run_key(model, options, fingerprint)
        if resume:
            row = self._db.execute(
                "SELECT id FROM runs WHERE key = ? ORDER BY created_at DESC LIMIT 1", (key,)
            ).fetchone()
            if row is not None:
                self._db.execute(
                    "UPDATE runs SET status = 'running', updated_at = ?, data = ? WHERE id = ?",
                    (time.time(), data, row["id"]),
                )
                return self.get_run(row["id"]), True
        run_id = time.strftime("%Y%m%d-%H%M%S") + "-" + uuid.uuid4().hex[:6]
        now = time.time()
        self._db.execute(
            "INSERT INTO runs (id, key, created_at, updated_at, status, model, options, data, fingerprint,"
            " total_items) VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)",
            (run_id, key, now, now, model, json.dumps(options, sort_keys=True), data, fingerprint, total_items),
        )
        return self.get_run(run_id), False

    def finish_run(self, run_id: str, status: str = "finished") -> None:
        self._db.execute("UPDATE runs SET status = ?, updated_at = ? WHERE id = ?", (status, time.time(), run_id))

    def get_run(self, ref: str) -> RunRecord:
        """A run by id, unique id prefix, or ``latest``; raises ``KeyError`` naming what was asked."""
        if ref == "latest":
            rows = self._db.execute("SELECT id FROM runs ORDER BY created_at DESC LIMIT 1").fetchall()
        else:
            rows = self._db.execute(
                "SELECT id FROM runs WHERE id = ? UNION SELECT id FROM runs WHERE id LIKE ? ESCAPE '\\' LIMIT 2",
                (ref, ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"),
            ).fetchall()
            exact = [r for r in rows if r["id"] == ref]
            rows = exact or rows
        if not rows:
            raise KeyError(f"no run {ref!r} in {self.path}")
        if len(rows) > 1:
            raise KeyError(f"{ref!r} matches more than one run in {self.path}; give more of the id")
        return self._run_from_row(self._db.execute(self._RUN_QUERY + " WHERE r.id = ?", (rows[0]["id"],)).fetchone())

    def list_runs(self, limit: int | None = None) -> list[RunRecord]:
        sql = self._RUN_QUERY + " ORDER BY r.created_at DESC"
        params: tuple[Any, ...] = ()
        if limit is not None:
            sql += " LIMIT ?"
            params = (limit,)
        return [self._run_from_row(r) for r in self._db.execute(sql, params)]

    _RUN_QUERY = (
        "SELECT r.*,"
        " (SELECT COUNT(*) FROM items i WHERE i.run_id = r.id AND i.status = 'ok') AS ok,"
        " (SELECT COUNT(*) FROM items i WHERE i.run_id = r.id AND i.status = 'error') AS errors,"
        " (SELECT AVG(score) FROM items i WHERE i.run_id = r.id AND i.status = 'ok') AS mean_score"
        " FROM runs r"
    )

    @staticmethod
    def _run_from_row(row: sqlite3.Row) -> RunRecord:
        return RunRecord(
            id=row["id"],
            key=row["key"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            status=row["status"],
            model=row["model"],
            options=json.loads(row["options"]),
            data=row["data"],
            fingerprint=row["fingerprint"],
            total_items=row["total_items"],
            ok=row["ok"],
            errors=row["errors"],
            mean_score=row["mean_score"],
        )

    # -- items --------------------------------------------------------------------------------

    def record_item(self, run_id: str, row_number: int, record: dict[str, Any]) -> None:
        """Commit one finished (or failed) item. ``record`` is its ``--out`` line."""
        usage = record.get("usage") or {}
        failed = record.get("error") is not None
        self._db.execute(
            "INSERT OR REPLACE INTO items (run_id, item_id, row_number, status, score, alignment_score,"
            " coverage_score, calls, tokens, error, record, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                run_id,
                str(record["id"]),
                row_number,
                "error" if failed else "ok",
                record.get("score"),
                record.get("alignment_score"),
                record.get("coverage_score"),
                int(usage.get("calls", 0)),
                int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0)),
                record.get("error"),
                json.dumps(record, ensure_ascii=False),
                time.time(),
            ),
        )

    def finished_ids(self, run_id: str) -> set[str]:
        """Ids of the items that finished without error (these are not judged again)."""
        return {r[0] for r in self._db.execute("SELECT item_id FROM items WHERE run_id = ? AND status = 'ok'", (run_id,))}

    def iter_items(self, run_id: str, *, status: ItemStatus | None = None) -> Iterator[ItemRecord]:
        """The run's items in input order, streamed from the database."""
        sql = "SELECT item_id, row_number, status, score, record FROM items WHERE run_id = ?"
        params: tuple[Any, ...] = (run_id,)
        if status is not None:
            sql += " AND status = ?"
            params += (status,)
        sql += " ORDER BY row_number"
        for r in self._db.execute(sql, params):
            yield ItemRecord(
                item_id=r["item_id"],
                row_number=r["row_number"],
                status=r["status"],
                score=r["score"],
                record=json.loads(r["record"]),
            )

    def stats(self, run_id: str) -> RunStats:
        """The run's figures, with the 95% bootstrap interval of each mean (items resampled, seeded)."""
        rows = self._db.execute(
            "SELECT score, alignment_score, coverage_score FROM items WHERE run_id = ? AND status = 'ok'"
            " ORDER BY score",
            (run_id,),
        ).fetchall()
        scores = [r[0] for r in rows]
        agg = self._db.execute(
            "SELECT AVG(alignment_score), AVG(coverage_score), SUM(tokens), SUM(calls),"
            " SUM(status = 'error'), SUM(COALESCE(json_extract(record, '$.usage.cached_tokens'), 0))"
            " FROM items WHERE run_id = ?",
            (run_id,),
        ).fetchone()
        return RunStats.from_sorted_scores(
            scores,
            mean_alignment=agg[0],
            mean_coverage=agg[1],
            tokens=agg[2] or 0,
            calls=agg[3] or 0,
            errors=agg[4] or 0,
            alignment=[r[1] for r in rows if r[1] is not None],
            coverage=[r[2] for r in rows if r[2] is not None],
            cached_tokens=agg[5] or 0,
        )


@dataclass(frozen=True)
class RunStats:
    """The end-of-run figures: over items that finished without error."""

    count: int
    errors: int
    mean: float | None
    median: float | None
    p10: float | None
    mean_alignment: float | None
    mean_coverage: float | None
    zero_scores: int
    tokens: int
    calls: int
    min_score: float | None = None
    """The lowest item score (``--min-item-score``)."""
    mean_ci: tuple[float, float] | None = None
    """95% bootstrap interval of ``mean`` (items resampled, seeded); ``None`` under two items."""
    alignment_ci: tuple[float, float] | None = None
    coverage_ci: tuple[float, float] | None = None
    confidence: float = 0.95
    cached_tokens: int = 0
    """Prompt tokens the provider served from its prompt cache (part of ``tokens``)."""

    @classmethod
    def from_sorted_scores(
        cls,
        scores: list[float],
        *,
        mean_alignment: float | None,
        mean_coverage: float | None,
        tokens: int,
        calls: int,
        errors: int,
        alignment: list[float] | None = None,
        coverage: list[float] | None = None,
        cached_tokens: int = 0,
    ) -> RunStats:
        """``alignment`` and ``coverage`` (per-item values) give those means their intervals."""
        from .stats import CONFIDENCE, mean_interval

        def ci(values: list[float] | None) -> tuple[float, float] | None:
            if not values:
                return None
            est = mean_interval(values)
            return None if est.ci_low is None or est.ci_high is None else (est.ci_low, est.ci_high)

        n = len(scores)
        return cls(
            count=n,
            errors=errors,
            mean=sum(scores) / n if n else None,
            median=_quantile(scores, 0.5),
            p10=_quantile(scores, 0.1),
            mean_alignment=mean_alignment,
            mean_coverage=mean_coverage,
            zero_scores=sum(1 for s in scores if s == 0),
            tokens=tokens,
            calls=calls,
            min_score=scores[0] if scores else None,
            mean_ci=ci(scores),
            alignment_ci=ci(alignment),
            coverage_ci=ci(coverage),
            confidence=CONFIDENCE,
            cached_tokens=cached_tokens,
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "errors": self.errors,
            "mean": self.mean,
            "mean_ci_low": self.mean_ci[0] if self.mean_ci else None,
            "mean_ci_high": self.mean_ci[1] if self.mean_ci else None,
            "median": self.median,
            "p10": self.p10,
            "min": self.min_score,
            "mean_alignment": self.mean_alignment,
            "mean_alignment_ci_low": self.alignment_ci[0] if self.alignment_ci else None,
            "mean_alignment_ci_high": self.alignment_ci[1] if self.alignment_ci else None,
            "mean_coverage": self.mean_coverage,
            "mean_coverage_ci_low": self.coverage_ci[0] if self.coverage_ci else None,
            "mean_coverage_ci_high": self.coverage_ci[1] if self.coverage_ci else None,
            "confidence": self.confidence,
            "zero_scores": self.zero_scores,
            "total_tokens": self.tokens,
            "cached_tokens": self.cached_tokens,
            "judge_calls": self.calls,
        }


def _quantile(sorted_values: list[float], q: float) -> float | None:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not sorted_values:
        return None
    pos = (len(sorted_values) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)
