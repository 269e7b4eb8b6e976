"""Score summaries with DeepEval's ``evaluate()`` and ``assert_test`` (extra ``deepeval``).

::

    from deepeval import assert_test, evaluate
    from deepeval.test_case import LLMTestCase
    from sumjudge.integrations.deepeval import SumjudgeSummarizationMetric

    metric = SumjudgeSummarizationMetric(threshold=0.7, model="offline/lexical")
    case = LLMTestCase(input=article, actual_output=summary)
    evaluate(test_cases=[case], metrics=[metric])
    assert_test(case, [metric])                 # in a test: fails below the threshold

A drop-in beside or instead of DeepEval's ``SummarizationMetric``: the same test case fields (the
source is ``input``, the summary ``actual_output``), a ``BaseMetric`` with ``measure``/``a_measure``,
``score`` (sumjudge's score), ``reason`` (sumjudge's reason), ``success`` (``score >= threshold``;
``strict_mode``: the full scale; and the gates ``max_unsupported``, ``min_alignment``, ``min_coverage``
met when given, so ``max_unsupported=0`` fails a case with an invented claim whatever its coverage),
``threshold``, and ``score_breakdown``
(``{"alignment": ..., "coverage": ...}``). The verdicts are in ``verbose_logs`` (one line per
claim and per question, with the judge's reasons), which DeepEval keeps with each test result;
``metric.result`` holds the whole :class:`~sumjudge.SummarizationResult`.

A judge that fails, or a source or summary that is not text, sets ``error`` and ``success=False``
and raises: DeepEval fails the run (or, with ``ErrorConfig(ignore_errors=True)``, records the
error on the test result), never a score of 0. DeepEval copies a metric for every test case; the
copies share the one sumjudge scorer, so each source's questions are asked once.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..errors import ConfigurationError
from ..summarization import SummarizationOptions, SummarizationResult, SummarizationScorer
from ..summarization.item_gates import ItemGates
from .frameworks import Model, gate_outcome, import_framework, make_scorer, text

EXTRA = "deepeval"


def verbose_logs(result: SummarizationResult) -> str:
    """The verdicts as DeepEval's verbose logs show them: claims, questions, score and reason."""
    claims = [f"  [{'supported' if v.supported else 'unsupported'}] {v.claim} | {v.reason}"
              for v in result.preprocess_step_result.alignment]
    answers = [f"  [{'answered' if v.answered else 'unanswered'}] {v.question} | {v.reason}"
               for v in result.analyze_step_result.coverage]
    return "\n".join([
        f"Alignment {result.alignment_score:.2f} ({len(claims)} claims):", *claims,
        f"Coverage {result.coverage_score:.2f} ({len(answers)} questions):", *answers,
        f"Judge: {result.model}",
        f"Score: {result.score}",
        f"Reason: {result.reason}",
    ])


