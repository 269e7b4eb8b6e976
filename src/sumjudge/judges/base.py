"""What every judge model is: a request (prompt, schema, typed inputs) in, a validated object out.

This is the only meeting point between scorers and providers. A scorer builds a
:class:`JudgeRequest`; a provider (OpenAI-compatible HTTP, Anthropic, llama.cpp in process,
the offline lexical judge, a scripted test judge) turns it into a :class:`JudgeReply` whose
``output`` is an instance of ``request.output_type``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, Generic, Literal, NamedTuple, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from ..guards.limits import MAX_CONCURRENCY, MAX_REASKS, MAX_RETRIES, MAX_WINDOW_TOKENS

OutputT = TypeVar("OutputT", bound=BaseModel)

Role = Literal["system", "user", "assistant"]


class ChatMessage(BaseModel):
    """One rendered prompt message."""

    model_config = ConfigDict(frozen=True)

    role: Role
    content: str
    cache: bool = False
    """The prompt up to and including this message is shared by many calls (instructions and source):
    providers that cache prompt prefixes on request (Anthropic) are asked to cache it here."""


def merge_turns(messages: list[ChatMessage]) -> list[ChatMessage]:
    """Consecutive messages of one role joined by a blank line, as one message (for chat APIs and
    templates that expect turns to alternate); the ``cache`` mark of the last part is kept."""
    out: list[ChatMessage] = []
    for m in messages:
        if out and out[-1].role == m.role:
            out[-1] = ChatMessage(role=m.role, content=out[-1].content + "\n\n" + m.content, cache=m.cache)
        else:
            out.append(m)
    return out


REQUEST_FIELDS = ("model", "messages", "response_format", "tools", "tool_choice", "functions", "function_call",
                  "stream", "system")
"""Fields of the request body that the scorer itself sets (what is asked, of which model, in which
shape, read how): a setting (``ModelConfig.extra``, ``--judge-option``) naming one would replace the
scorer's request, so it is refused."""


def _finite(value: Any) -> bool:
    """Whether ``value`` holds no NaN or infinity, at any depth."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, Mapping):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list | tuple):
        return all(_finite(v) for v in value)
    return True


def extra_problem(extra: Mapping[str, Any]) -> str | None:
    """Why a judge's settings (``extra``) cannot be sent, or ``None``: a key that names a field of the
    request (:data:`REQUEST_FIELDS`), or a value that holds NaN or infinity."""
    own = sorted(k for k in extra if k.lower() in REQUEST_FIELDS)
    if own:
        return (f"{', '.join(own)} cannot be set as an option: the scorer sets the request's "
                f"{', '.join(REQUEST_FIELDS)} itself (name the model with --model)")
    bad = sorted(k for k, v in extra.items() if not _finite(v))
    if bad:
        return f"{', '.join(bad)}: NaN and infinity are not values a judge takes"
    return None


MAX_REPORTED_TOKENS = 10**9
"""The most tokens one call's usage may report: a figure past it (``1e20``), below 0, not finite or not a
number is not believed, and counts as 0 (an int past 2**63 cannot be stored, and sums of it would swamp a
run's cost)."""


def reported_count(value: Any) -> int:
    """A token count as a provider reported it, bounded where it is read (:data:`MAX_REPORTED_TOKENS`)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if isinstance(value, float) and not math.isfinite(value):
        return 0
    return int(value) if 0 < value <= MAX_REPORTED_TOKENS else 0


class Usage(BaseModel):
    """Token usage of one or more judge calls."""

    prompt_tokens: int = 0
    """Every prompt token, including those a provider served from its prompt cache."""
    completion_tokens: int = 0
    calls: int = 0
    cached_tokens: int = 0
    """Prompt tokens read from the provider's prompt cache (OpenAI ``cached_tokens``, Anthropic
    ``cache_read_input_tokens``): billed at a discount, and part of ``prompt_tokens``."""
    cache_write_tokens: int = 0
    """Prompt tokens written to the provider's prompt cache (Anthropic ``cache_creation_input_tokens``)."""
    served_models: tuple[str, ...] = ()
    """The model names the server said answered (a reply's ``model``: a dated snapshot, a llama.cpp
    server's loaded file), sorted: two runs under one judge name answered by other models are not the
    same judge (``compare`` refuses them)."""

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            calls=self.calls + other.calls,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
            served_models=tuple(sorted({*self.served_models, *other.served_models})),
        )


SERVED_MODEL_CHARS = 200
"""Characters of a reply's ``model`` kept: a name, never a document a faulty server sends there."""


def served_model(name: object) -> tuple[str, ...]:
    """``(name,)`` for a reply's ``model`` field that is a short printable name, else ``()``."""
    if not isinstance(name, str) or not name.strip() or len(name) > SERVED_MODEL_CHARS or not name.isprintable():
        return ()
    return (name.strip(),)


