"""The run store: every data set run and every finished item, in SQLite, committed as each item finishes.

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
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from ..errors import InputError, StoreError
from ..guards.limits import MAX_LISTED
from ..judges.cache import create_private_file
from .records import FailedItem, ItemOutcome, outcome_from_json
from .lock import claim_run, release_run
from .run_fields import SCHEMA as FIELDS_SCHEMA, read_fields, record_fields
from .run_stats import RunStats, read_run_stats
from .schema import check_schema, damaged_record, mark_schema, store_error
from ..data.tables import record_row, rows_frame

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
CREATE TABLE IF NOT EXISTS run_locks (
    run_id TEXT PRIMARY KEY,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    since REAL NOT NULL
);
"""


def check_listed(name: str, count: int | None) -> None:
    """:class:`InputError` for a listing count outside 1 to :data:`~sumjudge.guards.limits.MAX_LISTED`
    (SQLite takes no integer past 2**63, and no listing needs more)."""
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_LISTED):
        shown = "a larger number" if isinstance(count, int) and abs(count) >= 10**30 else repr(count)[:40]
        raise InputError(f"{name} is a whole number from 1 to {MAX_LISTED}, not {shown}")


JUDGE_OPTIONS = "judge_options"
"""The key of a run's ``options`` that holds the judge's own options (``--judge-option``, ``ModelConfig.extra``),
where it was given any: recorded with the run so that it is shown and two runs under other ones are
never compared as one system against another."""


def run_key(model: str, options: dict[str, Any], fingerprint: str, judge: str | None = None) -> str:
    """What makes two runs "the same command on the same data, judged by the same judge". ``judge`` is
    :func:`~sumjudge.judges.base.judge_identity`; where it says no more than ``model`` (an LLM judge) it
    is left out, so that runs recorded before identities keep their keys."""
    parts: dict[str, Any] = {"model": model, "options": options, "data": fingerprint}
    if judge and judge != model:
        parts["judge"] = judge  # e.g. offline/lexical@21.1+...: new rules or word data make a new run
    blob = json.dumps(parts, sort_keys=True)
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
    fields: dict[str, str] | None = None
    """The field names its data was read with (``source``, ``summary``, ``id``); ``None``: not recorded."""

    @property
    def done(self) -> int:
        return self.ok + self.errors


@dataclass(frozen=True)
class ItemRecord:
    """A stored item: where it stands in the input, and its outcome."""

    item_id: str
    row_number: int
    outcome: ItemOutcome
    """What ``--out`` and ``runs export`` write for this item."""

    @property
    def status(self) -> ItemStatus:
        return "error" if isinstance(self.outcome, FailedItem) else "ok"

    @property
    def score(self) -> float | None:
        return self.outcome.score



