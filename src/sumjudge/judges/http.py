"""The one HTTP judge: every provider that answers over HTTP goes through these layers, in this order.

For each :class:`~sumjudge.judges.base.JudgeRequest`:

1. **structured output** (:func:`~sumjudge.judges.structured.generate_structured`): schema in,
   validated object out; an invalid or truncated reply is re-asked (``max_reasks``), in the largest
   form that fits the context window (the bad reply and the correction; the correction alone; the
   first request again);
2. **retries** (:func:`~sumjudge.judges.retry.call_with_retries`): a failure the provider's error
   table calls transient (429 with ``Retry-After``, 5xx, timeouts, dropped connections) is tried
   again with backoff within the call's time budget; a permanent one (400, 401, 403, 404) fails at once;
3. **the structured-output form**: when a server refuses the form asked for (``json_schema`` on a
   server without it), the judge moves to the next form of :attr:`HTTPJudge.fallback_order` for good
   and sends again, at no retry cost; an optional part of the request that the server refuses
   (token log-probabilities, :meth:`HTTPJudge.drop_refused_option`) is dropped the same way;
4. **the limiter** (:class:`~sumjudge.judges.limiter.AdaptiveLimiter`, when ``max_concurrency`` is
   set): requests in flight, lowered on 429 and raised again slowly;
5. **the per-loop client** (:class:`~sumjudge.judges.clients.LoopClients`): one SDK client per running
   event loop, closed with the last call on it;
6. **the budget** (:class:`~sumjudge.judges.budget.TokenBudget`): every request, first ask, re-ask and
   structured-output form alike, is counted as it will be sent and checked against the context window
   with room for its reply (the request's ``reply_tokens``, and any ``max_tokens`` sent) before it
   leaves; one that does not fit raises :class:`~sumjudge.errors.ContextOverflowError` naming the sizes;
7. **send**: one request through the provider's SDK (its own retries off), bounded as a whole by the
   judge's ``timeout`` (the SDKs bound each read: a server sending a byte a second never ends otherwise).

A provider subclass holds only what is its own: how to make its SDK client, how to build a request
body for a structured form (:meth:`HTTPJudge.build_request`), how to send it, how to read the reply
(:meth:`HTTPJudge.parse_reply`) and which of its SDK's errors heal (:attr:`HTTPJudge.errors`, a table).
"""

from __future__ import annotations

import asyncio
import threading
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from ..errors import ConfigurationError, ContextOverflowError, SumjudgeError
from ..guards.redact import redact, scrub_exception, secrets_of
from .base import ChatMessage, JudgeReply, JudgeRequest, ModelConfig, OutputT
from .budget import TokenBudget
from .clients import LoopClients
from .limiter import AdaptiveLimiter
from .providers import ProviderSpec, resolve_base_url
from .retry import Classification, RetryPolicy, Transient, call_with_retries, retry_after_from_headers
from .structured import Completion, generate_structured, strict_json_schema, with_schema_in_prompt

T = TypeVar("T")


class ReplyTimeout(Exception):
    """A reply that had not arrived whole within the judge's ``timeout`` (one attempt; retried as transient)."""


ErrorRule = tuple[type[BaseException], Callable[[Any], Classification]]
"""One row of a provider's error table: an SDK exception class and what its instances mean."""