class _SummarizationMetric:
    """sumjudge's scorer as a DeepEval metric (``input``: the source, ``actual_output``: the summary); the
    metric class is this and DeepEval's ``BaseMetric``, made on first use (:func:`_metric_class`).

    ``model``: a judge name, a :class:`~sumjudge.ModelConfig`, a judge object, or a scorer made by
    :func:`~sumjudge.create_summarization_scorer` (kept with its options); ``scorer`` is the
    same for a scorer (DeepEval's copies of the metric pass it on). Scorer options go in
    ``options`` or as keywords (``max_questions=5``, ``scale=10``, ``samples=3``,
    ``questions="exam.json"``).
    """

    def __init__(
        self,
        threshold: float = 0.5,
        model: Model = None,
        *,
        scorer: SummarizationScorer | None = None,
        options: SummarizationOptions | Mapping[str, Any] | None = None,
        strict_mode: bool = False,
        async_mode: bool = True,
        verbose_mode: bool = False,
        include_reason: bool = True,
        max_unsupported: int | None = None,
        min_alignment: float | None = None,
        min_coverage: float | None = None,
        **option_kwargs: Any,
    ) -> None:
        # kept as attributes of the keywords' names: DeepEval copies a metric by its constructor's parameters
        self.max_unsupported, self.min_alignment, self.min_coverage = max_unsupported, min_alignment, min_coverage
        self.gates = ItemGates(max_unsupported=max_unsupported, min_alignment=min_alignment, min_coverage=min_coverage)
        if scorer is not None and (model is not None or options is not None or option_kwargs):
            raise ConfigurationError("give either scorer= or the model and its options, not both")
        self.scorer = scorer if scorer is not None else make_scorer(model, options, option_kwargs)
        self.strict_mode = strict_mode
        self.threshold = self.scorer.options.scale if strict_mode else threshold
        self.async_mode = async_mode
        self.verbose_mode = verbose_mode
        self.include_reason = include_reason
        self.evaluation_model = self.scorer.judge.model_id
        self.result: SummarizationResult | None = None

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Summarization (sumjudge)"

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        try:
            result = self.scorer.run_sync(*self._texts(test_case))
        except Exception as exc:
            self._failed(exc)
            raise
        return self._record(result)

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        try:
            result = await self.scorer.run(*self._texts(test_case))
        except Exception as exc:
            self._failed(exc)
            raise
        return self._record(result)

    def is_successful(self) -> bool:
        if self.error is not None or self.score is None:
            self.success = False
        else:
            self.success = self.score >= self.threshold and (self.result is None or gate_outcome(self.result, self.gates)[0])
        return bool(self.success)

    def _texts(self, test_case: Any) -> tuple[str, str]:
        return (text(test_case.input, "test case's input (the source)"),
                text(test_case.actual_output, "test case's actual_output (the summary)"))

    def _failed(self, exc: Exception) -> None:
        """The judge failed: an error and no score (DeepEval shows the error, the case fails)."""
        self.error = f"{type(exc).__name__}: {exc}"
        self.score, self.reason, self.success, self.result = None, None, False, None

    def _record(self, result: SummarizationResult) -> float:
        self.error = None
        self.result = result
        self.score = result.score
        self.reason = result.reason if self.include_reason else None
        met, why = gate_outcome(result, self.gates)
        if self.include_reason and not met:
            self.reason = f"{result.reason} Gates broken: {why}."
        self.score_breakdown = {"alignment": result.alignment_score, "coverage": result.coverage_score}
        self.verbose_logs = verbose_logs(result)
        if result.usage.prompt_tokens or result.usage.completion_tokens:
            self.input_tokens, self.output_tokens = result.usage.prompt_tokens, result.usage.completion_tokens
        self.is_successful()
        return result.score


@lru_cache(maxsize=1)
def _metric_class() -> type:
    """The ``deepeval.metrics.BaseMetric`` subclass, made on first use (DeepEval is imported only then)."""
    import_framework("deepeval.metrics", "DeepEval", EXTRA)
    from deepeval.metrics import BaseMetric
    from deepeval.test_case import SingleTurnParams

    class SumjudgeSummarizationMetric(_SummarizationMetric, BaseMetric):  # type: ignore[misc]
        __doc__ = _SummarizationMetric.__doc__
        _required_params = [SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT]

    SumjudgeSummarizationMetric.__module__ = __name__
    return SumjudgeSummarizationMetric


def summarization_metric(threshold: float = 0.5, model: Model = None, **kwargs: Any) -> Any:
    """A :class:`SumjudgeSummarizationMetric` (the class is made on first use). Raises
    :class:`~sumjudge.errors.MissingDependencyError` naming ``pip install 'sumjudge[deepeval]'`` when
    DeepEval is not installed."""
    return _metric_class()(threshold, model, **kwargs)


def __getattr__(name: str) -> Any:
    if name == "SumjudgeSummarizationMetric":
        return _metric_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SumjudgeSummarizationMetric", "summarization_metric", "verbose_logs"]
