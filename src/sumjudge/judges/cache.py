"""An opt-in cache of judge replies: re-running an evaluation costs no calls and gives the same verdicts.

:class:`CachedJudge` wraps any :class:`~sumjudge.judges.base.JudgeModel`, so it works for every
provider. Replies are kept in SQLite, keyed by the judge's model id, the step, the messages, the
output schema, the reply bounds and the judge's settings: its public ``config`` (a :class:`ModelConfig`) minus
:data:`SETTINGS_NOT_IN_KEY`, the fields that cannot change an answer (key, endpoint, timeouts,
retries, concurrency, headers). A setting added to ``ModelConfig`` later is in the key by default.
The fence token that the prompts put around untrusted text (``<<<NAME token>>>``) is keyed by a
secret that changes with every process; it is masked in the key, so the same texts give the same
key in a later run.

A hit returns the stored output with zero usage (it cost nothing), and the reply's token
log-probabilities where it had them (so verdict probabilities survive a cache hit; a reply stored
before they were kept has none); :attr:`CachedJudge.hits` and :attr:`CachedJudge.misses` count both.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import sqlite3
import threading
import time
import zlib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import StoreError
from .base import (
    JudgeModel, JudgeReply, JudgeRequest, ModelConfig, OutputT, ReplyBounds, TokenLogprob, Usage, WrappedJudge,
    judge_identity,
)

DEFAULT_CACHE_PATH = Path(".sumjudge") / "cache.db"

# The prompts' fence: a hex token inside the markers around each text (see summarization/prompts.py).
_FENCE = re.compile(r"<<<(?:END )?[A-Z][A-Z ]*? ([0-9a-f]{16,64})(?: [^<>\n]*)?>>>")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS replies (
    key TEXT PRIMARY KEY,
    model_id TEXT NOT NULL,
    step TEXT NOT NULL,
    output TEXT NOT NULL,
    raw TEXT,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    created_at REAL NOT NULL
);
"""

_LOGPROBS_COLUMN = "logprobs"
"""Added to caches made before replies kept their token log-probabilities (zlib-compressed JSON, or NULL)."""


LOGPROB_DECIMALS = 4
"""Stored log-probabilities are rounded to 4 decimals (a probability to within 0.01% of itself: a cached
verdict's probability differs from the live one below 1e-4), which halves what they take compressed."""


def logprobs_blob(logprobs: tuple[TokenLogprob, ...] | None) -> bytes | None:
    """A reply's token log-probabilities as stored: compact JSON (``[[token, logprob, [[alt, logprob], ...]],
    ...]``), rounded (:data:`LOGPROB_DECIMALS`) and zlib-compressed. As JSON they are some 40 times the
    reply's text (five alternatives a token); stored, some 9 times (docs/design-notes.md)."""
    if logprobs is None:
        return None
    d = LOGPROB_DECIMALS
    rows = [[t.token, round(t.logprob, d), [[a, round(lp, d)] for a, lp in t.top]] for t in logprobs]
    return zlib.compress(json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 6)


def logprobs_from_blob(blob: bytes | None) -> tuple[TokenLogprob, ...] | None:
    """What :func:`logprobs_blob` stored, back (``None`` for none, or for anything unreadable)."""
    if not blob:
        return None
    try:
        rows = json.loads(zlib.decompress(blob).decode("utf-8"))
        return tuple(
            TokenLogprob(token=str(tok), logprob=float(lp), top=tuple((str(a), float(b)) for a, b in top))
            for tok, lp, top in rows
        )
    except (ValueError, TypeError, zlib.error):
        return None


