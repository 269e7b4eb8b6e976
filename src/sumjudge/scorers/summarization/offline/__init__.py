"""Judges that need no model and no network. ``offline/lexical`` is the default judge."""

from __future__ import annotations

from ....errors import ConfigurationError
from ....judges.base import JudgeModel

OFFLINE_JUDGES = ("lexical",)


def create_offline_judge(name: str) -> JudgeModel:
    """The offline judge called ``name`` (``"lexical"``); an unknown name lists the known ones."""
    key = (name or "").strip().lower()
    if key == "lexical":
        from .lexical import LexicalJudge

        return LexicalJudge()
    known = ", ".join(f"offline/{n}" for n in OFFLINE_JUDGES)
    raise ConfigurationError(f"unknown offline judge {name!r}; known offline judges: {known}")


__all__ = ["OFFLINE_JUDGES", "create_offline_judge"]