class StepInputs(BaseModel):
    """The typed inputs of a step, beside its rendered prompt.

    A judge that reads no prompt (the offline judge, a scripted test judge) answers from
    these. ``source`` is never set for the coverage step and ``summary`` never for the
    questions step: the same rule the prompts keep.
    """

    model_config = ConfigDict(frozen=True)

    source: str | None = None
    summary: str | None = None
    questions: list[str] | None = None
    max_questions: int | None = None
    claims: list[str] | None = None
    """Claims to judge as given (a long source's alignment checks claims against retrieved passages)."""
    passage_sentences: list[tuple[int, int]] | None = None
    """With ``claims``: where each retrieved passage begins in ``source`` (a character offset) and how
    many sentences of the whole source come before it, so that a judge that numbers sentences in its
    reasons numbers them in the whole source, not within the passages (never sent to a model)."""


@dataclass(frozen=True)
class ReplyBounds:
    """The size of a reply as the asker knows it, for judges that bound what a model may write.

    A judge whose decoding follows a grammar (llama.cpp) puts these on the schema so a weak model
    always reaches the closing brace; other judges ignore them. ``None`` leaves the judge's own cap.
    """

    min_items: int = 0
    """Items of each top-level array, at least."""
    max_items: int | None = None
    """Items of each top-level array, at most."""
    max_string_chars: int | None = None
    """Characters of every string, at most."""
    echo: tuple[str, ...] = ()
    """Texts the top-level items must copy, one per item in order, into their field ``echo_field``
    (a verdict per question asked, naming it). A grammar-bound judge pins them as constants, so even a
    weak model names what it was asked; other judges ignore it (the asker checks the reply)."""
    echo_field: str = ""

    def __post_init__(self) -> None:
        if self.min_items < 0 or (self.max_items is not None and self.max_items < max(1, self.min_items)):
            raise ValueError(f"reply bounds need 0 <= min_items <= max_items >= 1, got {self}")
        if self.max_string_chars is not None and self.max_string_chars < 1:
            raise ValueError("max_string_chars must be at least 1")

    @classmethod
    def exactly(cls, items: int) -> ReplyBounds:
        """Exactly ``items`` items in each top-level array (one verdict per question asked)."""
        return cls(min_items=items, max_items=items)

    @classmethod
    def echoing(cls, texts: Sequence[str], field: str) -> ReplyBounds:
        """One item per text, each copying its text into ``field`` (see :attr:`echo`)."""
        return cls(min_items=len(texts), max_items=len(texts), echo=tuple(texts), echo_field=field)

    @property
    def fixed(self) -> bool:
        """Whether the count of top-level items is fixed (and may not be lowered to fit a budget)."""
        return self.max_items is not None and self.min_items == self.max_items


@dataclass(frozen=True)
class JudgeRequest(Generic[OutputT]):
    """One structured judge call."""

    step: str
    """Name of the step, e.g. ``"alignment"``, ``"questions"``, ``"coverage"``."""
    messages: list[ChatMessage]
    output_type: type[OutputT]
    """The pydantic model the reply must validate against; its JSON schema is sent."""
    inputs: StepInputs = field(default_factory=StepInputs)
    max_output_tokens: int | None = None
    bounds: ReplyBounds = field(default_factory=ReplyBounds)
    """How many items and characters the reply may hold, as the asker knows it."""
    sample: int = 0
    """Which of an evaluation's repeated samples this call belongs to (0 without ``samples``). Part
    of every cache key, so a re-run reproduces each sample and no sample reuses another's reply."""
    temperature: float | None = None
    """Overrides the judge's configured temperature for this call (samples are drawn above 0)."""
    reply_tokens: int | None = None
    """Tokens the asker reserved for the reply when it fitted the request to the judge's context
    window. A judge that checks budgets (every HTTP judge, the local one) keeps at least this much
    room below the window on every attempt, re-asks included. Not part of any cache key."""


class TokenLogprob(NamedTuple):
    """One token of a reply with its log-probability and the most likely tokens at its place
    (OpenAI's ``choices[0].logprobs.content[i]``). Natural logarithms. A named tuple: a reply has
    hundreds of them, made on every call (a frozen dataclass took twice as long to build)."""

    token: str
    logprob: float
    top: tuple[tuple[str, float], ...] = ()
    """``(token, logprob)`` of the likeliest tokens at this position, the chosen one among them
    where the server lists it; empty when the server gave none."""


@dataclass(frozen=True)
class JudgeReply(Generic[OutputT]):
    """A validated reply and what it cost."""

    output: OutputT
    usage: Usage = field(default_factory=Usage)
    raw: str | None = None
    """The text the model produced, when there was one (for debugging and storage)."""
    logprobs: tuple[TokenLogprob, ...] | None = None
    """The tokens of ``raw`` with their log-probabilities, from a judge whose server returned them
    (OpenAI-compatible servers asked for ``logprobs``); ``None`` otherwise. What they mean for the
    output is the asker's business: the judge layer only carries them."""


