"""``assert_summary``: score a summary inside a test and fail with what a developer needs to act.

The check itself knows nothing of pytest. Under pytest the plugin (:mod:`.pytest_plugin`) opens a
:class:`ScoringScope` for the session: it names the judge (``--sumjudge-model``, ini
``sumjudge_model``, ``SUMJUDGE_MODEL``, else the offline judge), keeps one scorer per judge for the
whole session (so questions are asked once per source), and records each check on the running
test. Outside pytest each call builds its own scorer and records nothing.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..figures.decide import ON_INCONCLUSIVE, OnInconclusive
from ..guards.terminal import inert
from ..errors import ConfigurationError, InputError
from ..judges.base import JudgeModel, ModelConfig
from ..summarization.item_gates import ItemGates
from ..summarization import (
    SummarizationOptions,
    SummarizationResult,
    SummarizationScorer,
    create_summarization_scorer,
)
from .bounds import Bound, Ceiling, sample_interval
from .scopes import ScoringScope, close_scope, current_scope, open_scope, scoring_scope

DEFAULT_MIN_SCORE = 0.5
"""With no bound given, a summary must score at least this share of the scale."""
ALLOWED_OPTIONS = tuple(
    f.name for f in fields(SummarizationOptions) if f.name not in ("source", "source_extractor")
)
"""Scorer options ``assert_summary`` takes as keywords (``max_questions``, ``scale``, ``samples``...);
the source is its first argument."""
_LISTED = 10
"""Claims or questions quoted in a failure message; the rest are counted."""

Model = str | ModelConfig | JudgeModel | SummarizationScorer | None


# -- where a check runs: a pytest session (:mod:`.scopes`), or nowhere in particular --------------


class ScorerPool:
    """One scorer per (judge, options), made on first use and shared: scorers are thread-safe and
    keep their question cache for their lifetime."""

    def __init__(self, default_model: str | None = None) -> None:
        self.default_model = default_model
        self._scorers: dict[tuple[Any, ...], tuple[Any, SummarizationScorer]] = {}
        self._lock = threading.Lock()

    def get(self, model: Model, options: Mapping[str, Any]) -> SummarizationScorer:
        if isinstance(model, SummarizationScorer):
            return model
        chosen = self.default_model if model is None else model
        # a string is its own key; a config or judge object is kept alive beside its scorer, so its id stays unique
        who = ("id", chosen) if chosen is None or isinstance(chosen, str) else ("object", id(chosen))
        key = (*who, tuple(sorted(options.items())))
        with self._lock:
            found = self._scorers.get(key)
            if found is None:
                found = self._scorers[key] = (chosen, create_summarization_scorer(chosen, dict(options)))
            return found[1]


# -- the check -------------------------------------------------------------------------------------


class SummaryInconclusive(AssertionError):
    """``assert_summary`` could not decide: the interval of the samples' scores crosses a bound.

    An ``AssertionError``, so a test that meets one does not pass; ``on_inconclusive="pass"`` or
    ``"fail"`` chooses one of the two outcomes instead."""


@dataclass(frozen=True)
class SummaryCheck:
    """A scored summary and the bounds it was held to."""

    result: SummarizationResult
    bounds: tuple[Bound | Ceiling, ...]

    @property
    def judge(self) -> str:
        return self.result.model

    @property
    def passed(self) -> bool:
        return all(b.ok for b in self.bounds)

    @property
    def outcome(self) -> str:
        """fail when a bound failed, else inconclusive when one could not decide, else pass."""
        outcomes = {b.outcome for b in self.bounds}
        return "fail" if "fail" in outcomes else "inconclusive" if "inconclusive" in outcomes else "pass"

    def raise_unless_passed(self) -> None:
        __tracebackhide__ = True
        if self.outcome == "fail":
            raise AssertionError(self.message())
        if self.outcome == "inconclusive":
            raise SummaryInconclusive(self.message())

    def message(self) -> str:
        """What failed, the figures against their bounds, and the verdicts behind them; control
        characters of the texts quoted as their escapes (:func:`~sumjudge.guards.terminal.inert`)."""
        res = self.result
        failed = ", ".join(b.name for b in self.bounds if not b.ok) or "nothing"
        how = "inconclusive" if self.outcome == "inconclusive" else "failed"
        lines = [f"summary {how} on {failed} (judge: {self.judge})"]
        lines += [f"  {b.line()}" for b in self.bounds if isinstance(b, Bound) or b.maximum is not None]
        claims = res.preprocess_step_result.alignment
        unsupported = [v for v in claims if not v.supported]
        lines += _listed(
            f"unsupported claims ({len(unsupported)} of {len(claims)})",
            [f'"{v.claim}": {v.reason}' if v.reason else f'"{v.claim}"' for v in unsupported],
        )
        questions = res.preprocess_step_result.questions
        unanswered = [v for v in res.analyze_step_result.coverage if not v.answered]
        lines += _listed(
            f"unanswered questions ({len(unanswered)} of {len(questions)})",
            [f'"{v.question}": {v.reason}' if v.reason else f'"{v.question}"' for v in unanswered],
        )
        if not claims or not questions:
            lines.append(f"reason: {res.reason}")
        return inert("\n".join(lines))  # the summary's own escapes (ESC[2J) print as text, never obeyed


def _listed(title: str, items: list[str]) -> list[str]:
    if not items:
        return [f"{title}: none"]
    shown = [f"{title}:", *(f"  - {item}" for item in items[:_LISTED])]
    if len(items) > _LISTED:
        shown.append(f"  ... and {len(items) - _LISTED} more")
    return shown


@dataclass(frozen=True)
class _Call:
    """One call of ``assert_summary``, checked before the judge is asked anything."""

    source: str
    summary: str
    scorer: SummarizationScorer
    minimums: tuple[float | None, float | None, float | None]
    default_score: bool
    scope: ScoringScope | None
    on_inconclusive: OnInconclusive = "inconclusive"
    max_unsupported: int | None = None

    @classmethod
    def checked(
        cls,
        source: Any,
        summary: Any,
        min_score: Any,
        min_alignment: Any,
        min_coverage: Any,
        model: Any,
        options: dict[str, Any],
        on_inconclusive: Any = None,
        max_unsupported: Any = None,
    ) -> _Call:
        for name, text in (("source", source), ("summary", summary)):
            if not isinstance(text, str):
                raise InputError(f"assert_summary: {name} must be a str, got {type(text).__name__}")
        unknown = sorted(set(options) - set(ALLOWED_OPTIONS))
        if unknown:
            raise ConfigurationError(
                f"assert_summary: unknown option(s) {', '.join(unknown)}; known: {', '.join(ALLOWED_OPTIONS)}"
                " (and min_score, min_alignment, min_coverage, max_unsupported, model)"
            )
        if isinstance(model, SummarizationScorer):
            if options:
                raise ConfigurationError(
                    "assert_summary: give options to the scorer you pass as model, not here"
                )
            scale = model.options.scale
        else:
            scale = SummarizationOptions(**options).scale  # checks max_questions and scale
        default_score = min_score is None and min_alignment is None and min_coverage is None
        minimums = (
            DEFAULT_MIN_SCORE * scale if default_score else _bound("min_score", min_score, scale),
            _bound("min_alignment", min_alignment, 1),
            _bound("min_coverage", min_coverage, 1),
        )
        scope = current_scope()
        if scope is not None:
            scorer = scope.scorer_for(model, options)
        elif isinstance(model, SummarizationScorer):
            scorer = model
        else:
            scorer = create_summarization_scorer(model, options)
        if on_inconclusive is None:  # the session's choice (the pytest plugin's option), else inconclusive
            on_inconclusive = getattr(scope, "on_inconclusive", "inconclusive")
        if max_unsupported is None:  # the session's choice (--sumjudge-max-unsupported), else no bound
            max_unsupported = getattr(scope, "max_unsupported", None)
        try:
            ItemGates(max_unsupported=max_unsupported)
        except ConfigurationError as exc:
            raise ConfigurationError(f"assert_summary: {exc}") from None
        if on_inconclusive not in ON_INCONCLUSIVE:
            raise ConfigurationError(
                f"assert_summary: on_inconclusive takes {', '.join(ON_INCONCLUSIVE)}, got {on_inconclusive!r}")
        return cls(source, summary, scorer, minimums, default_score, scope, on_inconclusive, max_unsupported)

    def conclude(self, result: SummarizationResult) -> SummaryCheck:
        low_score, low_alignment, low_coverage = self.minimums
        samples = list(getattr(result, "samples", None) or [])
        k = max(len(samples), 1)

        def ci(values: list[float]) -> tuple[float, float] | None:
            return sample_interval(values) if len(values) > 1 else None

        check = SummaryCheck(
            result=result,
            bounds=(
                Bound("score", result.score, low_score, default=self.default_score,
                      interval=ci([x.score for x in samples]), samples=k, on_inconclusive=self.on_inconclusive),
                Bound("alignment", result.alignment_score, low_alignment,
                      interval=ci([x.alignment_score for x in samples]), samples=k,
                      on_inconclusive=self.on_inconclusive),
                Bound("coverage", result.coverage_score, low_coverage,
                      interval=ci([x.coverage_score for x in samples]), samples=k,
                      on_inconclusive=self.on_inconclusive),
                Ceiling("unsupported", result.unsupported_claims, self.max_unsupported),
            ),
        )
        if self.scope is not None:
            self.scope.record(check)
        return check


def _bound(name: str, value: Any, upper: float) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise ConfigurationError(f"assert_summary: {name} must be a number in [0, {upper:g}], got {value!r}")
    if not 0 <= value <= upper:
        raise ConfigurationError(f"assert_summary: {name} must be in [0, {upper:g}], got {value!r}")
    return float(value)


def assert_summary(
    source: str,
    summary: str,
    *,
    min_score: float | None = None,
    min_alignment: float | None = None,
    min_coverage: float | None = None,
    max_unsupported: int | None = None,
    model: Model = None,
    on_inconclusive: OnInconclusive | None = None,
    **options: Any,
) -> SummarizationResult:
    """Score ``summary`` against ``source`` and raise ``AssertionError`` unless it meets every bound.

    ``min_score`` is in ``[0, scale]``, ``min_alignment`` and ``min_coverage`` in ``[0, 1]``; with
    none of the three given the score must reach half the scale. ``max_unsupported``: at most this many
    claims shown unsupported (``0``: none), whatever the coverage, the bound that stops an invented claim
    which the lower axis hides (under pytest, ``--sumjudge-max-unsupported`` sets it for the session). ``model``: a ``"provider/model"`` string, a
    ``ModelConfig``, a judge object or a ready scorer (such as the ``sumjudge_scorer`` fixture);
    omitted, the session's judge. ``options``: the scorer's (``max_questions``, ``scale``,
    ``samples``, ``reducer``, ``sample_temperature``). With ``samples=k > 1`` each bound is held
    against the 95% interval of the k samples' values: when it crosses the bound the check is
    inconclusive and raises :class:`SummaryInconclusive` (an ``AssertionError``), unless
    ``on_inconclusive`` is ``"pass"`` or ``"fail"``. Bad arguments raise
    ``ValueError`` (``ConfigurationError``, ``InputError``) before the judge is asked anything.
    Returns the result, so a test can look further.
    """
    __tracebackhide__ = True
    call = _Call.checked(source, summary, min_score, min_alignment, min_coverage, model, options, on_inconclusive,
                         max_unsupported)
    check = call.conclude(call.scorer.run_sync(input=call.source, output=call.summary))
    check.raise_unless_passed()
    return check.result


async def assert_summary_async(
    source: str,
    summary: str,
    *,
    min_score: float | None = None,
    min_alignment: float | None = None,
    min_coverage: float | None = None,
    max_unsupported: int | None = None,
    model: Model = None,
    on_inconclusive: OnInconclusive | None = None,
    **options: Any,
) -> SummarizationResult:
    """:func:`assert_summary` for async tests: ``await assert_summary_async(source, summary, ...)``."""
    __tracebackhide__ = True
    call = _Call.checked(source, summary, min_score, min_alignment, min_coverage, model, options, on_inconclusive,
                         max_unsupported)
    check = call.conclude(await call.scorer.run(input=call.source, output=call.summary))
    check.raise_unless_passed()
    return check.result


__all__ = [
    "DEFAULT_MIN_SCORE",
    "Bound",
    "Ceiling",
    "ScorerPool",
    "ScoringScope",
    "SummaryCheck",
    "SummaryInconclusive",
    "assert_summary",
    "assert_summary_async",
    "close_scope",
    "current_scope",
    "open_scope",
    "scoring_scope",
]
