"""What one summarization evaluation returns: the verdicts, the score and reason made from them, the usage.

Mastra's field names are kept: ``preprocess_step_result`` holds alignment (A) and the questions
(B), ``analyze_step_result`` the coverage verdicts (C). Axis scores are derived from the verdicts
(counted, or with ``graded`` from their probabilities: :mod:`.axes`), never stored, so a result read
back from JSON cannot disagree with itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, computed_field

from ..judges.base import Usage
from .axes import alignment_value, coverage_value
from .verdicts import AlignmentVerdict, CoverageVerdict

SCORER_ID = "summarization-scorer"


class SummarizationPreprocess(BaseModel):
    alignment: list[AlignmentVerdict]
    questions: list[str]


class SummarizationAnalysis(BaseModel):
    coverage: list[CoverageVerdict]


def unsupported_count(claims: list[AlignmentVerdict]) -> int:
    """Claims the judge showed unsupported (an unchecked claim counts as supported: nothing showed it wrong)."""
    return sum(1 for c in claims if not c.supported)


def alignment_ratio(pre: SummarizationPreprocess, graded: bool = False) -> float:
    """Share of the summary's claims that the source supports (0 when there are none); graded, the
    mean probability of the claims being supported (:mod:`.axes`)."""
    return alignment_value(pre.alignment, graded)


def coverage_ratio(pre: SummarizationPreprocess, ana: SummarizationAnalysis, graded: bool = False) -> float:
    """Share of the source's questions that the summary answers (0 when there are none); graded, the
    mean probability of the questions being answered (:mod:`.axes`)."""
    return coverage_value(ana.coverage, len(pre.questions), graded)


def final_score(pre: SummarizationPreprocess, ana: SummarizationAnalysis, scale: float, graded: bool = False) -> float:
    """The lower axis times ``scale``, to two decimals; 0 without claims or without questions."""
    if not pre.alignment or not pre.questions:
        return 0.0
    return round(min(alignment_ratio(pre, graded), coverage_ratio(pre, ana, graded)) * scale, 2)


class AxisScores(BaseModel):
    """The two axis scores of anything that holds the verdicts (a result, one of its samples),
    derived from them, never stored (the subclass declares the two step results)."""

    if TYPE_CHECKING:
        preprocess_step_result: SummarizationPreprocess
        analyze_step_result: SummarizationAnalysis
        graded: bool

    @computed_field  # type: ignore[prop-decorator]
    @property
    def alignment_score(self) -> float:
        """Share of the summary's claims that the source supports (0 when there are none); with
        ``graded``, the mean probability of the claims being supported."""
        return alignment_ratio(self.preprocess_step_result, self.graded)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def coverage_score(self) -> float:
        """Share of the source's questions that the summary answers (0 when there are none); with
        ``graded``, the mean probability of the questions being answered."""
        return coverage_ratio(self.preprocess_step_result, self.analyze_step_result, self.graded)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def unsupported_claims(self) -> int:
        """How many claims the judge showed unsupported (an unchecked claim is not one of them): what
        ``max_unsupported`` bounds, whatever the coverage."""
        return unsupported_count(self.preprocess_step_result.alignment)


class SummarizationResult(AxisScores):
    """What one evaluation returns. Axis scores are derived from the verdicts, never stored."""

    run_id: str
    scorer_id: str = SCORER_ID
    model: str
    score: float
    reason: str
    scale: float = 1
    graded: bool = False
    """Which formula made the axes: ``False``, the spec's (shares of true verdicts); ``True``, graded
    (``SummarizationOptions(graded=True)``: mean verdict probabilities, see :mod:`.axes`). The reason
    says so too."""
    preprocess_step_result: SummarizationPreprocess
    analyze_step_result: SummarizationAnalysis
    usage: Usage
    strict_evidence: bool = False
    """Whether unverified verdicts were counted as unsupported / unanswered
    (``SummarizationOptions(strict_evidence=True)``; their reasons say so)."""
