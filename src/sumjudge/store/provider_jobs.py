"""Provider batch jobs of a run, in the run store: which requests each job holds, where it stands,
and what came back, so that a killed process picks its jobs up again and submits nothing twice.

Two tables beside the runs, created the first time a run uses ``--batch`` (a store that never did
opens unchanged):

- ``provider_jobs``: one row per job, keyed by the client's own ``marker`` (written *before* the
  upload, state ``uploading``), with the provider's ``job_id`` once the provider accepted it, its state
  and request counts as last polled, its round, and when its results were stored (``collected_at``);
- ``provider_requests``: one row per request of a job (``custom_id``), with its outcome
  (``succeeded`` / ``errored`` / ``expired`` / ``canceled``), the reply body, and the tokens it used.

It uses its own connection to the run store's file (WAL: the item writes and these do not wait on
each other), each write committed at once.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import StoreError
from ..judges.base import Usage
from ..judges.batch.protocol import ENDED, JobStatus, LineResult

_SCHEMA = """
CREATE TABLE IF NOT EXISTS provider_jobs (
    marker TEXT PRIMARY KEY,
    run_id TEXT NOT NULL,
    provider TEXT NOT NULL,
    job_id TEXT,
    input_file TEXT,
    round INTEGER NOT NULL,
    state TEXT NOT NULL,
    requests INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    errors TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    collected_at REAL
);
CREATE INDEX IF NOT EXISTS provider_jobs_run ON provider_jobs(run_id);
CREATE TABLE IF NOT EXISTS provider_requests (
    run_id TEXT NOT NULL,
    custom_id TEXT NOT NULL,
    marker TEXT NOT NULL,
    step TEXT NOT NULL,
    outcome TEXT,
    reply TEXT,
    error TEXT,
    prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, custom_id)
);
"""


@dataclass(frozen=True)
class JobRecord:
    """A job as the store last saw it."""

    marker: str
    run_id: str
    provider: str
    job_id: str | None
    round: int
    state: str
    requests: int
    done: int
    failed: int
    errors: str | None
    created_at: float
    updated_at: float
    collected_at: float | None

    @property
    def collected(self) -> bool:
        return self.collected_at is not None

    @property
    def ended(self) -> bool:
        return self.state in ENDED


@dataclass(frozen=True)
class StoredOutcome:
    """What the store knows of one request: the job it is in, and its outcome once collected."""

    marker: str
    outcome: str | None
    reply: dict[str, Any] | None
    error: str | None

    def as_result(self, custom_id: str) -> LineResult:
        return LineResult(custom_id, self.outcome, body=self.reply, error=self.error)  # type: ignore[arg-type]


@dataclass(frozen=True)
class BatchUsage:
    """Tokens of a run's requests that batch jobs answered (billed at the batch price)."""

    jobs: int
    rounds: int
    requests: int
    succeeded: int
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int