@runtime_checkable
class JudgeModel(Protocol):
    """Anything that can answer a :class:`JudgeRequest`. Pass your own to ``create_summarization_scorer``.

    Implementations must be safe to call concurrently from one event loop, and hold no
    per-evaluation state.
    """

    @property
    def model_id(self) -> str:
        """A stable ``"provider/model"`` name; used in cache keys and run records."""
        ...

    async def generate(self, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        """Answer one request with an object of ``request.output_type``, or raise ``JudgeError``."""
        ...


def judge_identity(judge: JudgeModel) -> str:
    """What a judge's verdicts depend on, as one string: its ``fingerprint`` where it has one (the
    offline judges: name, rules version and word data, ``"offline/lexical@21.1+snowballstemmer=3.1.1"``),
    else its ``model_id``. A wrapper (:class:`WrappedJudge`) answers for the judge it wraps. Put it in
    a run's key so that a run is never resumed with another judge's verdicts.

    A judge without a fingerprint (one over HTTP) answers as its ``config.extra`` tells it (the
    provider's own parameters, ``--judge-option``: ``temperature``, ``top_p``, ``seed``, ...): they are
    part of its identity as a digest, ``"openai/gpt-4o-mini+options=3f2a9c01d4e5b6a7"`` (never their values,
    which an exam file shows), so a run made under other settings is never resumed and never holds replies
    made under two."""
    seen = 0
    while isinstance(judge, WrappedJudge) and seen < 16:
        judge, seen = judge.inner, seen + 1
    fingerprint = getattr(judge, "fingerprint", None)
    if isinstance(fingerprint, str) and fingerprint:
        return fingerprint
    extra = getattr(getattr(judge, "config", None), "extra", None)
    if isinstance(extra, Mapping) and extra:
        settings = json.dumps(dict(extra), sort_keys=True, default=str).encode("utf-8")
        return f"{judge.model_id}+options={hashlib.sha256(settings).hexdigest()[:16]}"
    return judge.model_id


class WrappedJudge:
    """Base of a judge that wraps another (the reply cache, the batch meter): it answers to the inner
    judge's name and settings, so a cache key or a run record cannot tell the wrapper from the judge."""

    def __init__(self, inner: JudgeModel) -> None:
        self.inner = inner

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def config(self) -> ModelConfig | None:
        return getattr(self.inner, "config", None)

    @property
    def cpu_bound(self) -> bool:
        """Whether the inner judge does its work on this machine's CPU (see :func:`is_cpu_bound`)."""
        return is_cpu_bound(self.inner)


def is_cpu_bound(judge: object) -> bool:
    """Whether ``judge`` computes its answers on the local CPU (a class attribute ``cpu_bound = True``),
    so a batch is faster on several processes; judges that wait on a server say nothing (``False``)."""
    return bool(getattr(judge, "cpu_bound", False))


class ModelConfig(BaseModel):
    """A judge model named by ``"provider/model"`` with explicit settings.

    Values left ``None`` come from the provider registry and the environment
    (``<PROVIDER>_API_KEY``, ``<PROVIDER>_BASE_URL``).
    """

    model_config = ConfigDict(frozen=True)

    id: str
    api_key: SecretStr | None = None
    base_url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    temperature: float = 0.0
    timeout: float = Field(default=60.0, gt=0, description="seconds per request")
    max_retries: int = Field(default=4, ge=0, le=MAX_RETRIES, description="retries of transient failures per call")
    max_retry_time: float = Field(default=120.0, gt=0, description="seconds spent retrying one call, at most")
    max_reasks: int = Field(default=2, ge=0, le=MAX_REASKS, description="re-asks on invalid or truncated output")
    max_output_tokens: int | None = Field(default=None, ge=1, le=MAX_WINDOW_TOKENS)
    context_window: int | None = Field(
        default=None,
        ge=512,
        le=MAX_WINDOW_TOKENS,
        description="tokens per call, prompt and reply together; None: the model's known window or a default",
    )
    max_concurrency: int | None = Field(
        default=None, ge=1, le=MAX_CONCURRENCY,
        description="requests in flight at most; lowered on 429 and raised again slowly"
    )
    extra: dict[str, Any] = Field(default_factory=dict, description="provider-specific settings")
    api_version: str | None = Field(
        default=None, description="Azure OpenAI's api-version (else OPENAI_API_VERSION, else a recent GA version)"
    )

    @field_validator("extra")
    @classmethod
    def _settings_not_the_request(cls, extra: dict[str, Any]) -> dict[str, Any]:
        problem = extra_problem(extra)
        if problem:
            raise ValueError(problem)
        return extra
