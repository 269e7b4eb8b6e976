"""Yes or no, read from a server's next-token log-probabilities: :class:`~.next_token.YesNoModel`'s
questions asked of an OpenAI-compatible server (llama.cpp's, vLLM, Ollama where its version returns them).

Each prompt is rendered as the in-process reader renders it (ChatML, :func:`~.next_token._chatml`), so
the server reads the same tokens, and sent as text to ``/v1/completions`` with ``max_tokens: 1``,
``temperature: 0`` and ``logprobs: k`` (the top ``k`` alternatives of the first token; ``cache_prompt:
true`` too, which llama.cpp's own server reads and the others ignore). ``P(yes)`` is normalised over
the spellings of yes and of no (:data:`~.next_token.YES_SPELLINGS`, :data:`~.next_token.NO_SPELLINGS`)
among those ``k``, as the in-process model normalises over its logits: log-probabilities differ from
logits by one constant per position, which the normalisation cancels. A spelling outside the top ``k``
is left out: its probability is below the ``k``-th's (about ``e^-12`` for the reader's questions at
``k = 20``). When only yes spellings are there ``P(yes)`` is 1, when only no spellings 0; when neither
is, :class:`AnswerNotInTopLogprobs` says so (the model answers something else: it cannot be read).

Prompts go one at a time, in the order given (a source's claims after the source): a server that keeps
the prompt it last read (llama.cpp's, one slot) or caches prefixes (vLLM, llama.cpp's ``cache_prompt``)
reads the shared head once. Transport is the OpenAI-compatible judge's
(:class:`~.openai_compat.OpenAICompatJudge`, through :meth:`~.http.HTTPJudge.call`): its SDK client,
its error table (429 and 5xx retried with backoff, 4xx not), its limiter and whole-reply timeout; a
reply that is not a completion's JSON, one past :data:`~sumjudge.guards.limits.MAX_SERVER_REPLY_BYTES`
(read no further) and log-probabilities that are NaN or infinite are tried again as transient failures,
then fail the item.

The core is async (:meth:`ServerYesNoModel.ask_async`, :meth:`ServerYesNoModel.ask_after_async`); the
reader calls the sync twins (:meth:`ServerYesNoModel.ask`, :meth:`ServerYesNoModel.ask_after`) from its
worker thread, as it calls the in-process model.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import threading
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .._aio import run_sync
from ..errors import ConfigurationError, JudgeOutputError, JudgeRequestError
from ..guards.limits import MAX_SERVER_REPLY_BYTES
from .base import ModelConfig, reported_count
from .next_token import NO_SPELLINGS, YES_SPELLINGS, PromptTooLong, YesNoAnswer, _chatml, _p_yes
from .openai_compat import OpenAICompatJudge
from .providers import ProviderSpec

TOP_LOGPROBS = 20
"""Alternatives asked for at the answer's token: OpenAI's limit, and enough that the reader's yes and
no spellings show (the 20th of the reader's questions sits near ``e^-12``)."""

_CONTEXT_WORDS = ("context", "too long", "maximum")


class AnswerNotInTopLogprobs(JudgeOutputError):
    """Neither a yes nor a no spelling among the top log-probabilities the server returned for the
    answer's token: the model means to say something else, and no ``P(yes)`` can be read."""


class UnreadableCompletion(Exception):
    """A reply that is not a completion's JSON (a proxy's error page, a cut body): tried again."""


def top_logprobs(reply: Any) -> Mapping[str, float] | None:
    """The first token's top log-probabilities, ``{token: logprob}``: from the Completions shape
    (``choices[0].logprobs.top_logprobs[0]``, llama-cpp-python's and vLLM's) or the Chat shape that
    llama.cpp's own server also uses (``choices[0].logprobs.content[0].top_logprobs``). ``None`` when the
    reply carries none; :class:`UnreadableCompletion` when it is not a completion at all."""
    choices = reply.get("choices") if isinstance(reply, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        shown = reply if isinstance(reply, str) else json.dumps(reply, default=str)
        raise UnreadableCompletion(f"the server's reply is not a completion: {shown[:200]!r}")
    logprobs = choices[0].get("logprobs")
    if not isinstance(logprobs, dict):
        return None
    try:
        legacy = logprobs.get("top_logprobs")
        if isinstance(legacy, list) and legacy and isinstance(legacy[0], dict):
            return _finite({str(t): float(lp) for t, lp in legacy[0].items() if lp is not None})
        content = logprobs.get("content")
        if isinstance(content, list) and content and isinstance(content[0], dict):
            first = content[0]
            alternatives = first.get("top_logprobs") or []
            top = {str(a["token"]): float(a["logprob"]) for a in alternatives}
            if "token" in first and "logprob" in first:
                top.setdefault(str(first["token"]), float(first["logprob"]))
            return _finite(top)
    except (KeyError, TypeError, ValueError) as exc:
        raise UnreadableCompletion(f"the server's log-probabilities cannot be read: {exc}") from exc
    return None


def _finite(top: dict[str, float]) -> dict[str, float]:
    """``top`` when every log-probability is a finite number; NaN or infinity is the server's fault (a
    P(yes) of nan would score the claim 0 with no error): :class:`UnreadableCompletion`, tried again."""
    bad = {t: lp for t, lp in top.items() if not math.isfinite(lp)}
    if bad:
        shown = ", ".join(f"{t!r}: {lp}" for t, lp in list(bad.items())[:3])
        raise UnreadableCompletion(f"the server's log-probabilities are not finite numbers ({shown})")
    return top


async def _bounded_body(response: Any) -> str:
    """The reply's body, read no further than :data:`~sumjudge.guards.limits.MAX_SERVER_REPLY_BYTES`
    (an answer is a few kilobytes; a server that sends 400 MB would otherwise be held in memory whole):
    :class:`UnreadableCompletion` past it."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.iter_bytes():
        size += len(chunk)
        if size > MAX_SERVER_REPLY_BYTES:
            raise UnreadableCompletion(
                f"the server's reply is larger than {MAX_SERVER_REPLY_BYTES // 1024} KiB: not a completion's answer"
            )
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


def p_yes_of(top: Mapping[str, float]) -> float | None:
    """``P(yes)`` normalised over the yes and no spellings in ``top`` (see the module); ``None`` when
    neither is there."""
    yes = [t for t in YES_SPELLINGS if t in top]
    no = [t for t in NO_SPELLINGS if t in top]
    if not yes and not no:
        return None
    if not no:
        return 1.0
    if not yes:
        return 0.0
    return _p_yes(top, yes, no)


def _tokens(reply: dict[str, Any]) -> tuple[int, int]:
    """(prompt tokens, tokens the server read for them), as far as the reply says: llama.cpp's server
    gives ``timings.prompt_n``, OpenAI's shape ``usage.prompt_tokens_details.cached_tokens``; a
    server that says neither is taken to have read the whole prompt."""
    usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else {}
    prompt = reported_count(usage.get("prompt_tokens"))
    timings = reply.get("timings")
    if isinstance(timings, dict) and "prompt_n" in timings:
        read = reported_count(timings.get("prompt_n"))
        return max(prompt, read), read
    details = usage.get("prompt_tokens_details")
    cached = reported_count(details.get("cached_tokens")) if isinstance(details, dict) else 0
    return prompt, max(0, prompt - cached)


class ServerYesNoModel:
    """:class:`~.next_token.YesNoModel`'s ``ask`` and ``ask_after``, answered by ``provider/name`` on an
    OpenAI-compatible server. Safe to share: each call's questions go in order, one at a time, and
    the sync calls one after another."""

    def __init__(
        self, spec: ProviderSpec, name: str, config: ModelConfig, *, top: int = TOP_LOGPROBS,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        if spec.kind != "openai_compat":
            raise ConfigurationError(
                f"{spec.name}: the next-token questions need an OpenAI-compatible server's /v1/completions"
            )
        if not 1 <= top <= 20:
            raise ConfigurationError(f"top_logprobs must be 1 to 20 (OpenAI's limit), got {top}")
        self.name = name
        self.top = top
        self._spec = spec
        self._http = OpenAICompatJudge(spec, name, config, sleep=sleep)
        self._served: str | None = None
        self._lock = threading.Lock()
        self._asking = threading.Lock()

    @property
    def model_id(self) -> str:
        return f"{self._spec.name}/{self.name}"

    @property
    def base_url(self) -> str:
        return self._http.base_url

    # -- what the server says it serves

    def served_model(self) -> str:
        """The model as the server reports it (``GET /v1/models``): its id, and a digest of what else the
        server says of it (llama.cpp's ``meta``: parameters, vocabulary, size; vLLM's ``root``), so that
        another model behind the same name is another judge. Asked once."""
        with self._lock:
            if self._served is not None:
                return self._served
        served = run_sync(self.served_model_async)
        with self._lock:
            self._served = served
        return served

    async def served_model_async(self) -> str:
        listing = await self._http.call(
            lambda client: client.get("/models", cast_to=object), what=f"{self.model_id} model listing"
        )
        data = listing.get("data") if isinstance(listing, dict) else None
        models = [m for m in data if isinstance(m, dict) and isinstance(m.get("id"), str)] if isinstance(data, list) else []
        chosen = next((m for m in models if m["id"] == self.name), None)
        if chosen is None and len(models) == 1:
            chosen = models[0]  # one model served (llama.cpp's server answers any name with it)
        if chosen is None:
            listed = ", ".join(m["id"] for m in models) or "none"
            raise ConfigurationError(f"{self.model_id}: the server at {self.base_url} does not list {self.name!r} (it lists {listed})")
        about = {k: chosen[k] for k in ("root", "meta", "max_model_len") if k in chosen}
        digest = f"+{hashlib.sha256(json.dumps(about, sort_keys=True, default=str).encode()).hexdigest()[:12]}" if about else ""
        return f"{chosen['id']}{digest}"

    # -- the questions

    def ask(self, prompts: list[tuple[str, str]]) -> list[YesNoAnswer]:
        """``P(yes)`` for each ``(system, user)`` prompt, asked in order. One call at a time, as the
        in-process model answers: another thread's questions between a source's claims would push the
        source out of a one-slot server's cache (llama.cpp's)."""
        with self._asking:
            return run_sync(lambda: self.ask_async(prompts))

    def ask_after(self, system: str, head: str, tails: list[str]) -> list[YesNoAnswer]:
        """``P(yes)`` for each prompt ``(system, head + tail)``, in order: the head first in each, so the
        server's prompt cache reads it once. One call at a time, as :meth:`ask`."""
        with self._asking:
            return run_sync(lambda: self.ask_after_async(system, head, tails))

    async def ask_async(self, prompts: list[tuple[str, str]]) -> list[YesNoAnswer]:
        return [await self._one(_chatml(system, user)) for system, user in prompts]

    async def ask_after_async(self, system: str, head: str, tails: list[str]) -> list[YesNoAnswer]:
        return [await self._one(_chatml(system, head + tail)) for tail in tails]

    async def _one(self, text: str) -> YesNoAnswer:
        async def send(client: Any) -> YesNoAnswer:
            async with client.completions.with_streaming_response.create(
                model=self.name, prompt=text, max_tokens=1, temperature=0, logprobs=self.top,
                extra_body={"cache_prompt": True},
            ) as response:
                raw = await _bounded_body(response)
            try:
                reply = json.loads(raw)
            except ValueError:
                raise UnreadableCompletion(f"the server's reply is not JSON: {raw[:200]!r}") from None
            top = top_logprobs(reply)
            if top is None:
                raise JudgeRequestError(
                    f"{self.model_id} returned no log-probabilities from {self.base_url}/completions: the reader "
                    "needs a server that returns them (llama-cpp-python's server with logits_all, its default; "
                    "llama.cpp's llama-server; vLLM; Ollama from the version that returns them)"
                )
            p = p_yes_of(top)
            if p is None:
                shown = ", ".join(f"{t!r}" for t in sorted(top, key=lambda t: -top[t])[:5])
                raise AnswerNotInTopLogprobs(
                    f"{self.model_id}: neither yes nor no among the {len(top)} likeliest answers ({shown}, ...); "
                    "the model does not answer the question with yes or no"
                )
            prompt, evaluated = _tokens(reply)
            return YesNoAnswer(p, prompt, evaluated)

        try:
            return await self._http.call(send, what=f"{self.model_id} next-token question", transient=(UnreadableCompletion,))
        except JudgeRequestError as exc:
            if exc.status == 400 and any(w in str(exc).lower() for w in _CONTEXT_WORDS):
                raise PromptTooLong(f"{self.model_id}: the prompt does not fit the server's context: {exc}") from exc
            raise


__all__ = ["TOP_LOGPROBS", "AnswerNotInTopLogprobs", "ServerYesNoModel", "UnreadableCompletion", "p_yes_of", "top_logprobs"]
