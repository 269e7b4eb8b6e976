"""Everything that talks to a judge model."""

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
