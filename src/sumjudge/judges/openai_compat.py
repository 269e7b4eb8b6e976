"""Chat Completions for OpenAI and every compatible server (vLLM, Ollama, llama.cpp, Groq, ...).

One :class:`OpenAICompatJudge` per ``"provider/model"``. The layers every call goes through
(re-asks, retries, limiter, per-loop client) are :class:`~sumjudge.judges.http.HTTPJudge`'s; this
module holds what is Chat Completions' own: the request body for each structured-output form, the
reply's text and usage, and the table of the ``openai`` SDK's errors (timeouts and dropped
connections heal; statuses as :func:`~sumjudge.judges.retry.classify_status` says; a 404 names the
model and the endpoint).

Structured output follows the provider entry's ``structured`` form and falls back, for this
judge only, when a server refuses it: ``json_schema`` (strict) -> ``json_object`` with a
``schema`` (llama-cpp-python's server) -> plain JSON mode with the schema in the prompt ->
the schema in the prompt alone. A refusal is a 400/422 or a 500 whose message names
``response_format`` or ``json_schema``; switching costs no retry.

Token log-probabilities: where the provider entry says its servers return them (``logprobs``), every
request asks for them (``logprobs: true``, ``top_logprobs``: :data:`TOP_LOGPROBS`) and the reply
carries them (:attr:`~sumjudge.judges.base.JudgeReply.logprobs`); a server that refuses them (a
400/403/422 naming ``logprobs``: OpenAI's reasoning models) is asked without them from then on, at no
retry cost. A server that ignores them (LM Studio) gives a reply without them, as any other server.
``ModelConfig(extra={"logprobs": False})`` turns them off (reading them costs the client some CPU per
call: docs/results.md); ``extra={"logprobs": True, "top_logprobs": N}``
asks any server for them.
"""

from __future__ import annotations

import json
import ssl
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import urlsplit

from ..errors import ConfigurationError, MissingDependencyError
from .base import ChatMessage, JudgeRequest, TokenLogprob, Usage, merge_turns, reported_count, served_model
from .http import ErrorRule, HTTPJudge
from .providers import resolve_api_key, resolve_base_url
from .retry import Classification, Permanent, Transient, classify_status
from .schema_bounds import SchemaBounds, bound_schema
from .structured import Completion, schema_name, strict_json_schema, with_schema_in_prompt

PLACEHOLDER_API_KEY = "sk-no-key-required"
"""Sent to local servers that need no key (the SDK insists on one)."""

PROMPT_ONLY = "prompt"
"""Last fallback: no ``response_format`` at all, the schema stated in the prompt."""

GRAMMAR_BOUNDS = SchemaBounds(max_items=40, max_string_chars=400)
"""Generous enough for a capable model's claims and reasons, finite for a weak one's."""

FALLBACK_ORDER: tuple[str, ...] = ("json_schema", "json_object_schema", "json_object", PROMPT_ONLY)

_REFUSAL_WORDS = ("response_format", "json_schema", "json schema", "json_object", "structured output")

TOP_LOGPROBS = 5
"""Alternatives asked for at each token: enough that a verdict's ``true`` and ``false`` both show
(the scorer normalises over the two), within every server's limit (OpenAI's is 20, Azure's 5)."""


def _import_openai() -> Any:
    try:
        import openai
    except ImportError as exc:  # pragma: no cover - openai is a core dependency
        raise MissingDependencyError("the openai SDK", "pip install openai") from exc
    return openai


def _as_json_object(response: Any) -> Any:
    """The reply as parsed JSON: the SDK hands back text when the server's Content-Type is not JSON."""
    if isinstance(response, (str, bytes)):
        try:
            return json.loads(response)
        except ValueError:
            return None
    return response


def _field(value: Any, name: str) -> Any:
    return value.get(name) if isinstance(value, dict) else None


def _count(value: Any) -> int:
    return reported_count(value)


