"""Where the spread of a sampled score comes from: the questions drawn, or the verdicts.

With ``--samples K`` each item is evaluated K times. Samples that sit the same questions (a kept exam,
or ``question_draws``: the K samples share M draws of the questions) differ only by their verdicts;
samples that sit other questions differ by both. Per item the samples are grouped by the questions
they sat, and a one-way random-effects analysis of variance splits the variance of their scores:

- **verdicts**: the variance within groups (the same questions, other verdicts);
- **questions**: the variance between the groups' means beyond what the verdicts explain,
  ``(MS_between - MS_within) / n0`` (``n0`` the groups' effective size), never below 0.

The run's figures are the means of the items' components (variances add; shares are of their sum).
A run whose samples all sat one exam has all of its spread from the verdicts; a run whose every sample
drew its own questions cannot be split (nothing was held fixed): say so, and how to split it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from ..store.records import ScoredItem


@dataclass(frozen=True)
class SpreadSplit:
    """A run's sampled spread, split; variances of the score across an item's samples."""

    items: int
    """Items with two samples or more."""
    samples: int
    """Samples per item (the most any item had)."""
    draws: int
    """Distinct draws of the questions per item (the most any item had)."""
    total: float
    """Mean over items of the variance of the sample scores."""
    questions: float | None
    """The part from the questions drawn (``None``: cannot be told apart)."""
    verdicts: float | None
    """The part from the verdicts (``None``: cannot be told apart)."""

    @property
    def question_share(self) -> float | None:
        if self.questions is None or self.verdicts is None:
            return None
        both = self.questions + self.verdicts
        return self.questions / both if both > 0 else 0.0

    def line(self) -> str:
        """One sentence for people: the shares, or why there are none."""
        sd = f"spread across {self.samples} samples: SD {math.sqrt(self.total):.3f} over {self.items} items"
        share = self.question_share
        if share is None:
            return (f"{sd}; it cannot be split into questions and verdicts, as every sample drew its own questions "
                    "(--question-draws M, or a kept exam with --questions, holds them fixed)")
        if self.draws == 1:
            return f"{sd}, all of it from the verdicts: every sample sat the same questions"
        return (f"{sd}: {share:.0%} from the questions drawn, {1 - share:.0%} from the verdicts "
                f"({self.draws} draws of questions; samples on a fixed draw against samples that redraw it)")


def _components(scores_by_draw: list[list[float]]) -> tuple[float | None, float | None]:
    """(verdicts, questions) variance components of one item's samples grouped by their questions."""
    groups = [g for g in scores_by_draw if g]
    n = sum(len(g) for g in groups)
    k = len(groups)
    grand = statistics.fmean(s for g in groups for s in g)
    ss_within = sum((s - statistics.fmean(g)) ** 2 for g in groups for s in g)
    within = ss_within / (n - k) if n > k else None
    if k == 1:
        return within, 0.0
    if within is None:
        return None, None
    ms_between = sum(len(g) * (statistics.fmean(g) - grand) ** 2 for g in groups) / (k - 1)
    n0 = (n - sum(len(g) ** 2 for g in groups) / n) / (k - 1)
    return within, max(0.0, (ms_between - within) / n0)


def spread_split(items: Iterable[ScoredItem]) -> SpreadSplit | None:
    """The split of a run's items (``None`` when no item has two samples)."""
    totals: list[float] = []
    verdicts: list[float] = []
    questions: list[float] = []
    most_samples = most_draws = 0
    for item in items:
        samples = item.samples or []
        if len(samples) < 2:
            continue
        by_draw: dict[tuple[str, ...], list[float]] = {}
        for s in samples:
            by_draw.setdefault(tuple(s.verdicts.questions), []).append(s.score)
        totals.append(statistics.variance([s.score for s in samples]))
        v, q = _components(list(by_draw.values()))
        if v is not None and q is not None:
            verdicts.append(v)
            questions.append(q)
        most_samples, most_draws = max(most_samples, len(samples)), max(most_draws, len(by_draw))
    if not totals:
        return None
    split = bool(verdicts) and len(verdicts) == len(totals)
    return SpreadSplit(
        items=len(totals), samples=most_samples, draws=most_draws, total=statistics.fmean(totals),
        questions=statistics.fmean(questions) if split else None, verdicts=statistics.fmean(verdicts) if split else None,
    )


__all__ = ["SpreadSplit", "spread_split"]
