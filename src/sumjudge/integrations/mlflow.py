"""Score summaries in ``mlflow.genai.evaluate`` (MLflow 3, extra ``mlflow``).

::

    import mlflow
    from sumjudge.integrations.mlflow import summarization_scorer

    data = [{"inputs": {"source": article}, "outputs": summary} for article, summary in pairs]
    result = mlflow.genai.evaluate(data=data, scorers=[summarization_scorer(model="offline/lexical")])
    result.metrics["sumjudge/mean"]

The scorer returns three :class:`mlflow.entities.Feedback` per row: ``sumjudge`` (the score, its
rationale sumjudge's reason), ``sumjudge_alignment`` and ``sumjudge_coverage`` (each axis as a
share, the rationale listing the unsupported claims or the unanswered questions). Every one carries
the verdicts in its metadata, as JSON text (MLflow keeps metadata values as strings): ``alignment``
(one object per claim), ``questions``, ``coverage`` (one per question), and the ``model`` that
judged. MLflow logs them as assessments on each row's trace, in the tracking store the run uses
(``mlflow.set_tracking_uri("sqlite:///mlflow.db")``, a folder, or a server), and aggregates them into
the run's metrics (``sumjudge/mean``...).

It works on a data frame or a list of rows (``inputs``, ``outputs``) and on traces
(``mlflow.search_traces(...)``, or ``predict_fn``): the source is ``inputs`` when it is text, else
``inputs[source_key]`` (default ``"source"``), else the only text value of ``inputs``; the summary is
``outputs``, or ``outputs[summary_key]`` (default ``"summary"``), or its only text value. Anything else
goes to sumjudge as it is (a list of chat messages works).

A judge that fails, or a row whose source or summary is not text, gives the three feedbacks with
their ``error`` set and no value (MLflow shows the error; the metrics leave the row out), never a 0.
One sumjudge scorer serves every row, so every summary of one source is examined with the same
questions, asked once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..summarization import SummarizationOptions, SummarizationResult
from .frameworks import (
    Model,
    gate_outcome,
    split_gates,
    alignment_reason,
    coverage_reason,
    import_framework,
    make_scorer,
    text,
    verdicts,
)

EXTRA = "mlflow"


def summarization_scorer(
    model: Model = None,
    *,
    options: SummarizationOptions | Mapping[str, Any] | None = None,
    name: str = "sumjudge",
    source_key: str = "source",
    summary_key: str = "summary",
    **option_kwargs: Any,
) -> Any:
    """An MLflow 3 scorer (``mlflow.genai.scorers.Scorer``) for ``mlflow.genai.evaluate(scorers=[...])``.

    ``model``: a judge name, a :class:`~sumjudge.ModelConfig`, a judge object, or a scorer made by
    :func:`~sumjudge.create_summarization_scorer` (kept with its options). Scorer options go in
    ``options`` or as keywords (``max_questions=5``, ``scale=10``, ``samples=3``,
    ``questions="exam.json"``), checked here. ``name`` names the three feedbacks (``name``,
    ``name_alignment``, ``name_coverage``); the gates ``max_unsupported``, ``min_alignment`` and
    ``min_coverage`` add a fourth, ``name_gates``, true when every gate is met. Raises :class:`~sumjudge.errors.MissingDependencyError`
    naming ``pip install 'sumjudge[mlflow]'`` when MLflow 3 is not installed.
    """
    scorers = import_framework("mlflow.genai.scorers", "MLflow 3 (mlflow.genai)", EXTRA)
    entities = import_framework("mlflow.entities", "MLflow 3 (mlflow.genai)", EXTRA)
    gates, option_kwargs = split_gates(option_kwargs)
    judged = make_scorer(model, options, option_kwargs)
    offline = judged.judge.model_id.startswith("offline/")
    source = entities.AssessmentSource(
        source_type=entities.AssessmentSourceType.CODE if offline else entities.AssessmentSourceType.LLM_JUDGE,
        source_id=f"sumjudge:{judged.judge.model_id}",
    )
    names = (name, f"{name}_alignment", f"{name}_coverage") + ((f"{name}_gates",) if gates.active else ())

    def feedbacks(result: SummarizationResult) -> list[Any]:
        meta = {key: value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                for key, value in verdicts(result).items()}
        meta["reason"] = result.reason
        values = (
            (result.score, result.reason),
            (result.alignment_score, alignment_reason(result)),
            (result.coverage_score, coverage_reason(result)),
        ) + ((gate_outcome(result, gates),) if gates.active else ())  # a bool feedback: pass or fail
        return [entities.Feedback(name=n, value=v, rationale=why, source=source, metadata=meta)
                for n, (v, why) in zip(names, values)]

    def sumjudge(inputs: Any = None, outputs: Any = None) -> list[Any]:
        try:
            summary_source = _pick(inputs, source_key, "inputs (the source)")
            summary = _pick(outputs, summary_key, "outputs (the summary)")
            result = judged.run_sync(input=summary_source, output=summary)
        except Exception as exc:  # the framework's failure for this row, on each of its three names
            return [entities.Feedback(name=n, error=exc, source=source) for n in names]
        return feedbacks(result)

    return scorers.scorer(
        sumjudge,
        name=name,
        description=f"sumjudge summarization scorer ({judged.judge.model_id}): alignment and coverage, the lower one",
    )


def _pick(value: Any, key: str, what: str) -> Any:
    """Text itself; a mapping's ``key`` or its only text value; anything else as it is (for sumjudge's
    own reading of chat messages)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        if key in value:
            return text(value[key], f"{what} {key!r}")
        texts = [v for v in value.values() if isinstance(v, str)]
        if len(value) == 1 and len(texts) == 1:
            return texts[0]
        if not any(k in value for k in ("messages", "inputMessages", "role", "content")):
            raise InputError(f"the {what} has no {key!r} and no single text value (keys: {sorted(map(str, value))})")
    if value is None:
        raise InputError(f"the {what} is missing")
    return value


__all__ = ["summarization_scorer"]
