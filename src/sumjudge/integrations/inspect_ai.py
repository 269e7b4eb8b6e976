"""Score summaries in an Inspect AI ``Task`` (extra ``inspect``). Named ``inspect_ai`` so that it
never shadows the standard library's ``inspect``.

::

    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.solver import generate, system_message
    from sumjudge.integrations.inspect_ai import summarization_scorer

    task = Task(
        dataset=[Sample(input=article) for article in articles],
        solver=[system_message("Summarize the text in two sentences."), generate()],
        scorer=summarization_scorer(model="offline/lexical"),
    )
    log, = eval(task, model="openai/gpt-4o-mini")

The summary is the model's output (``state.output.completion``); the source is the sample's
``metadata[source_key]`` when it has one (default ``"source"``), else its input (the last user
message). Each sample's :class:`~inspect_ai.scorer.Score` has the value
``{"score": ..., "alignment": ..., "coverage": ...}`` (each with its metrics: mean and standard error
of the score, the mean of each axis), sumjudge's reason as its ``explanation``, and in its
``metadata`` the verdicts (``alignment``: one dict per claim, ``questions``, ``coverage``: one dict
per question), the ``model`` that judged and the two axis reasons. ``inspect view`` shows all of it
from the log.

A judge that fails, or a source or summary that is not text, raises out of the scorer: Inspect
records the sample's error (and by default fails the run), never a score of 0. One sumjudge scorer
serves every sample of the task, so each source's questions are asked once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..summarization import SummarizationOptions
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

EXTRA = "inspect"


def summarization_scorer(
    model: Model = None,
    *,
    options: SummarizationOptions | Mapping[str, Any] | None = None,
    source_key: str | None = "source",
    **option_kwargs: Any,
) -> Any:
    """An Inspect AI scorer (registered as ``sumjudge``) for ``Task(scorer=...)``.

    ``model``: a judge name, a :class:`~sumjudge.ModelConfig`, a judge object, or a scorer made by
    :func:`~sumjudge.create_summarization_scorer` (kept with its options). Scorer options go in
    ``options`` or as keywords (``max_questions=5``, ``scale=10``, ``samples=3``,
    ``questions="exam.json"``), checked here; the gates ``max_unsupported``, ``min_alignment`` and
    ``min_coverage`` put ``gates_passed`` and the broken gates in each score's metadata. ``source_key``: the metadata field that holds the
    source (``None``: always the sample's input). The log records the judge and the options that
    set the score. Raises :class:`~sumjudge.errors.MissingDependencyError` naming
    ``pip install 'sumjudge[inspect]'`` when Inspect AI is not installed.
    """
    import_framework("inspect_ai", "Inspect AI", EXTRA)
    from inspect_ai.scorer import Score, Target, mean, scorer, stderr
    from inspect_ai.solver import TaskState

    gates, option_kwargs = split_gates(option_kwargs)
    judged = make_scorer(model, options, option_kwargs)
    opts = judged.options

    @scorer(metrics={"score": [mean(), stderr()], "alignment": [mean()], "coverage": [mean()]}, name="sumjudge")
    def sumjudge(model: str, max_questions: int, scale: float, samples: int, source_key: str | None) -> Any:
        """sumjudge's summarization scorer: the score and both axes, the reason, the verdicts (the
        arguments are what the log records; the scorer is the one made above)."""

        async def score(state: TaskState, target: Target) -> Score:
            metadata = state.metadata or {}
            if source_key is not None and source_key in metadata:
                source = text(metadata[source_key], f"sample's metadata {source_key!r} (the source)")
            else:
                source = text(state.input_text, "sample's input (the source)")
            summary = text(state.output.completion, "model's output (the summary)")
            result = await judged.run(input=source, output=summary)
            met, why = gate_outcome(result, gates)
            return Score(
                value={"score": result.score, "alignment": result.alignment_score, "coverage": result.coverage_score},
                answer=summary,
                explanation=result.reason,
                metadata={
                    **verdicts(result),
                    "alignment_reason": alignment_reason(result),
                    "coverage_reason": coverage_reason(result),
                    "unsupported_claims": result.unsupported_claims,
                    **({"gates_passed": met, "gates": why} if gates.active else {}),
                },
            )

        return score

    return sumjudge(model=judged.judge.model_id, max_questions=opts.max_questions, scale=opts.scale,
                    samples=opts.samples, source_key=source_key)


__all__ = ["summarization_scorer"]
