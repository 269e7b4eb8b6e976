"""Score summaries in a pydantic-evals ``Dataset`` (extra ``pydantic-evals``).

::

    from pydantic_evals import Case, Dataset
    from sumjudge.integrations.pydantic_evals import summarization_evaluator

    dataset = Dataset(
        name="bridge",
        cases=[Case(name="bridge", inputs="The bridge opened in 1932 and cost 4 million dollars.")],
        evaluators=[summarization_evaluator(model="offline/lexical", max_questions=5)],
    )
    report = dataset.evaluate_sync(summarize)          # your task: source in, summary out
    report.print(include_reasons=True)

The evaluator returns three :class:`~pydantic_evals.evaluators.EvaluationReason` values, so the
report's score columns show them with their reasons: ``sumjudge`` (the score, with sumjudge's
reason), ``sumjudge_alignment`` and ``sumjudge_coverage`` (each axis as a share, its reason listing
the unsupported claims or the unanswered questions). The source is the case's ``inputs`` when that
is text, else ``inputs[source_key]`` (a dict or an object with that attribute, default ``"source"``);
the summary is the task's output (text, or ``output[summary_key]``). A judge that fails, or an input
that is not text, raises: pydantic-evals records it in the case's ``evaluator_failures`` (shown in
the report), never as a score of 0.

The evaluator keeps one scorer for its lifetime, so every summary of one source is examined with
the same questions, asked once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..summarization import SummarizationOptions, SummarizationScorer
from ..summarization.item_gates import ItemGates
from .frameworks import (
    Model, alignment_reason, coverage_reason, gate_outcome, import_framework, make_scorer, merge_options, split_gates, text,
)

EXTRA = "pydantic-evals"
_built: dict[str, type] = {}


def _evaluator_class() -> type:
    """The :class:`pydantic_evals.evaluators.Evaluator` subclass, made on first use (pydantic-evals
    is imported only then)."""
    if "evaluator" in _built:
        return _built["evaluator"]
    import_framework("pydantic_evals", "pydantic-evals", EXTRA)
    from dataclasses import dataclass, field

    from pydantic_evals.evaluators import EvaluationReason, Evaluator, EvaluatorContext

    @dataclass(repr=False)
    class SummarizationEvaluator(Evaluator):  # type: ignore[misc]
        """sumjudge's scorer as a pydantic-evals evaluator: score, alignment and coverage with reasons.

        ``model``: a judge name, a :class:`~sumjudge.ModelConfig`, a judge object, or a scorer made
        by :func:`~sumjudge.create_summarization_scorer` (kept with its options). ``options``: the
        scorer's options (:class:`~sumjudge.SummarizationOptions` or a dict). ``name`` prefixes the
        three result names.
        """

        model: Any = None
        options: Any = None
        source_key: str = "source"
        summary_key: str = "summary"
        name: str = "sumjudge"
        gates: ItemGates = field(default_factory=ItemGates)
        """The item gates; when one is on, a ``<name>_gates`` assertion (pass or fail, with the claims that broke it)."""
        scorer: SummarizationScorer = field(init=False, repr=False, compare=False)

        def __post_init__(self) -> None:
            self.scorer = make_scorer(self.model, self.options, {})

        def build_serialization_arguments(self) -> dict[str, Any]:
            """What the report keeps of this evaluator: the judge and the options, as plain values."""
            opts = self.scorer.options
            return {
                "model": self.scorer.judge.model_id,
                "options": {"max_questions": opts.max_questions, "scale": opts.scale, "samples": opts.samples},
                **({"source_key": self.source_key} if self.source_key != "source" else {}),
                **({"gates": self.gates.bounds()} if self.gates.active else {}),
            }

        def get_default_evaluation_name(self) -> str:
            return self.name

        async def evaluate(self, ctx: EvaluatorContext) -> dict[str, EvaluationReason]:
            source = _pick(ctx.inputs, self.source_key, "case's inputs (the source)")
            summary = _pick(ctx.output, self.summary_key, "task's output (the summary)")
            result = await self.scorer.run(input=source, output=summary)
            found = {
                self.name: EvaluationReason(value=result.score, reason=result.reason),
                f"{self.name}_alignment": EvaluationReason(value=result.alignment_score, reason=alignment_reason(result)),
                f"{self.name}_coverage": EvaluationReason(value=result.coverage_score, reason=coverage_reason(result)),
            }
            if self.gates.active:  # a bool is an assertion in pydantic-evals' report
                met, why = gate_outcome(result, self.gates)
                found[f"{self.name}_gates"] = EvaluationReason(value=met, reason=why)
            return found

    SummarizationEvaluator.__module__ = __name__
    SummarizationEvaluator.__qualname__ = "SummarizationEvaluator"
    _built["evaluator"] = SummarizationEvaluator
    return SummarizationEvaluator


def _pick(value: Any, key: str, what: str) -> str:
    """``value`` itself when it is text, else its ``key`` (a mapping's item or an object's attribute)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and key in value:
        return text(value[key], f"{what} {key!r}")
    if hasattr(value, key):
        return text(getattr(value, key), f"{what} {key!r}")
    return text(value, what)


def summarization_evaluator(
    model: Model = None,
    *,
    options: SummarizationOptions | Mapping[str, Any] | None = None,
    source_key: str = "source",
    summary_key: str = "summary",
    name: str = "sumjudge",
    **option_kwargs: Any,
) -> Any:
    """A pydantic-evals ``Evaluator`` that scores the task's output against the case's source.

    Scorer options go in ``options`` or as keywords (``max_questions=5``, ``scale=10``,
    ``samples=3``, ``questions="exam.json"``), checked here; the gates ``max_unsupported``,
    ``min_alignment`` and ``min_coverage`` add a ``<name>_gates`` assertion. Raises
    :class:`~sumjudge.errors.MissingDependencyError` naming ``pip install 'sumjudge[pydantic-evals]'``
    when pydantic-evals is not installed.
    """
    cls = _evaluator_class()
    gates, option_kwargs = split_gates(option_kwargs)
    if option_kwargs:
        if isinstance(model, SummarizationScorer):
            make_scorer(model, options, option_kwargs)  # refused: a scorer keeps its own options
        options = merge_options(options, option_kwargs)
    return cls(model=model, options=options, source_key=source_key, summary_key=summary_key, name=name, gates=gates)


def __getattr__(name: str) -> Any:
    if name == "SummarizationEvaluator":
        return _evaluator_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SummarizationEvaluator", "summarization_evaluator"]
