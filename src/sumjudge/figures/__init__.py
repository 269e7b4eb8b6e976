"""The numbers a run reports: how sure they are (:mod:`.stats`), the gates that decide on them
(:mod:`.decide`), and how each is written for people (:mod:`.written`, whose three functions are
importable from here)."""

from .written import number, p_value, verdict_probability

__all__ = ["number", "p_value", "verdict_probability"]
