"""The summarization scorer: ``scorer.py`` (run, top to bottom, and the question cache), ``spec.py`` (a
run's judge and options as one value, and the factory of its scorer), ``options.py``,
``result.py`` (the result and its axis scores), ``reason.py``, ``prompts.py`` and ``verdicts.py``.
The names below are imported on first use (:mod:`sumjudge._lazy`): a judge's package loads no scorer."""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "SummarizationOptions": ".options",
    **dict.fromkeys(["SummarizationAnalysis", "SummarizationPreprocess", "SummarizationResult"], ".result"),
    "SummarizationScorer": ".scorer",
    **dict.fromkeys(["ScorerSpec", "create_summarization_scorer"], ".spec"),
    **dict.fromkeys(["AlignmentVerdict", "CoverageVerdict"], ".verdicts"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
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
