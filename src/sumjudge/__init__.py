"""sumjudge: score a summary against its source on alignment and coverage."""

from .evals import EvalResult, run_evals, run_evals_sync
from .judges.base import JudgeModel, JudgeReply, JudgeRequest, ModelConfig, Usage
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
    "JudgeReply",
    "JudgeRequest",
    "ModelConfig",
    "SummarizationOptions",
    "SummarizationResult",
    "SummarizationScorer",
    "Usage",
    "__version__",
    "create_summarization_scorer",
    "run_evals",
    "run_evals_sync",
]
