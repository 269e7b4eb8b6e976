"""Which judge sumjudge uses when none is named: ``$SUMJUDGE_MODEL``, else the offline lexical judge,
and the notice that says so. Free of other imports, so the pytest plugin can name it at start-up."""

from __future__ import annotations

import os

DEFAULT_MODEL = "offline/lexical"
MODEL_ENV_VAR = "SUMJUDGE_MODEL"

DEFAULT_JUDGE_NOTICE = (
    "sumjudge: no judge model named, using 'offline/lexical': a deterministic word-overlap judge that needs "
    "no model. For an LLM judge name one, e.g. 'openai/gpt-4o-mini' or 'ollama/qwen2.5:7b' (model=..., "
    f"--model, or {MODEL_ENV_VAR})."
)
"""Said once on standard error when sumjudge picks the default judge for the user."""


def default_chosen_for_user(model: object) -> bool:
    """True when no model was named anywhere, so the default judge should announce itself."""
    return model is None and not os.environ.get(MODEL_ENV_VAR, "").strip()


def default_model_id() -> str:
    """``SUMJUDGE_MODEL`` when set, else the offline lexical judge."""
    return os.environ.get(MODEL_ENV_VAR, "").strip() or DEFAULT_MODEL


__all__ = ["DEFAULT_JUDGE_NOTICE", "DEFAULT_MODEL", "MODEL_ENV_VAR", "default_chosen_for_user", "default_model_id"]
