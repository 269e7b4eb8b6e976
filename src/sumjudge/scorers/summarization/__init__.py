"""The summarization scorer, its prompts and its verdict types."""

from .scorer import (
    SummarizationAnalysis,
    SummarizationOptions,
    SummarizationPreprocess,
    SummarizationResult,
    SummarizationScorer,
    create_summarization_scorer,
)
from .verdicts import AlignmentVerdict, CoverageVerdict

__all__ = [
    "AlignmentVerdict",
    "CoverageVerdict",
    "SummarizationAnalysis",
    "SummarizationOptions",
    "SummarizationPreprocess",
    "SummarizationResult",
    "SummarizationScorer",
    "create_summarization_scorer",
]