class HTTPJudge(ABC):
    """Base of the judges that talk HTTP. Safe to share across tasks, threads and event loops."""

    fallback_order: ClassVar[tuple[str, ...]] = ()
    """Structured-output forms, most exact first. A refused form moves the judge to the next one."""

    def __init__(
        self,
        spec: ProviderSpec,
        name: str,
        config: ModelConfig,
        *,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        limiter: AdaptiveLimiter | None = None,
    ) -> None:
        self._spec = spec
        self._name = name
        self.config: ModelConfig = config
        """The settings this judge was made with (public: the reply cache keys on them)."""
        self.setup()  # the provider's SDK and credentials: a missing extra or key fails here
        self._base_url = resolve_base_url(spec, config)
        self._policy = RetryPolicy.from_config(config)
        self._sleep = sleep
        if limiter is None and config.max_concurrency is not None:
            limiter = AdaptiveLimiter(config.max_concurrency, max_pause=config.max_retry_time, sleep=sleep)
        self._limiter = limiter
        self._lock = threading.RLock()
        self._form = self.first_form()
        self._clients: LoopClients[Any] = LoopClients(self.make_client)
        self._budget: TokenBudget | None = None
        # One client made and dropped now (it opens nothing until a request): the SDK imports its HTTP
        # transport and the TLS context is loaded on the first client made, about 0.2 s here, so they
        # happen when the judge is built, not while a batch's first requests wait. A base URL the SDK
        # cannot use fails here too, by name, rather than at the first call.
        try:
            self.make_client()
        except SumjudgeError:
            raise
        except Exception as exc:  # httpx's InvalidURL, urllib's ValueError: settings the SDK refuses
            raise ConfigurationError(
                f"{self.model_id}: the SDK cannot use the base URL {redact(str(self._base_url))!r}: {exc}"
            ) from exc

    # -- the JudgeModel protocol -----------------------------------------------------------------

    @property
    def model_id(self) -> str:
        return f"{self._spec.name}/{self._name}"

    async def generate(self, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        try:
            return await self._generate(request)
        except Exception as exc:  # what reaches the caller (and its traceback) shows no key
            raise scrub_exception(exc, self._secrets())

    async def call(
        self, send: Callable[[Any], Awaitable[T]], *, what: str, step: str | None = None,
        transient: tuple[type[BaseException], ...] = (),
    ) -> T:
        """One request that the caller builds and reads itself, ``send(client)`` with this judge's SDK
        client, through the same layers as a judge's call: retries of what the error table calls
        transient (429, 5xx, timeouts, dropped connections), the limiter, the per-loop client, the
        whole-reply timeout, and no key in what is raised. For another endpoint of the same server
        (the reader's next-token questions at ``/completions``). ``send``'s own exceptions of the
        classes ``transient`` (a reply it could not read) are tried again as the table's transient
        failures are; any other that the table does not know goes to the caller unchanged."""

        def classify(exc: BaseException) -> Classification:
            return Transient(str(exc)) if isinstance(exc, transient) else self.classify(exc)

        try:
            async with self._clients.get() as client:
                return await call_with_retries(  # type: ignore[no-any-return]
                    lambda: self._limited(lambda: send(client)), classify=classify, policy=self._policy,
                    step=step, what=what, sleep=self._sleep,
                )
        except Exception as exc:
            raise scrub_exception(exc, self._secrets())

    def _secrets(self) -> list[str]:
        """What this judge sends that must never be shown: its keys (configured or resolved from the
        environment), its base URL's ``user:password``, its extra headers (:func:`~sumjudge.guards.redact.secrets_of`)."""
        return secrets_of(self)

    async def _generate(self, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        prepared = self.prepare(request)
        what = f"{self.model_id} {request.step} call"
        async with self._clients.get() as client:

            async def send(messages: list[ChatMessage]) -> Completion:
                return await call_with_retries(
                    lambda: self._attempt(client, messages, prepared, request),
                    classify=self.classify,
                    policy=self._policy,
                    step=request.step,
                    what=what,
                    sleep=self._sleep,
                )

            def fits(messages: list[ChatMessage]) -> bool:
                return self.fits(messages, prepared, request)

            return await generate_structured(request, send, max_reasks=self.config.max_reasks, fits=fits,
                                             secrets=self._secrets())

    # -- one request as data (for provider batch jobs, :mod:`sumjudge.judges.batch`) ---------------

    def fits(self, messages: list[ChatMessage], prepared: Any, request: JudgeRequest[Any]) -> bool:
        """Whether ``messages`` fit the context window in the current form, with room for the reply."""
        try:
            self._sized(self._form, messages, prepared, request)
        except ContextOverflowError:
            return False
        return True

    def request_body(self, messages: list[ChatMessage], prepared: Any, request: JudgeRequest[Any]) -> dict[str, Any]:
        """The body a live call would send for ``messages`` now (current form, sized and checked against
        the window): what a provider batch job carries, so batched and live requests are the same."""
        form = self._form
        return self.build_request(form, messages, prepared, self._sized(form, messages, prepared, request))

    def parse_json_reply(self, payload: dict[str, Any], prepared: Any) -> Completion:
        """A reply that arrived as JSON (a batch job's result line), read as :meth:`parse_reply` reads
        the SDK's response object."""
        return self.parse_reply(self.response_from_json(payload), prepared)

    def response_from_json(self, payload: dict[str, Any]) -> Any:
        """The SDK's response object for a reply body given as JSON."""
        raise NotImplementedError(f"{type(self).__name__} cannot read replies given as JSON")

    @property
    def token_budget(self) -> TokenBudget:
        """This judge's context window and token counter (counted once, on first use)."""
        if self._budget is None:
            self._budget = TokenBudget.of(self)
        return self._budget

    # -- what a user may look at -----------------------------------------------------------------

    @property
    def structured_mode(self) -> str:
        """The structured-output form this judge uses now (after any fallback)."""
        return self._form

    @property
    def base_url(self) -> str | None:
        return self._base_url

    @property
    def limiter(self) -> AdaptiveLimiter | None:
        return self._limiter

    def __repr__(self) -> str:
        return redact(f"{type(self).__name__}({self.model_id!r}, base_url={self._base_url!r}, mode={self._form!r})")

    # -- one attempt: form, limiter, send --------------------------------------------------------

    def _sized(
        self, form: str, messages: list[ChatMessage], prepared: Any, request: JudgeRequest[Any]
    ) -> int | None:
        """The ``max_tokens`` to send with ``messages`` in ``form`` (``None``: none), once the request is
        counted as sent and found to fit; else :class:`ContextOverflowError` naming the sizes."""
        budget = self.token_budget
        if self.schema_in_prompt(form):
            prompt = budget.prompt_tokens(with_schema_in_prompt(messages, strict_json_schema(request.output_type)))
        else:
            prompt = budget.prompt_tokens(messages, request.output_type)
        limit = self.reply_limit(prepared, budget.context_window - prompt)
        reply = max(request.reply_tokens or 0, limit or 0)
        budget.check_prompt(prompt, reply, f"the {request.step} request to {self.model_id} ({form})")
        return limit

    async def _attempt(
        self, client: Any, messages: list[ChatMessage], prepared: Any, request: JudgeRequest[Any]
    ) -> Completion:
        """One request; a refused structured-output form is swapped for the next at no retry cost.

        Each form's request is checked against the context window before it is sent."""
        while True:
            form = self._form
            body = self.build_request(form, messages, prepared, self._sized(form, messages, prepared, request))
            try:
                response = await self._send_limited(client, body)
            except Exception as exc:
                if self.refuses_form(exc, form) and self._fall_back_from(form):
                    continue
                if self.drop_refused_option(exc, body):
                    continue
                raise
            return self.parse_reply(response, prepared)

    async def _send_whole(self, send: Callable[[], Awaitable[Any]]) -> Any:
        """``send()`` bounded as a whole by ``config.timeout``: the SDKs' timeouts bound each read, so a
        server that sends a byte a second (headers or body) would hold the call for ever."""
        timeout = self.config.timeout
        try:
            return await asyncio.wait_for(send(), timeout)
        except asyncio.TimeoutError:
            raise ReplyTimeout(f"no whole reply within {timeout:g}s (timeout)") from None

    async def _send_limited(self, client: Any, body: dict[str, Any]) -> Any:
        """``send`` inside the limiter: a 429 lowers it, a clean reply raises it."""
        return await self._limited(lambda: self.send(client, body))

    async def _limited(self, send: Callable[[], Awaitable[Any]]) -> Any:
        """``send()`` inside the limiter, bounded as a whole by the timeout."""
        limiter = self._limiter
        if limiter is None:
            return await self._send_whole(send)
        async with limiter.slot() as ticket:
            try:
                response = await self._send_whole(send)
            except self.rate_limit_error as exc:
                headers: Mapping[str, str] | None = getattr(getattr(exc, "response", None), "headers", None)
                limiter.on_rate_limited(ticket, retry_after_from_headers(headers))
                raise
            limiter.on_success(ticket)
            return response

    def _fall_back_from(self, form: str) -> bool:
        """Move to the form after ``form``; False when there is none (the refusal stands)."""
        order = self.fallback_order
        with self._lock:
            if self._form != form:  # another call already moved on
                return True
            if form not in order[:-1]:
                return False
            self._form = order[order.index(form) + 1]
            return True

    # -- failures: the provider's error table ----------------------------------------------------

    def classify(self, exc: BaseException) -> Classification:
        """A reply that did not arrive whole in time is a transient timeout; else the first row of
        :attr:`errors` whose class ``exc`` is an instance of decides."""
        if isinstance(exc, ReplyTimeout):
            return Transient(str(exc))
        for kind, meaning in self.errors:
            if isinstance(exc, kind):
                return meaning(exc)
        return None

    # -- what each provider supplies -------------------------------------------------------------

    def setup(self) -> None:  # noqa: B027 - optional
        """Import the SDK and check what the provider needs (``self.config`` and ``self._spec`` are set)."""

    @property
    @abstractmethod
    def errors(self) -> Sequence[ErrorRule]:
        """The provider's error table, most specific class first (transient / permanent / ``None``)."""

    @property
    @abstractmethod
    def rate_limit_error(self) -> type[BaseException]:
        """The SDK's exception for HTTP 429 (it lowers the limiter)."""

    def first_form(self) -> str:
        """The structured-output form asked for before any refusal."""
        return self.fallback_order[0]

    def schema_in_prompt(self, form: str) -> bool:
        """Whether ``form`` states the schema in the prompt (else it travels beside the messages)."""
        return False

    def reply_limit(self, prepared: Any, room: int) -> int | None:
        """The ``max_tokens`` sent with a prompt that leaves ``room`` tokens of the window (``None``: none).

        It is reserved below the window along with the request's ``reply_tokens``."""
        return None

    def refuses_form(self, exc: BaseException, form: str) -> bool:
        """Whether ``exc`` is the server refusing the structured-output ``form`` (not a real failure)."""
        return False

    def drop_refused_option(self, exc: BaseException, body: dict[str, Any]) -> bool:
        """Whether ``exc`` is the server refusing an optional part of ``body`` (token log-probabilities)
        that this judge has now stopped asking for, for good: the request is built and sent again
        without it, at no retry cost. ``False`` leaves the failure to the error table."""
        return False

    @abstractmethod
    def make_client(self) -> Any:
        """A new SDK client (its own retries off); one is made per running event loop."""

    @abstractmethod
    def prepare(self, request: JudgeRequest[Any]) -> Any:
        """What every attempt of ``request`` shares (schemas, tool, token limit), worked out once."""

    @abstractmethod
    def build_request(
        self, form: str, messages: list[ChatMessage], prepared: Any, max_tokens: int | None
    ) -> dict[str, Any]:
        """The request body for ``messages`` in structured-output ``form``, with ``max_tokens`` if not ``None``."""

    @abstractmethod
    async def send(self, client: Any, body: dict[str, Any]) -> Any:
        """One HTTP request through the SDK; its response object."""

    @abstractmethod
    def parse_reply(self, response: Any, prepared: Any) -> Completion:
        """The reply's text, finish reason and usage."""


def wire_body(body: dict[str, Any]) -> dict[str, Any]:
    """A request body as it goes over the wire: the SDK's ``extra_body`` merged into the JSON (a batch
    job's line holds the JSON itself, not SDK arguments)."""
    out = dict(body)
    out.update(out.pop("extra_body", None) or {})
    return out


__all__ = ["ErrorRule", "HTTPJudge", "ReplyTimeout", "wire_body"]
