"""How sumjudge writes a number for people (end table, HTML report, agreement table): one formatter."""

from __future__ import annotations

import math


def number(value: float | None, digits: int = 3, *, missing: str = "-") -> str:
    """``value`` with ``digits`` decimals; ``missing`` when there is none (``None`` or NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return missing
    return f"{value:.{digits}f}"


__all__ = ["number"]
