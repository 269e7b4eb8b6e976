"""A judge that puts its requests into the next provider batch job instead of sending them.

:class:`BatchingJudge` wraps an HTTP judge (OpenAI, Azure, Anthropic). Its ``generate`` goes the
same way a live call goes, :func:`~sumjudge.judges.structured.generate_structured` over the
judge's own request builder (:meth:`~sumjudge.judges.http.HTTPJudge.request_body`: structured-output
form, fences, prompt-cache marks, ``max_tokens`` sized to the window) and reply reader
(:meth:`~sumjudge.judges.http.HTTPJudge.parse_json_reply`); only the ``send`` differs: the body
waits in a :class:`RoundQueue` until the driver of rounds (:mod:`sumjudge.runs.provider_batch`)
has put it in a job and the job has answered. So a reply is validated as a live one is; an invalid or
refused reply is re-asked (``max_reasks``) in the next round; an errored or expired line is asked
again in the next round (``max_resubmits``), then fails the step with :class:`BatchRequestError`.
With ``fallback="live"`` the first invalid, refused, errored or expired answer sends the request as
a live call instead (the judge's own re-asks and retries).

Why a wrapper and not a second scorer: the scorer's steps already wait for what they need (coverage
for the questions), so while every item awaits its replies the requests of one round (alignment and
questions, then coverage) gather in the queue by themselves, and the scorer, its prompts, its cache
of questions and its fallbacks for long sources stay exactly the code of live calls.

Each request's ``custom_id`` is the reply cache's key of the request (fences masked, so the same
texts give the same id in a later process) with the structured-output form and the attempt: a
process that starts again finds the requests it sent before by these ids in the run store.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

from ...errors import JudgeError, JudgeOutputError
from ..base import ChatMessage, JudgeReply, JudgeRequest, OutputT, WrappedJudge
from ..cache import request_key, settings_of
from ..http import HTTPJudge, wire_body
from ...guards.redact import secrets_of
from ..structured import Completion, generate_structured
from .protocol import LineResult

Fallback = Literal["rebatch", "live"]
FALLBACKS: tuple[str, ...] = ("rebatch", "live")
DEFAULT_MAX_RESUBMITS = 2
"""Rounds in which an errored or expired request is asked again before its step fails."""


class BatchRequestError(JudgeError):
    """A request that no batch job answered (errored, expired or canceled every time it was sent)."""


@dataclass
class Ask:
    """One request waiting for a round: its id, its body, and the future its reply resolves."""

    custom_id: str
    body: dict[str, Any]
    step: str
    future: asyncio.Future[LineResult]


class RoundQueue:
    """The requests waiting for the next round (one event loop), and the live calls in flight beside it.

    A live call (``fallback="live"``) is work the queue does not see: while one is in flight the round
    is not complete (the item it serves will ask for its next step when it returns), so the driver
    waits for :meth:`outside_done` before it takes a round, whatever the machine's speed.
    """

    def __init__(self) -> None:
        self._waiting: list[Ask] = []
        self.added = 0
        """Requests ever put in (the driver waits for this to stop moving before it sends a round)."""
        self.outside = 0
        """Live calls in flight now (sent past the queue)."""
        self._quiet: asyncio.Event | None = None

    @contextlib.contextmanager
    def live_call(self) -> Iterator[None]:
        """Count a call sent past the queue while it runs."""
        self.outside += 1
        try:
            yield
        finally:
            self.outside -= 1
            if self.outside == 0 and self._quiet is not None:
                self._quiet.set()

    async def outside_done(self) -> None:
        """Return once no live call is in flight."""
        while self.outside:
            self._quiet = asyncio.Event()
            await self._quiet.wait()

    def ask(self, custom_id: str, body: dict[str, Any], step: str) -> asyncio.Future[LineResult]:
        future: asyncio.Future[LineResult] = asyncio.get_running_loop().create_future()
        self._waiting.append(Ask(custom_id, body, step, future))
        self.added += 1
        return future

    def take(self) -> list[Ask]:
        """Every request waiting now (those whose asker gave up are left out)."""
        taken = [a for a in self._waiting if not a.future.done()]
        self._waiting = []
        return taken

    def __len__(self) -> int:
        return len(self._waiting)


def custom_id(key: str, form: str, attempt: int) -> str:
    """A request's id within a job: ``[A-Za-z0-9_-]``, at most 64 characters (Anthropic's rule)."""
    digest = hashlib.sha256(f"{key}|{form}".encode()).hexdigest()[:48]
    return digest if attempt == 0 else f"{digest}-r{attempt}"


class BatchingJudge(WrappedJudge):
    """An HTTP judge whose requests go into provider batch jobs (see the module docstring)."""

    def __init__(
        self,
        inner: HTTPJudge,
        queue: RoundQueue,
        *,
        fallback: Fallback = "rebatch",
        max_resubmits: int = DEFAULT_MAX_RESUBMITS,
    ) -> None:
        super().__init__(inner)
        self.http = inner
        self.queue = queue
        self.fallback = fallback
        self.max_resubmits = max_resubmits
        self._settings = settings_of(inner)
        self.live_calls = 0
        """Requests sent live after a batch could not answer them (``fallback="live"``)."""

    async def generate(self, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        http = self.http
        prepared = http.prepare(request)

        async def send(messages: list[ChatMessage]) -> Completion:
            body = wire_body(http.request_body(messages, prepared, request))
            key = request_key(self.model_id, replace(request, messages=messages), self._settings)
            tries = 1 if self.fallback == "live" else self.max_resubmits + 1
            last: LineResult | None = None
            for attempt in range(tries):
                last = await self.queue.ask(custom_id(key, http.structured_mode, attempt), body, request.step)
                if last.outcome == "succeeded" and last.body is not None:
                    return http.parse_json_reply(last.body, prepared)
            assert last is not None
            raise BatchRequestError(
                f"no batch job answered the request ({tries} time(s)); last: {last.outcome}, {last.error or ''}".rstrip(", "),
                step=request.step,
            )

        def fits(messages: list[ChatMessage]) -> bool:
            return http.fits(messages, prepared, request)

        if self.fallback == "live":
            try:
                return await generate_structured(request, send, max_reasks=0, fits=fits, secrets=secrets_of(http))
            except (BatchRequestError, JudgeOutputError):
                self.live_calls += 1
                with self.queue.live_call():
                    return await http.generate(request)
        return await generate_structured(request, send, max_reasks=http.config.max_reasks, fits=fits,
                                         secrets=secrets_of(http))


__all__ = [
    "DEFAULT_MAX_RESUBMITS",
    "FALLBACKS",
    "Ask",
    "BatchRequestError",
    "BatchingJudge",
    "Fallback",
    "RoundQueue",
    "custom_id",
]