class RunStore:
    """A SQLite file holding runs and their items. Use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path = DEFAULT_STORE_PATH, *, readonly: bool = False) -> None:
        """Open (and for writing, create) the store. ``readonly`` never writes, so listing and
        exporting work on a store the user may only read. Raises :class:`StoreError`."""
        self.path = Path(path)
        self.readonly = readonly
        try:
            if readonly:
                if not self.path.is_file():
                    raise StoreError(f"no run store at {self.path} (runs are recorded by `sumjudge score`)")
                self._db = self._connect_readonly()
                check_schema(self._db, self.path, _SCHEMA)
            else:
                create_private_file(self.path)
                self._db = sqlite3.connect(self.path, isolation_level=None)  # autocommit: each write commits
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.execute("PRAGMA foreign_keys=ON")
                check_schema(self._db, self.path, _SCHEMA + FIELDS_SCHEMA)  # a newer or different store: one line
                self._db.executescript(_SCHEMA + FIELDS_SCHEMA)
                mark_schema(self._db)
            self._db.row_factory = sqlite3.Row
            self._db.execute("SELECT COUNT(*) FROM runs").fetchone()
        except sqlite3.Error as exc:
            raise store_error(self.path, exc) from None
        except OSError as exc:
            raise StoreError(f"cannot create the run store {self.path}: {exc.strerror or exc}") from None

    def _connect_readonly(self) -> sqlite3.Connection:
        uri = "file:" + quote(str(self.path.resolve()))
        try:
            db = sqlite3.connect(uri + "?mode=ro", uri=True, isolation_level=None)
            db.execute("SELECT COUNT(*) FROM runs").fetchone()
            return db
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                raise
            # a WAL store in a folder we cannot write: read the file as it is on disk
            return sqlite3.connect(uri + "?immutable=1", uri=True, isolation_level=None)

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
        judge: str | None = None,
        fields: Mapping[str, str] | None = None,
    ) -> tuple[RunRecord, bool]:
        """The run for this command and data: the latest one with the same key when ``resume``,
        else a new one. ``judge`` is the judge's identity (rules and data versions), part of the key.
        Returns ``(run, resumed)``."""
        key = run_key(model, options, fingerprint, judge)
        with self._transaction():  # find-or-create and claim in one step: two commands, one owner
            run_id, resumed = self._find_or_create(key, model, options, data, fingerprint, total_items, resume)
            self._claim(run_id)
            if fields is not None:  # the names this command read the data with (the viewer reads them)
                record_fields(self._db, run_id, fields)
        return self.get_run(run_id), resumed

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction around the block: committed when it ends, rolled back when it raises
        (an interrupt too); sqlite3's errors said in one line (:func:`~.schema.store_error`)."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise store_error(self.path, exc) from None

    def _find_or_create(
        self, key: str, model: str, options: dict[str, Any], data: str, fingerprint: str, total_items: int,
        resume: bool,
    ) -> tuple[str, bool]:
        if resume:
            row = self._db.execute(
                "SELECT id FROM runs WHERE key = ? ORDER BY created_at DESC LIMIT 1", (key,)
            ).fetchone()
            if row is not None:
                self._db.execute(
                    "UPDATE runs SET status = 'running', updated_at = ?, data = ? WHERE id = ?",
                    (time.time(), data, row["id"]),
                )
                return str(row["id"]), True
        run_id = time.strftime("%Y%m%d-%H%M%S") + "-" + uuid.uuid4().hex[:6]
        now = time.time()
        self._db.execute(
            "INSERT INTO runs (id, key, created_at, updated_at, status, model, options, data, fingerprint,"
            " total_items) VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)",
            (run_id, key, now, now, model, json.dumps(options, sort_keys=True), data, fingerprint, total_items),
        )
        return run_id, False

    def _claim(self, run_id: str) -> None:
        claim_run(self._db, run_id)

    def release(self, run_id: str) -> None:
        """Give up this process's lock on the run (done by :meth:`finish_run`)."""
        release_run(self._db, run_id)

    def finish_run(self, run_id: str, status: str = "finished") -> None:
        try:
            self._db.execute("UPDATE runs SET status = ?, updated_at = ? WHERE id = ?", (status, time.time(), run_id))
        except sqlite3.Error as exc:  # a full disk: one line, never sqlite3's traceback
            raise store_error(self.path, exc) from None
        self.release(run_id)

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
        """The runs, latest first; ``limit``: the latest N only (1 to :data:`~sumjudge.guards.limits.MAX_LISTED`)."""
        check_listed("limit", limit)
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

    def _run_from_row(self, row: sqlite3.Row) -> RunRecord:
        try:
            options = json.loads(row["options"])
        except (ValueError, TypeError) as exc:
            raise damaged_record(self.path, f"run {row['id']}", exc) from None
        return RunRecord(
            id=row["id"],
            key=row["key"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            status=row["status"],
            model=row["model"],
            options=options,
            data=row["data"],
            fingerprint=row["fingerprint"],
            total_items=row["total_items"],
            ok=row["ok"],
            errors=row["errors"],
            mean_score=row["mean_score"],
            fields=read_fields(self._db, row["id"]),
        )

    # -- items --------------------------------------------------------------------------------

    def record_item(self, run_id: str, row_number: int, outcome: ItemOutcome) -> None:
        """Commit one finished (or failed) item; :class:`StoreError` (one line) when it cannot be written."""
        try:
            self._insert_item(run_id, row_number, outcome)
        except sqlite3.Error as exc:
            raise store_error(self.path, exc) from None

    def record_items(self, run_id: str, outcomes: Iterable[tuple[int, ItemOutcome]]) -> None:
        """Commit several finished (or failed) items, ``(row number, outcome)`` each, in one transaction:
        a process killed or interrupted on the way leaves all of them or none. A worker's task holds a
        source's items together (its questions made once, their call counted on the first of them):
        committed by halves, a resumed run would make them again and count the call on another item."""
        with self._transaction():
            for row_number, outcome in outcomes:
                self._insert_item(run_id, row_number, outcome)

    def _insert_item(self, run_id: str, row_number: int, outcome: ItemOutcome) -> None:
        usage = outcome.usage
        self._db.execute(
            "INSERT OR REPLACE INTO items (run_id, item_id, row_number, status, score, alignment_score,"
            " coverage_score, calls, tokens, error, record, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                run_id,
                outcome.id,
                row_number,
                "error" if isinstance(outcome, FailedItem) else "ok",
                outcome.score,
                outcome.alignment_score,
                outcome.coverage_score,
                usage.calls if usage else 0,
                usage.total_tokens if usage else 0,
                outcome.error,
                outcome.line(),
                time.time(),
            ),
        )

    def finished_ids(self, run_id: str) -> set[str]:
        """Ids of the items that finished without error (these are not judged again)."""
        return {r[0] for r in self._db.execute("SELECT item_id FROM items WHERE run_id = ? AND status = 'ok'", (run_id,))}

    def iter_items(self, run_id: str, *, status: ItemStatus | None = None) -> Iterator[ItemRecord]:
        """The run's items in input order, streamed from the database."""
        sql = "SELECT item_id, row_number, record FROM items WHERE run_id = ?"
        params: tuple[Any, ...] = (run_id,)
        if status is not None:
            sql += " AND status = ?"
            params += (status,)
        sql += " ORDER BY row_number"
        for r in self._db.execute(sql, params):
            try:
                outcome = outcome_from_json(r["record"])
            except (ValueError, TypeError, AssertionError) as exc:  # JSON or pydantic: a record not written by sumjudge
                raise damaged_record(self.path, f"item {r['item_id']!r} of run {run_id}", exc) from None
            yield ItemRecord(item_id=r["item_id"], row_number=r["row_number"], outcome=outcome)

    def to_pandas(self, run_ref: str) -> Any:
        """A run's items (id, unique id prefix or 'latest'), in input order, as a DataFrame with one row
        per item: the columns of :data:`sumjudge.data.tables.ROW_COLUMNS` (needs the ``pandas`` extra)."""
        run = self.get_run(run_ref)
        return rows_frame(record_row(item.outcome.as_json()) for item in self.iter_items(run.id))

    def stats(self, run_id: str, *, axes: bool = True) -> RunStats:
        """The run's figures, with the 95% bootstrap interval of each mean (items resampled, seeded);
        ``axes=False`` leaves out the intervals of the two axes' means (a third of the cost)."""
        return read_run_stats(self._db, run_id, axes=axes)
