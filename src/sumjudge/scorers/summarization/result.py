"""What one summarization evaluation returns: the verdicts, the score and reason made from them, the usage.

Mastra's field names are kept: ``preprocess_step_result`` holds alignment (A) and the questions
(B), ``analyze_step_result`` the coverage verdicts (C). Axis scores are derived from the verdicts,
never stored, so a result read back from JSON cannot disagree with itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, computed_field

from ...judges.base import Usage
from .verdicts import AlignmentVerdict, CoverageVerdict

SCORER_ID = "summarization-scorer"


class SummarizationPreprocess(BaseModel):
    alignment: list[AlignmentVerdict]
    questions: list[str]


class SummarizationAnalysis(BaseModel):
    coverage: list[CoverageVerdict]


def alignment_ratio(pre: SummarizationPreprocess) -> float:
    """Share of the summary's claims that the source supports (0 when there are none)."""
    claims = pre.alignment
    return sum(v.supported for v in claims) / len(claims) if claims else 0.0


def coverage_ratio(pre: SummarizationPreprocess, ana: SummarizationAnalysis) -> float:
    """Share of the source's questions that the summary answers (0 when there are none)."""
    if not pre.questions:
        return 0.0
    return sum(v.answered for v in ana.coverage) / len(pre.questions)


def final_score(pre: SummarizationPreprocess, ana: SummarizationAnalysis, scale: float) -> float:
    """The lower axis times ``scale``, to two decimals; 0 without claims or without questions."""
    if not pre.alignment or not pre.questions:
        return 0.0
    return round(min(alignment_ratio(pre), coverage_ratio(pre, ana)) * scale, 2)


class AxisScores(BaseModel):
    """The two axis scores of anything that holds the verdicts (a result, one of its samples),
    derived from them, never stored (the subclass declares the two step results)."""

    if TYPE_CHECKING:
        preprocess_step_result: SummarizationPreprocess
        analyze_step_result: SummarizationAnalysis

    @computed_field  # type: ignore[prop-decorator]
    @property
    def alignment_score(self) -> float:
        """Share of the summary's claims that the source supports (0 when there are none)."""
        return alignment_ratio(self.preprocess_step_result)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def coverage_score(self) -> float:
        """Share of the source's questions that the summary answers (0 when there are none)."""
        return coverage_ratio(self.preprocess_step_result, self.analyze_step_result)


class SummarizationResult(AxisScores):
    """What one evaluation returns. Axis scores are derived from the verdicts, never stored."""

    run_id: str
    scorer_id: str = SCORER_ID
    model: str
    score: float
    reason: str
    scale: float = 1
    preprocess_step_result: SummarizationPreprocess
    analyze_step_result: SummarizationAnalysis
    usage: Usage
    strict_evidence: bool = False
    """Whether unverified verdicts were counted as unsupported / unanswered
    (``SummarizationOptions(strict_evidence=True)``; their reasons say so)."""
