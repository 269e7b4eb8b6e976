"""Judges that need no model and no network. ``offline/lexical`` is the default judge."""

from __future__ import annotations

from ...errors import ConfigurationError
from ...judges.base import JudgeModel
from ...judges.registry import JudgeFamily

OFFLINE_JUDGES = ("lexical", "lexical+wordfreq")


def create_offline_judge(name: str) -> JudgeModel:
    """The offline judge called ``name``: ``"lexical"`` (the default; only what the core install has,
    so the same verdicts everywhere) or ``"lexical+wordfreq"`` (opt-in: wordfreq's word weights and
    simplemma's lemmas, ``pip install 'sumjudge[wordfreq,lemmas]'``). An unknown name lists the known ones."""
    key = (name or "").strip().lower()
    if key in OFFLINE_JUDGES:
        from .lexical import LexicalJudge
        from ..language.lexicon import CORE, WORDFREQ

        return LexicalJudge(data=CORE if key == "lexical" else WORDFREQ)
    known = ", ".join(f"offline/{n}" for n in OFFLINE_JUDGES)
    raise ConfigurationError(f"unknown offline judge {name!r}; known offline judges: {known}")


FAMILY = JudgeFamily(
    provider="offline", accepts=lambda name: True, create=lambda name, config: create_offline_judge(name),
)
"""``offline/<name>``, registered in the package's entry points (group ``sumjudge.judges``): an unknown
name is refused by :func:`create_offline_judge`, listing the known ones."""

__all__ = ["FAMILY", "OFFLINE_JUDGES", "create_offline_judge"]
