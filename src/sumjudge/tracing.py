"""OpenTelemetry traces: one span per evaluation, one per judge call as its child (extra ``otel``).

The scorer opens the evaluation span (:func:`evaluation_span`) and sends its judge requests
through :class:`TracedJudge` (its ``judge`` attribute stays the judge it was given), so this module sits between the scorers and the judges
(not under ``integrations/``, whose modules sit above ``run_evals``).

Nothing to call: once the application uses OpenTelemetry (it has imported ``opentelemetry.trace``,
as configuring any tracer provider does), every summarization scorer reports to the global tracer provider. Until then sumjudge imports nothing of OpenTelemetry and
adds nothing but a dictionary look-up per call; without a configured provider the spans are
OpenTelemetry's no-op spans. Only ``opentelemetry-api`` is needed at run time.

Names and attributes follow the OpenTelemetry GenAI semantic conventions:

- judge call: span ``chat {model}`` (kind CLIENT), ``gen_ai.operation.name = "chat"``,
  ``gen_ai.provider.name`` (and the older ``gen_ai.system``), ``gen_ai.request.model``,
  ``gen_ai.request.temperature``, ``gen_ai.usage.input_tokens`` / ``output_tokens``,
  ``server.address`` / ``server.port``, ``error.type`` when it failed, and
  ``sumjudge.step`` (``alignment``, ``questions`` or ``coverage``). A reply served by the
  reply cache has ``sumjudge.cache_hit = true`` and no tokens.
- evaluation: span ``evaluate {scorer id}`` (kind INTERNAL) with ``gen_ai.operation.name =
  "evaluate"`` (sumjudge's own value; the conventions name no operation for evaluations),
  ``gen_ai.evaluation.name``, ``gen_ai.evaluation.score.value``, ``sumjudge.alignment_score``,
  ``sumjudge.coverage_score``, the claim and question counts, the judge's model and provider,
  and the tokens of all its calls; plus a ``gen_ai.evaluation.result`` event carrying the score
  and the reason (``gen_ai.evaluation.explanation``).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from .errors import MissingDependencyError
from .judges.base import JudgeModel, JudgeReply, JudgeRequest, OutputT, WrappedJudge

OTEL_INSTALL = "pip install 'sumjudge[otel]'"
TRACER_NAME = "sumjudge"

PROVIDER_NAMES = {
    "openai": "openai",
    "azure": "azure.ai.openai",
    "anthropic": "anthropic",
    "google": "gcp.gemini",
    "groq": "groq",
    "deepseek": "deepseek",
    "mistral": "mistral_ai",
    "xai": "x_ai",
}
"""sumjudge provider -> ``gen_ai.provider.name`` where the conventions list one; others keep their name."""


def active() -> bool:
    """Whether the application uses OpenTelemetry: ``opentelemetry.trace`` is imported. Imports nothing."""
    return "opentelemetry.trace" in sys.modules


def import_trace() -> Any:
    """``opentelemetry.trace``, or :class:`MissingDependencyError` naming the extra."""
    try:
        return importlib.import_module("opentelemetry.trace")
    except ImportError as exc:
        raise MissingDependencyError(f"opentelemetry-api ({exc})", OTEL_INSTALL) from exc


def _tracer() -> Any:
    try:
        version: str | None = importlib.metadata.version("sumjudge")
    except importlib.metadata.PackageNotFoundError:
        version = None
    return import_trace().get_tracer(TRACER_NAME, version)


def split_model(model_id: str) -> tuple[str, str]:
    """``"openai/gpt-4o-mini"`` -> ``("openai", "gpt-4o-mini")`` (the GenAI provider name for known ones)."""
    provider, _, model = model_id.partition("/")
    return PROVIDER_NAMES.get(provider, provider), model or provider


def _model_attributes(model_id: str) -> dict[str, Any]:
    provider, model = split_model(model_id)
    return {"gen_ai.provider.name": provider, "gen_ai.system": provider, "gen_ai.request.model": model}


class TracedJudge(WrappedJudge):
    """A judge wrapper that makes one CLIENT span per call while OpenTelemetry is active.

    Anything else is read from the wrapped judge, so the wrapper is transparent to code that
    inspects its judge.
    """

    def __getattr__(self, name: str) -> Any:
        if name == "inner":  # not set yet (unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.inner, name)

    async def generate(self, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        if not active():
            return await self.inner.generate(request)
        _, model = split_model(self.model_id)
        trace = import_trace()
        with _tracer().start_as_current_span(
            f"chat {model}", kind=trace.SpanKind.CLIENT, attributes=self._call_attributes(request)
        ) as span:
            try:
                reply = await self.inner.generate(request)
            except BaseException as exc:
                span.set_attribute("error.type", type(exc).__name__)
                raise
            span.set_attribute("gen_ai.usage.input_tokens", reply.usage.prompt_tokens)
            span.set_attribute("gen_ai.usage.output_tokens", reply.usage.completion_tokens)
            if reply.usage.calls == 0:  # served by the reply cache: no request was made
                span.set_attribute("sumjudge.cache_hit", True)
            return reply

    def _call_attributes(self, request: JudgeRequest[Any]) -> dict[str, Any]:
        attributes = {"gen_ai.operation.name": "chat", "gen_ai.output.type": "json", "sumjudge.step": request.step}
        attributes.update(_model_attributes(self.model_id))
        config = self.config
        temperature = request.temperature if request.temperature is not None else getattr(config, "temperature", None)
        if temperature is not None:
            attributes["gen_ai.request.temperature"] = temperature
        if config is not None:
            max_tokens = request.max_output_tokens or config.max_output_tokens
            if max_tokens:
                attributes["gen_ai.request.max_tokens"] = max_tokens
            if config.base_url:
                url = urlsplit(config.base_url)
                if url.hostname:
                    attributes["server.address"] = url.hostname
                if url.port:
                    attributes["server.port"] = url.port
        return attributes


def traced(judge: JudgeModel) -> JudgeModel:
    """``judge`` wrapped in :class:`TracedJudge` when OpenTelemetry is installed; else ``judge`` itself.

    Only looked up, never imported: with OpenTelemetry absent nothing changes.
    """
    if isinstance(judge, TracedJudge) or importlib.util.find_spec("opentelemetry") is None:
        return judge
    return TracedJudge(judge)


Record = Callable[[Any], None]


def _no_record(result: Any) -> None:
    return None


@contextmanager
def evaluation_span(scorer_id: str, model_id: str, run_id: str) -> Iterator[Record]:
    """The span of one evaluation, current while it runs (judge calls become its children).

    Yields a function to call with the evaluation's result, which sets the score attributes.
    A no-op while OpenTelemetry is not active.
    """
    if not active():
        yield _no_record
        return
    attributes = {"gen_ai.operation.name": "evaluate", "gen_ai.evaluation.name": scorer_id, "sumjudge.run_id": run_id}
    attributes.update(_model_attributes(model_id))
    with _tracer().start_as_current_span(f"evaluate {scorer_id}", attributes=attributes) as span:
        try:
            yield lambda result: _record(span, scorer_id, result)
        except BaseException as exc:
            span.set_attribute("error.type", type(exc).__name__)
            raise


def _record(span: Any, scorer_id: str, result: Any) -> None:
    if not span.is_recording():
        return
    usage = result.usage
    pre, ana = result.preprocess_step_result, result.analyze_step_result
    span.set_attributes(
        {
            "gen_ai.evaluation.score.value": result.score,
            "sumjudge.score": result.score,
            "sumjudge.alignment_score": result.alignment_score,
            "sumjudge.coverage_score": result.coverage_score,
            "sumjudge.claims": len(pre.alignment),
            "sumjudge.supported_claims": sum(v.supported for v in pre.alignment),
            "sumjudge.questions": len(pre.questions),
            "sumjudge.answered_questions": sum(v.answered for v in ana.coverage),
            "sumjudge.judge_calls": usage.calls,
            "gen_ai.usage.input_tokens": usage.prompt_tokens,
            "gen_ai.usage.output_tokens": usage.completion_tokens,
        }
    )
    span.add_event(
        "gen_ai.evaluation.result",
        {
            "gen_ai.evaluation.name": scorer_id,
            "gen_ai.evaluation.score.value": result.score,
            "gen_ai.evaluation.explanation": result.reason,
        },
    )


__all__ = ["TracedJudge", "active", "evaluation_span", "split_model", "traced"]
