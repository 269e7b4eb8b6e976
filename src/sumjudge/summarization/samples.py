"""Repeated samples of one evaluation, and the one result made from them.

With ``SummarizationOptions(samples=k)``, k > 1, the scorer evaluates a summary k times, each an
independent evaluation (its own alignment, its own questions, its own coverage), and reduces them
here: ``score`` is the reducer's value of the k sample scores (``mean`` by default; ``median`` and
``min`` selectable), rounded to two decimals like every score; ``score_spread`` is their sample
standard deviation; ``alignment_score`` and ``coverage_score`` are the means of the samples'
axes; every sample's score, reason and verdicts are kept in ``samples``. The verdicts and reason
at the top level are those of the sample whose score lies nearest the reduced score (the first
such), so code that reads one set of verdicts still finds a consistent one.

With k = 1 none of this applies: the scorer returns the plain :class:`SummarizationResult`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from pydantic import computed_field

from ..judges.base import Usage
from .options import DEFAULT_SAMPLE_TEMPERATURE, REDUCERS, Reducer
from .result import AxisScores, SummarizationAnalysis, SummarizationPreprocess, SummarizationResult


class SummarizationSample(AxisScores):
    """One of the k independent evaluations of a sampled result."""

    index: int
    score: float
    reason: str
    graded: bool = False
    """Whether this sample's axes are graded (as :attr:`SummarizationResult.graded`)."""
    preprocess_step_result: SummarizationPreprocess
    analyze_step_result: SummarizationAnalysis
    usage: Usage


class SampledSummarizationResult(SummarizationResult):
    """A result over k > 1 samples: the plain result's fields, plus every sample and their spread."""

    reducer: Reducer = "mean"
    score_spread: float
    """Sample standard deviation of the k sample scores."""
    samples: list[SummarizationSample]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def alignment_score(self) -> float:
        """Mean of the samples' alignment."""
        return statistics.fmean(s.alignment_score for s in self.samples)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def coverage_score(self) -> float:
        """Mean of the samples' coverage."""
        return statistics.fmean(s.coverage_score for s in self.samples)


def reduce_scores(scores: Sequence[float], reducer: Reducer) -> float:
    """The reducer's value of ``scores``, rounded to two decimals like every score."""
    if not scores:
        raise ValueError("no sample scores to reduce")
    if reducer == "mean":
        value = statistics.fmean(scores)
    elif reducer == "median":
        value = statistics.median(scores)
    elif reducer == "min":
        value = min(scores)
    else:
        raise ValueError(f"unknown reducer {reducer!r}; known: {', '.join(REDUCERS)}")
    return round(value, 2)


def combine(results: Sequence[SummarizationResult], reducer: Reducer) -> SampledSummarizationResult:
    """One result from the results of k independent samples (in sample order)."""
    if len(results) < 2:
        raise ValueError("combine needs at least two samples; one sample is the plain result")
    scores = [r.score for r in results]
    score = reduce_scores(scores, reducer)
    nearest = min(range(len(results)), key=lambda i: (abs(scores[i] - score), i))
    chosen = results[nearest]
    spread = statistics.stdev(scores)
    usage = Usage()
    for r in results:
        usage = usage + r.usage
    listed = ", ".join(f"{s:.2f}" for s in scores)
    reason = (
        f"Score {score:.2f} is the {reducer} of {len(results)} samples ({listed}; spread {spread:.2f}). "
        f"Sample {nearest + 1}, nearest to it: {chosen.reason}"
    )
    return SampledSummarizationResult(
        run_id=chosen.run_id,
        model=chosen.model,
        score=score,
        reason=reason,
        scale=chosen.scale,
        graded=chosen.graded,
        preprocess_step_result=chosen.preprocess_step_result,
        analyze_step_result=chosen.analyze_step_result,
        usage=usage,
        strict_evidence=chosen.strict_evidence,
        reducer=reducer,
        score_spread=0.0 if math.isnan(spread) else round(spread, 4),
        samples=[
            SummarizationSample(
                index=i,
                score=r.score,
                reason=r.reason,
                graded=r.graded,
                preprocess_step_result=r.preprocess_step_result,
                analyze_step_result=r.analyze_step_result,
                usage=r.usage,
            )
            for i, r in enumerate(results)
        ],
    )
