"""Gates on one result beyond its score: a ceiling on the claims shown unsupported, a floor on each axis.

The score is ``min(alignment, coverage)`` (the contract), so a summary with one invented claim scores
what its faithful twin scores whenever coverage is the lower axis: a bound on the score cannot stop a
hallucination. ``max_unsupported`` can: it counts the claims the judge showed unsupported, whatever
the coverage (0 is the usual choice). ``min_alignment`` and ``min_coverage`` hold each axis to a floor
of its own. Every surface that decides pass or fail (``check``, ``score``, ``assert_summary``, the pytest
plugin, the framework adapters, ``run_evals``) holds a result to the same :class:`ItemGates`, so a gate
means the same thing everywhere; each surface spells the gate's name its own way (``--max-unsupported``,
``max_unsupported``) through :meth:`GateBreak.text`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigurationError
from ..guards.limits import MAX_CLAIMS

LISTED_CLAIMS = 5
"""Claims a broken ``max_unsupported`` gate names; the rest are counted."""
_CLAIM_CHARS = 160
"""Characters of one claim quoted in a gate's reason."""

GATE_NAMES = ("max_unsupported", "min_alignment", "min_coverage")


def _quoted(text: str) -> str:
    text = " ".join(text.split())
    return f'"{text[:_CLAIM_CHARS]}…"' if len(text) > _CLAIM_CHARS else f'"{text}"'


@dataclass(frozen=True)
class GateBreak:
    """One gate a result broke: which (``max_unsupported``, ``min_alignment``, ``min_coverage``), the
    bound, and what broke it (the claims, or the axis's value)."""

    gate: str
    bound: float
    what: str

    def text(self, spelling: str | None = None) -> str:
        """``"<what> (<gate> <bound>)"``, the gate named as the caller's surface spells it
        (``--max-unsupported`` on the command line; the keyword by default)."""
        return f"{self.what} ({spelling or self.gate} {self.bound:g})"


@dataclass(frozen=True)
class ItemGates:
    """What one result must meet beyond its score; ``None`` switches a gate off."""

    max_unsupported: int | None = None
    """At most this many claims shown unsupported (``0``: none)."""
    min_alignment: float | None = None
    """Alignment (the share of claims supported) at least this, in ``[0, 1]``."""
    min_coverage: float | None = None
    """Coverage (the share of questions answered) at least this, in ``[0, 1]``."""

    def __post_init__(self) -> None:
        n = self.max_unsupported
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_CLAIMS):
            raise ConfigurationError(f"max_unsupported must be a whole number from 0 to {MAX_CLAIMS}, got {n!r}")
        for name in ("min_alignment", "min_coverage"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
                raise ConfigurationError(f"{name} must be a number in [0, 1], got {value!r}")
            if not 0 <= value <= 1:
                raise ConfigurationError(f"{name} must be in [0, 1] (an axis is a share), got {value!r}")

    @property
    def active(self) -> bool:
        return any(getattr(self, name) is not None for name in GATE_NAMES)

    def bounds(self) -> dict[str, float]:
        """The gates that are on, by name (for a run's record and a report)."""
        return {name: getattr(self, name) for name in GATE_NAMES if getattr(self, name) is not None}

    def breaks(self, result: Any) -> list[GateBreak]:
        """The gates ``result`` (a :class:`~.result.SummarizationResult` or anything with its verdicts and
        axis scores) breaks, in the order of :data:`GATE_NAMES`; an empty list when it meets them all."""
        found: list[GateBreak] = []
        if self.max_unsupported is not None:
            claims = list(result.preprocess_step_result.alignment)
            shown = [c for c in claims if not c.supported]
            if len(shown) > self.max_unsupported:
                named = ", ".join(_quoted(c.claim) for c in shown[:LISTED_CLAIMS])
                more = f" and {len(shown) - LISTED_CLAIMS} more" if len(shown) > LISTED_CLAIMS else ""
                what = f"{len(shown)} of {len(claims)} claims shown unsupported: {named}{more}"
                found.append(GateBreak("max_unsupported", self.max_unsupported, what))
        for name, axis, value in (("min_alignment", "alignment", result.alignment_score),
                                  ("min_coverage", "coverage", result.coverage_score)):
            bound = getattr(self, name)
            if bound is not None and value < bound:
                found.append(GateBreak(name, bound, f"{axis} {value:.2f} is below"))
        return found


__all__ = ["GATE_NAMES", "GateBreak", "ItemGates"]
