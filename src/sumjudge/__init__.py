"""sumjudge: score a summary against its source on alignment and coverage."""

from .evals import EvalResult, run_evals, run_evals_sync
from .judges.base import JudgeModel, ModelConfig
from .scorers.summarization import (
    SummarizationOptions,
    SummarizationResult,
    SummarizationScorer,
    create_summarization_scorer,
)

__version__ = "0.1.0"

__all__ = [
    "EvalResult",
    "JudgeModel",
    "ModelConfig",
    "SummarizationOptions",
    "SummarizationResult",
    "SummarizationScorer",
    "__version__",
    "create_summarization_scorer",
    "run_evals",
    "run_evals_sync",
]