def create_private_file(path: Path) -> None:
    """Create ``path`` (and its folder) readable by its owner only: caches and stores hold the
    user's texts."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


SETTINGS_NOT_IN_KEY: frozenset[str] = frozenset(
    {"api_key", "base_url", "timeout", "max_retries", "max_retry_time", "max_concurrency", "headers"}
)
"""The :class:`ModelConfig` fields that cannot change an answer; every other field is in the key."""


def settings_of(judge: JudgeModel) -> dict[str, Any]:
    """The settings of a judge that may change its answers: its ``config`` minus :data:`SETTINGS_NOT_IN_KEY`.

    A judge without a public :class:`ModelConfig` (the offline judge, a scripted test judge) has none.
    """
    config = getattr(judge, "config", None)
    if not isinstance(config, ModelConfig):
        return {}
    return config.model_dump(exclude=set(SETTINGS_NOT_IN_KEY))  # request_key writes it as JSON


def request_key(model_id: str, request: JudgeRequest[Any], settings: dict[str, Any]) -> str:
    """The cache key of one request (sha256 hex)."""
    fences: set[str] = set()
    for m in request.messages:
        fences.update(_FENCE.findall(m.content))
    messages = []
    for m in request.messages:
        content = m.content
        for fence in fences:
            content = content.replace(fence, "<fence>")
        messages.append([m.role, content])
    blob = {
        "model": model_id,
        "step": request.step,
        "messages": messages,
        "schema": request.output_type.model_json_schema(),
        "inputs": request.inputs.model_dump(mode="json"),
        "max_output_tokens": request.max_output_tokens,
        "settings": settings,
    }
    # Only when set, so the keys of unsampled requests (sample 0, the judge's own temperature) stay
    # what they were and existing caches keep answering them.
    if request.bounds != ReplyBounds():
        blob["bounds"] = dataclasses.asdict(request.bounds)
    if request.sample:
        blob["sample"] = request.sample
    if request.temperature is not None:
        blob["temperature"] = request.temperature
    text = json.dumps(blob, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _add_logprobs_column(db: sqlite3.Connection) -> None:
    """The ``logprobs`` column on a cache made before it existed (a worker process that adds it at the
    same moment is no error)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(replies)")}
    if _LOGPROBS_COLUMN in columns:
        return
    try:
        db.execute(f"ALTER TABLE replies ADD COLUMN {_LOGPROBS_COLUMN} BLOB")
    except sqlite3.OperationalError as exc:
        if "duplicate column" not in str(exc).lower():
            raise


class CachedJudge(WrappedJudge):
    """A judge that answers repeated requests from a SQLite cache and asks ``inner`` otherwise."""

    def __init__(
        self, inner: JudgeModel, path: str | Path = DEFAULT_CACHE_PATH, *, settings: dict[str, Any] | None = None
    ) -> None:
        super().__init__(inner)
        self.path = Path(path)
        self._settings = settings if settings is not None else settings_of(inner)
        self._identity = judge_identity(inner)  # the model id, or an offline judge's rules and data version
        try:
            create_private_file(self.path)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            _add_logprobs_column(self._db)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(
                f"the reply cache {self.path} cannot be used ({exc}); move it aside or choose another path"
            ) from None
        self._lock = threading.Lock()  # run_sync may call from another thread; one connection, serialized
        self.hits = 0
        self.misses = 0

    def close(self) -> None:
        self._db.close()

    async def generate(self, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        key = request_key(self._identity, request, self._settings)
        with self._lock:
            row = self._db.execute("SELECT output, raw, logprobs FROM replies WHERE key = ?", (key,)).fetchone()
        if row is not None:
            try:
                output = request.output_type.model_validate_json(row[0])
            except ValidationError:
                pass  # the schema's class changed under the same JSON schema: ask again
            else:
                self.hits += 1
                return JudgeReply(output=output, usage=Usage(), raw=row[1], logprobs=logprobs_from_blob(row[2]))
        self.misses += 1
        reply = await self.inner.generate(request)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO replies (key, model_id, step, output, raw, prompt_tokens,"
                " completion_tokens, created_at, logprobs) VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    key,
                    self.model_id,
                    request.step,
                    reply.output.model_dump_json(),
                    reply.raw,
                    reply.usage.prompt_tokens,
                    reply.usage.completion_tokens,
                    time.time(),
                    logprobs_blob(reply.logprobs),
                ),
            )
        return reply


def with_cache(judge: JudgeModel, cache: bool | str | os.PathLike[str] | None) -> JudgeModel:
    """``cache=`` as the library takes it: falsy for none, ``True`` for ``.sumjudge/cache.db``, or a path."""
    if not cache:
        return judge
    if isinstance(judge, CachedJudge):
        return judge
    path = DEFAULT_CACHE_PATH if cache is True else Path(cache)
    return CachedJudge(judge, path)
