"""The order in which a person reviews a run's items: where the judge is least sure first.

An item is *unsure* when its repeated samples disagree (``score_spread`` above zero) or when its
score lies within ``margin`` (a share of the scale) of a gate, where one verdict more or less would
flip pass to fail. Unsure items come first, the widest spread and then the nearest to the gate
first; every other scored item follows in a seeded random order (the same seed gives the same
queue, so two people can split it). Failed items have no verdicts to label and are left out.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..stats import DEFAULT_SEED
from ..store.records import ItemOutcome, ScoredItem

DEFAULT_MARGIN = 0.1


def review_order(
    items: Iterable[ItemOutcome],
    *,
    gate: float | None,
    scale: float = 1.0,
    margin: float = DEFAULT_MARGIN,
    seed: int = DEFAULT_SEED,
) -> list[str]:
    """Ids of the scored ``items`` in review order (see the module's doc)."""
    scored = [i for i in items if isinstance(i, ScoredItem)]
    near = margin * scale

    def distance(item: ScoredItem) -> float:
        return abs(item.score - gate) if gate is not None else float("inf")

    unsure = [i for i in scored if (i.score_spread or 0) > 0 or distance(i) <= near]
    unsure.sort(key=lambda i: (-(i.score_spread or 0), distance(i), i.id))
    taken = {i.id for i in unsure}
    rest = sorted(i.id for i in scored if i.id not in taken)
    random.Random(seed).shuffle(rest)
    return [i.id for i in unsure] + rest


__all__ = ["DEFAULT_MARGIN", "review_order"]
