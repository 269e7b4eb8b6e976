"""The order in which a person reviews a run's items: where the judge is least sure first.

Items with *unverified* verdicts come first of all (a quote the scorer could not find in its text, or
a yes with no quote: :mod:`sumjudge.summarization.quotes`), the most unverified first: these
are the verdicts a reviewer cannot take on trust. Then an item is *unsure* when its repeated samples disagree (``score_spread`` above zero) or when its
score lies within ``margin`` (a share of the scale) of a gate, where one verdict more or less would
flip pass to fail. Unsure items come first, the widest spread and then the nearest to the gate
first; every other scored item follows in a seeded random order (the same seed gives the same
queue, so two people can split it). Failed items have no verdicts to label and are left out.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..figures.stats import DEFAULT_SEED

DEFAULT_MARGIN = 0.1


def review_order(
    items: Iterable[tuple[str, float | None, float | None] | tuple[str, float | None, float | None, int]],
    *,
    gate: float | None,
    scale: float = 1.0,
    margin: float = DEFAULT_MARGIN,
    seed: int = DEFAULT_SEED,
) -> list[str]:
    """Ids of the scored items in review order (see the module's doc). ``items`` are ``(id, score,
    spread across samples)`` or ``(id, score, spread, unverified verdicts)``, the score ``None`` for a
    failed item, the spread ``None`` without samples."""
    listed = [(t[0], t[1], t[2], t[3] if len(t) > 3 else 0) for t in items]  # type: ignore[misc]
    doubted = sorted((t for t in listed if t[1] is not None and t[3] > 0), key=lambda t: (-t[3], t[0]))
    first = [t[0] for t in doubted]
    scored = [(i, s, sp or 0.0) for i, s, sp, n in listed if s is not None and n == 0]
    near = margin * scale

    def distance(score: float) -> float:
        return abs(score - gate) if gate is not None else float("inf")

    unsure = [t for t in scored if t[2] > 0 or distance(t[1]) <= near]
    unsure.sort(key=lambda t: (-t[2], distance(t[1]), t[0]))
    taken = {t[0] for t in unsure}
    rest = sorted(t[0] for t in scored if t[0] not in taken)
    random.Random(seed).shuffle(rest)
    return first + [t[0] for t in unsure] + rest


__all__ = ["DEFAULT_MARGIN", "review_order"]