def read_logprobs(choice: Any) -> tuple[TokenLogprob, ...] | None:
    """``choice.logprobs.content`` as tokens with their log-probabilities (``None`` when absent or
    unreadable: a reply is never refused over them)."""
    content = _field(_field(choice, "logprobs"), "content")
    if not isinstance(content, list) or not content:
        return None
    try:
        return tuple(
            TokenLogprob(
                entry["token"] + "",  # a str, or TypeError
                float(entry["logprob"]),
                tuple((alt["token"] + "", float(alt["logprob"])) for alt in entry.get("top_logprobs") or ()),
            )
            for entry in content
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def http_client_class(openai: Any, base_url: str | None) -> Any:
    """The SDK's HTTP client class for this judge: aiohttp's transport when the SDK has it and aiohttp
    is installed (``openai[aiohttp]``, a core dependency), else the SDK's default, httpx.

    aiohttp's transport spends about 3 ms less of the client's CPU per evaluation (three calls) than
    httpx's (docs/design-notes.md): what a batch at high concurrency waits on. A base URL with
    credentials in it (``https://user:pass@host``) keeps httpx, which turns them into Basic auth where
    aiohttp refuses them beside the API key's header."""
    aio = getattr(openai, "DefaultAioHttpClient", None)
    if aio is None or _has_credentials(base_url):
        return openai.DefaultAsyncHttpxClient
    try:
        import aiohttp  # noqa: F401 - only whether it is there
    except ImportError:
        return openai.DefaultAsyncHttpxClient
    return aio


def _has_credentials(base_url: str | None) -> bool:
    try:
        return bool(base_url) and "@" in urlsplit(base_url).netloc
    except ValueError:  # the SDK's client refuses the URL, by name, when the judge is built
        return False


def _refused(exc: BaseException) -> bool:
    """Whether an OS-level connection failure that is not a timeout is in ``exc``'s causes."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, OSError) and not isinstance(cause, TimeoutError):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def server_message(exc: BaseException) -> str:
    """The server's own error message from an SDK status error (else the exception text)."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            msg = inner.get("message") or inner.get("detail")
            if isinstance(msg, str) and msg:
                return msg
        elif isinstance(inner, str) and inner:
            return inner
        detail = body.get("detail")
        if detail:
            return str(detail)
    elif isinstance(body, str) and body.strip():
        return body.strip()
    return str(getattr(exc, "message", "") or exc)



@dataclass(frozen=True)
class _Prepared:
    """What every attempt of one request shares."""

    schema: dict[str, Any]
    grammar_schema: dict[str, Any]
    name: str
    max_tokens: int | None
    temperature: float
    """The request's own temperature (a repeated sample's), else the configured one."""


class OpenAICompatJudge(HTTPJudge):
    """A judge that speaks Chat Completions. Safe to share across tasks, threads and event loops."""

    fallback_order = FALLBACK_ORDER
    key_in_authorization: ClassVar[bool] = True
    """Whether the API key travels as ``Authorization: Bearer`` (Azure's goes in ``api-key``): then a base
    URL with ``user:password`` (Basic auth, the same header) is refused beside a key."""

    def setup(self) -> None:
        self._openai = _import_openai()
        spec, config = self._spec, self.config
        key = resolve_api_key(spec, config)  # a hosted provider without a key fails here, naming the variable
        self._api_key = key if key is not None else PLACEHOLDER_API_KEY
        if not resolve_base_url(spec, config):
            raise ConfigurationError(
                f"provider {spec.name!r} has no default endpoint: set {spec.base_url_env} "
                f"or pass ModelConfig(id=..., base_url=...)"
            )
        if key is not None and self.key_in_authorization and _has_credentials(resolve_base_url(spec, config)):
            raise ConfigurationError(
                f"{self.model_id}: the base URL carries user:password, which HTTP sends as Basic auth in the "
                "Authorization header where the API key's Bearer token goes, so the key would never be sent; "
                "remove user:password from the URL, or the API key (or send one of them with ModelConfig.headers)"
            )
        self._ssl_context: ssl.SSLContext | None = None
        self._http_client_class = http_client_class(self._openai, resolve_base_url(spec, config))
        self._logprobs = spec.logprobs
        """Whether requests ask for token log-probabilities; turned off for good by a refusal."""

    @property
    def base_url(self) -> str:
        assert self._base_url is not None  # checked in __init__
        return self._base_url

    def first_form(self) -> str:
        return self._spec.structured

    @property
    def asks_logprobs(self) -> bool:
        """Whether this judge asks for token log-probabilities now (after any refusal)."""
        return self._logprobs

    # -- request and reply -----------------------------------------------------------------------

    def prepare(self, request: JudgeRequest[Any]) -> _Prepared:
        schema = strict_json_schema(request.output_type)
        return _Prepared(
            schema=schema,
            # A grammar-constrained server (json_object + schema) gets every array and string
            # bounded (the request's bounds, else ours), so even a small model ends with valid JSON.
            grammar_schema=bound_schema(schema, request.bounds, GRAMMAR_BOUNDS),
            name=schema_name(request.output_type),
            max_tokens=request.max_output_tokens or self.config.max_output_tokens,
            temperature=self.config.temperature if request.temperature is None else request.temperature,
        )

    def schema_in_prompt(self, form: str) -> bool:
        return form != "json_schema"

    def reply_limit(self, prepared: _Prepared, room: int) -> int | None:
        # Only a limit the user or the request set: without one the reply may use the rest of the
        # window, which the budget has already checked holds the request's reply room (a bound from
        # the scorer's estimates would cut off a verbose model, or a reasoning model whose hidden
        # reasoning counts against max_completion_tokens; see docs/long-sources.md).
        return prepared.max_tokens

    def build_request(
        self, form: str, messages: list[ChatMessage], prepared: _Prepared, max_tokens: int | None
    ) -> dict[str, Any]:
        if form != "json_schema":
            messages = with_schema_in_prompt(messages, prepared.schema)
        body: dict[str, Any] = {
            "model": self._name,
            "messages": [{"role": m.role, "content": m.content} for m in merge_turns(messages)],
            "temperature": prepared.temperature,
        }
        if form == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": prepared.name, "schema": prepared.schema, "strict": True},
            }
        elif form == "json_object_schema":
            body["response_format"] = {"type": "json_object", "schema": prepared.grammar_schema}
        elif form == "json_object":
            body["response_format"] = {"type": "json_object"}
        if max_tokens is not None:
            body[self._spec.max_tokens_field] = max_tokens
        if self._logprobs and "logprobs" not in self.config.extra:  # the user's own setting wins, off included
            body["logprobs"] = True
            body["top_logprobs"] = TOP_LOGPROBS
        if self.config.extra:
            body["extra_body"] = dict(self.config.extra)
        return body

    async def send(self, client: Any, body: dict[str, Any]) -> Any:
        # The SDK's own POST, as `chat.completions.create` ends: the body is built above in the API's
        # shape already, so create()'s walk of it against the typed parameters (about 0.6 ms a call,
        # most of it in the schema) had nothing to change. Auth, errors and the Azure URLs are the SDK's.
        # The reply comes back as the parsed JSON (`cast_to=object`): building the typed ChatCompletion
        # from it cost about 0.3 ms a call, to read four fields (parse_reply).
        # ModelConfig.extra goes where create(extra_body=...) puts it: merged into the JSON body.
        extra = body.get("extra_body")
        if extra:
            body = {k: v for k, v in body.items() if k != "extra_body"}
        options = {"extra_json": extra} if extra else {}
        return await client.post("/chat/completions", body=body, options=options, cast_to=object)

    def parse_reply(self, response: Any, prepared: _Prepared) -> Completion:
        reply = _as_json_object(response)
        usage = _field(reply, "usage")
        details = _field(usage, "prompt_tokens_details")
        counted = Usage(
            prompt_tokens=_count(_field(usage, "prompt_tokens")),
            completion_tokens=_count(_field(usage, "completion_tokens")),
            calls=1,
            cached_tokens=_count(_field(details, "cached_tokens")),
            served_models=served_model(_field(reply, "model")),
        )
        choices = _field(reply, "choices")
        if not isinstance(choices, list) or not choices:
            return Completion(text=None, finish_reason=None, usage=counted)
        choice = choices[0]
        message = _field(choice, "message")
        text, refusal, finish = _field(message, "content"), _field(message, "refusal"), _field(choice, "finish_reason")
        return Completion(
            text=text if isinstance(text, str) else None,
            finish_reason=finish if isinstance(finish, str) else None,
            usage=counted,
            refusal=refusal if isinstance(refusal, str) else None,
            logprobs=read_logprobs(choice),
        )

    def response_from_json(self, payload: dict[str, Any]) -> Any:
        return payload

    def refuses_form(self, exc: BaseException, form: str) -> bool:
        """A 400/422/500 whose message names ``response_format`` or ``json_schema``."""
        if form == PROMPT_ONLY or not isinstance(exc, self._openai.APIStatusError):
            return False
        if exc.status_code not in (400, 422, 500):
            return False
        text = server_message(exc).lower()
        return any(word in text for word in _REFUSAL_WORDS)

    def drop_refused_option(self, exc: BaseException, body: dict[str, Any]) -> bool:
        """A 400/403/422 whose message names ``logprobs``, to a request that asked for them: this judge
        stops asking (log-probabilities a user put in ``ModelConfig.extra`` are the user's, and stay)."""
        if "logprobs" not in body or not isinstance(exc, self._openai.APIStatusError):
            return False
        if exc.status_code not in (400, 403, 422) or "logprob" not in server_message(exc).lower():
            return False
        with self._lock:
            self._logprobs = False
        return True

    # -- failures --------------------------------------------------------------------------------

    @property
    def errors(self) -> tuple[ErrorRule, ...]:
        openai = self._openai
        return (
            (openai.APITimeoutError, self._timed_out),
            (openai.APIConnectionError, self._connection_failed),
            (openai.APIStatusError, self._status_error),
            (openai.APIResponseValidationError, lambda exc: Transient(f"unreadable response: {exc}")),
        )

    @property
    def rate_limit_error(self) -> type[BaseException]:
        return self._openai.RateLimitError  # type: ignore[no-any-return]

    def _timed_out(self, exc: Any) -> Classification:
        # aiohttp's transport reports a refused connection as a connect timeout: the cause says which
        if _refused(exc):
            return self._connection_failed(exc)
        return Transient(f"no reply within {self.config.timeout:g}s (timeout)")

    def _connection_failed(self, exc: Any) -> Classification:
        cause = exc.__cause__ or exc.__context__
        detail = f": {cause}" if cause else ""
        return Transient(f"connection failed or dropped ({self._base_url}){detail}")

    def _status_error(self, exc: Any) -> Classification:
        verdict = classify_status(exc.status_code, server_message(exc), exc.response.headers)
        if isinstance(verdict, Permanent) and exc.status_code == 404:
            return Permanent(f"{verdict.reason}; model {self._name!r} at {self._base_url}", status=404)
        return verdict

    # -- the SDK client (one per event loop) -----------------------------------------------------

    def _ssl(self) -> ssl.SSLContext:
        with self._lock:
            if self._ssl_context is None:
                self._ssl_context = ssl.create_default_context()
            return self._ssl_context

    def make_client(self) -> Any:
        openai = self._openai
        http_client = self._http_client_class(verify=self._ssl())
        return openai.AsyncOpenAI(
            api_key=self._api_key,
            base_url=self._base_url,
            timeout=self.config.timeout,
            max_retries=0,
            default_headers=dict(self.config.headers) or None,
            http_client=http_client,
        )


__all__ = ["FALLBACK_ORDER", "PLACEHOLDER_API_KEY", "TOP_LOGPROBS", "OpenAICompatJudge", "read_logprobs", "server_message"]