class ProviderJobs:
    """The provider batch jobs recorded in one run store (a context manager)."""

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        try:
            if readonly:
                uri = "file:" + str(self.path.resolve())
                try:
                    self._db = sqlite3.connect(uri + "?mode=ro", uri=True, isolation_level=None)
                    found = self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'provider_jobs'").fetchone()
                except sqlite3.OperationalError:  # a WAL store in a folder we cannot write
                    self._db = sqlite3.connect(uri + "?immutable=1", uri=True, isolation_level=None)
                    found = self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'provider_jobs'").fetchone()
                self._has_tables = bool(found)
            else:
                self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.executescript(_SCHEMA)
                self._has_tables = True
        except sqlite3.Error as exc:
            raise StoreError(f"the run store {self.path} cannot hold batch jobs ({exc})") from None
        self._db.row_factory = sqlite3.Row

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ProviderJobs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- jobs ---------------------------------------------------------------------------------

    def add_job(
        self, run_id: str, marker: str, provider: str, round_no: int, requests: Sequence[tuple[str, str]]
    ) -> None:
        """Record a job about to be submitted (state ``uploading``) with its ``(custom_id, step)`` requests,
        in one transaction: committed before anything goes to the provider."""
        now = time.time()
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO provider_jobs (marker, run_id, provider, round, state, requests, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, 'uploading', ?, ?, ?)",
                (marker, run_id, provider, round_no, len(requests), now, now),
            )
            self._db.executemany(
                "INSERT OR REPLACE INTO provider_requests (run_id, custom_id, marker, step) VALUES (?, ?, ?, ?)",
                [(run_id, cid, marker, step) for cid, step in requests],
            )

    def set_submitted(self, marker: str, job_id: str, input_file: str | None = None) -> None:
        self._db.execute(
            "UPDATE provider_jobs SET job_id = ?, input_file = ?, state = 'validating', updated_at = ? WHERE marker = ?",
            (job_id, input_file, time.time(), marker),
        )

    def drop_job(self, marker: str) -> None:
        """Forget a job that never reached the provider: its requests are free to be sent again."""
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM provider_requests WHERE marker = ?", (marker,))
            self._db.execute("DELETE FROM provider_jobs WHERE marker = ?", (marker,))

    def set_status(self, marker: str, status: JobStatus) -> None:
        self._db.execute(
            "UPDATE provider_jobs SET state = ?, done = ?, failed = ?, errors = COALESCE(?, errors), updated_at = ?"
            " WHERE marker = ?",
            (status.state, status.done, status.failed, status.errors, time.time(), marker),
        )

    def record_results(self, marker: str, results: Iterable[tuple[LineResult, Usage]]) -> None:
        """Every request's outcome and the job marked collected, in one transaction."""
        with self._db:
            self._db.execute("BEGIN")
            self._db.executemany(
                "UPDATE provider_requests SET outcome = ?, reply = ?, error = ?, prompt_tokens = ?,"
                " completion_tokens = ?, cached_tokens = ? WHERE marker = ? AND custom_id = ?",
                [
                    (
                        r.outcome, None if r.body is None else json.dumps(r.body, ensure_ascii=False), r.error,
                        u.prompt_tokens, u.completion_tokens, u.cached_tokens, marker, r.custom_id,
                    )
                    for r, u in results
                ],
            )
            self._db.execute(
                "UPDATE provider_jobs SET collected_at = ?, updated_at = ? WHERE marker = ?",
                (time.time(), time.time(), marker),
            )

    def jobs(self, run_id: str) -> list[JobRecord]:
        if not self._has_tables:
            return []
        rows = self._db.execute(
            "SELECT marker, run_id, provider, job_id, round, state, requests, done, failed, errors, created_at,"
            " updated_at, collected_at FROM provider_jobs WHERE run_id = ? ORDER BY created_at",
            (run_id,),
        )
        return [JobRecord(**dict(r)) for r in rows]

    def job(self, marker: str) -> JobRecord:
        row = self._db.execute(
            "SELECT marker, run_id, provider, job_id, round, state, requests, done, failed, errors, created_at,"
            " updated_at, collected_at FROM provider_jobs WHERE marker = ?",
            (marker,),
        ).fetchone()
        return JobRecord(**dict(row))

    def custom_ids(self, marker: str) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT custom_id FROM provider_requests WHERE marker = ?", (marker,))]

    def forget_exhausted(self, run_id: str, last_attempt: int) -> None:
        """Forget the requests a job never answered in any attempt (``<id>``, ``<id>-r1`` ... up to
        ``-r{last_attempt}`` all failed): the command that sent them recorded their items as failed, and
        a new command retries failed items as a live run does. A chain still in flight (a killed
        process) is kept, so nothing is sent twice."""
        if not self._has_tables:
            return
        pattern = f"%-r{last_attempt}" if last_attempt else "%"
        rows = self._db.execute(
            "SELECT custom_id FROM provider_requests WHERE run_id = ? AND outcome IS NOT NULL"
            " AND outcome != 'succeeded' AND custom_id LIKE ?",
            (run_id, pattern),
        ).fetchall()
        with self._db:
            self._db.execute("BEGIN")
            for (cid,) in rows:
                if not last_attempt and "-r" in cid:
                    continue
                first = cid.rsplit("-r", 1)[0] if last_attempt else cid
                self._db.execute(
                    "DELETE FROM provider_requests WHERE run_id = ? AND (custom_id = ? OR custom_id LIKE ?)",
                    (run_id, first, first + "-r%"),
                )

    # -- requests -----------------------------------------------------------------------------

    def lookup(self, run_id: str, custom_ids: Iterable[str]) -> dict[str, StoredOutcome]:
        """What the store knows of these requests (those it has never seen are left out)."""
        found: dict[str, StoredOutcome] = {}
        ids = list(custom_ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = self._db.execute(
                f"SELECT custom_id, marker, outcome, reply, error FROM provider_requests WHERE run_id = ?"
                f" AND custom_id IN ({','.join('?' * len(chunk))})",
                (run_id, *chunk),
            )
            for r in rows:
                reply = json.loads(r["reply"]) if r["reply"] else None
                found[r["custom_id"]] = StoredOutcome(r["marker"], r["outcome"], reply, r["error"])
        return found

    def usage(self, run_id: str) -> BatchUsage | None:
        """The run's batch figures, or ``None`` when it used no batch job."""
        if not self._has_tables:
            return None
        jobs = self._db.execute(
            "SELECT COUNT(*), COUNT(DISTINCT round) FROM provider_jobs WHERE run_id = ? AND job_id IS NOT NULL",
            (run_id,),
        ).fetchone()
        if not jobs[0]:
            return None
        agg = self._db.execute(
            "SELECT COUNT(*), SUM(outcome = 'succeeded'), SUM(prompt_tokens), SUM(completion_tokens),"
            " SUM(cached_tokens) FROM provider_requests WHERE run_id = ?",
            (run_id,),
        ).fetchone()
        return BatchUsage(
            jobs=jobs[0], rounds=jobs[1], requests=agg[0] or 0, succeeded=agg[1] or 0,
            prompt_tokens=agg[2] or 0, completion_tokens=agg[3] or 0, cached_tokens=agg[4] or 0,
        )


__all__ = ["BatchUsage", "JobRecord", "ProviderJobs", "StoredOutcome"]
