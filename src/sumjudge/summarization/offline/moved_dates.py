"""(English) A date moved to another fact of the source: "Construction is scheduled to begin in September
2026." where the source dates the construction in March and the opening in September 2026.

The passage that best matches such a claim is the one with its date (dates weigh most), which lacks the
rest of the claim; the sentence that states the rest gives another date of the same kind. Then the
claim's date belongs to another fact, and the claim is shown unsupported, naming both sentences.
"""

from __future__ import annotations

from ..language.units import Document, Sentence
from ..language.passages import Evidence
from ..language.segment import quote
from .support import Shown

MONTHS = ("januari", "februari", "march", "april", "may", "june", "juli", "august", "septemb", "octob", "novemb",
          "decemb")
"""The months as the English analyser's units (Snowball stems; "may" also a verb, so it is a month here
only beside a year or where the other sentence dates with a month too)."""


def _date_units(units: frozenset[str]) -> frozenset[str]:
    return frozenset(u for u in units if u in MONTHS or (u.startswith("#") and u[1:].isdigit() and len(u) == 5
                                                          and 1800 <= int(u[1:]) <= 2200))


def moved_date(claim: Sentence, doc: Document, ev: Evidence) -> Shown | None:
    """The error when ``claim``'s month (or year) is in ``ev`` but another sentence states the rest of
    the claim with another month; ``None`` otherwise."""
    if doc.lang != "en":
        return None
    dates = _date_units(claim.units)
    months = {u for u in dates if u in MONTHS}
    rest = claim.units - dates
    if not months or len(rest) < 2 or rest <= ev.found or not dates <= ev.found:
        return None
    for number, s in enumerate(doc.sentences, 1):
        theirs = _date_units(s.units)
        other = {u for u in theirs if u in MONTHS} - months
        if rest <= s.units and other and not (months & s.units):
            said = " ".join(claim.name_forms.get(u, u) for u in sorted(months))
            instead = " ".join(s.name_forms.get(u, u) for u in sorted(other))
            return Shown(f"{said!r} is in the source ({ev.where}) but sentence {number}, which states the rest, "
                         f'gives {instead!r}: "{quote(s.text, 100)}"', said, instead)
    return None


__all__ = ["moved_date"]
