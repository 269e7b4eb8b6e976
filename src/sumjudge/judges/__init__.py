"""Everything that talks to a judge model. The names below are imported on first use
(:mod:`sumjudge._lazy`)."""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(["ChatMessage", "JudgeModel", "JudgeReply", "JudgeRequest", "ModelConfig", "StepInputs", "Usage"],
                    ".base"),
    **dict.fromkeys(["PROVIDERS", "ProviderSpec", "parse_model_id", "resolve_judge"], ".registry"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .base import ChatMessage, JudgeModel, JudgeReply, JudgeRequest, ModelConfig, StepInputs, Usage
    from .registry import PROVIDERS, ProviderSpec, parse_model_id, resolve_judge

__all__ = [
    "PROVIDERS",
    "ChatMessage",
    "JudgeModel",
    "JudgeReply",
    "JudgeRequest",
    "ModelConfig",
    "ProviderSpec",
    "StepInputs",
    "Usage",
    "parse_model_id",
    "resolve_judge",
]
