"""sumjudge: score a summary against its source on alignment and coverage.

The names below are imported on first use (:mod:`sumjudge._lazy`), so ``import sumjudge`` and the
pytest plugin stay cheap until something is scored.
"""

from typing import TYPE_CHECKING

from ._lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS = {
    "EvalResult": ".evals",
    "run_evals": ".evals",
    "run_evals_sync": ".evals",
    "JudgeModel": ".judges.base",
    "JudgeReply": ".judges.base",
    "JudgeRequest": ".judges.base",
    "ModelConfig": ".judges.base",
    "Usage": ".judges.base",
    "ScorerSpec": ".summarization",
    "SummarizationOptions": ".summarization",
    "SummarizationResult": ".summarization",
    "SummarizationScorer": ".summarization",
    "create_summarization_scorer": ".summarization",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .evals import EvalResult, run_evals, run_evals_sync
    from .judges.base import JudgeModel, JudgeReply, JudgeRequest, ModelConfig, Usage
    from .summarization import (
        ScorerSpec,
        SummarizationOptions,
        SummarizationResult,
        SummarizationScorer,
        create_summarization_scorer,
    )

__all__ = [
    "EvalResult",
    "JudgeModel",
    "JudgeReply",
    "JudgeRequest",
    "ModelConfig",
    "ScorerSpec",
    "SummarizationOptions",
    "SummarizationResult",
    "SummarizationScorer",
    "Usage",
    "__version__",
    "create_summarization_scorer",
    "run_evals",
    "run_evals_sync",
]
