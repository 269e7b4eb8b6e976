"""How sumjudge writes a number for people (end table, HTML reports, agreement and comparison tables)."""

from __future__ import annotations

import math


def number(value: float | None, digits: int = 3, *, missing: str = "-", sign: bool = False) -> str:
    """``value`` with ``digits`` decimals (and its sign, with ``sign``); ``missing`` for ``None`` or NaN."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return missing
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def p_value(p: float | None, *, missing: str = "-", below: str = "<0.001") -> str:
    """A p-value to three decimals; ``below`` under 0.001."""
    if p is None:
        return missing
    return below if p < 0.001 else number(p)


def verdict_probability(p: float | None, *, unchecked: bool | None = False) -> str:
    """A verdict's probability (of supported / answered) as shown beside it, ``p=0.93``; empty for a
    verdict without one (a judge that gives none). An ``unchecked`` claim's figure (the offline judge's)
    is the share of its words the source holds, not a probability: ``words=0.71``."""
    if p is None:
        return ""
    return f"words={p:.2f}" if unchecked else f"p={p:.2f}"


__all__ = ["number", "p_value", "verdict_probability"]
