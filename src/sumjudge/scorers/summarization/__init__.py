"""The summarization scorer: ``scorer.py`` (run, top to bottom, and the question cache), ``options.py``,
``result.py`` (the result and its axis scores), ``reason.py``, ``prompts.py`` and ``verdicts.py``."""

from .options import SummarizationOptions
from .result import SummarizationAnalysis, SummarizationPreprocess, SummarizationResult
from .scorer import SummarizationScorer, create_summarization_scorer
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
