"""The summarization scorer: ``scorer.py`` (run, top to bottom, and the question cache), ``spec.py`` (a
run's judge and options as one value, and the factory of its scorer), ``options.py``,
``result.py`` (the result and its axis scores), ``reason.py``, ``prompts.py`` and ``verdicts.py``."""

from .options import SummarizationOptions
from .result import SummarizationAnalysis, SummarizationPreprocess, SummarizationResult
from .scorer import SummarizationScorer
from .spec import ScorerSpec, create_summarization_scorer
from .verdicts import AlignmentVerdict, CoverageVerdict

__all__ = [
    "AlignmentVerdict",
    "CoverageVerdict",
    "SummarizationAnalysis",
    "SummarizationOptions",
    "SummarizationPreprocess",
    "SummarizationResult",
    "ScorerSpec",
    "SummarizationScorer",
    "create_summarization_scorer",
]
