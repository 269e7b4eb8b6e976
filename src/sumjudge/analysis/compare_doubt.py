"""What a comparison could have seen: its minimum detectable difference, the items a chosen difference
would need, "equivalent" apart from "inconclusive", and the ``--fail-if-worse`` gate.

The Wilcoxon signed-rank test decides ``better`` and ``worse`` (:func:`sumjudge.figures.stats.verdict`).
Where it does not reject, "no difference" hides two answers, split here (:func:`split_verdict`):

- ``equivalent``: the paired interval of B - A lies inside ``[-margin, margin]`` (``--margin d``;
  the default 0 calls only runs that scored every item the same equivalent);
- ``inconclusive``: it does not; the runs may differ by more than the margin, and the data cannot
  tell. ``mdd`` (:func:`sumjudge.figures.decide.minimum_detectable`) says how small a true difference these
  items would have caught with 80% power at the 5% level, at the spread of the per-item differences.

The gate (:func:`worse_gate`) reads the same shared decision as every other gate
(:func:`sumjudge.figures.decide.decide`: B - A held to at least ``-margin``), with the test over it: a
``worse`` verdict fails, a ``better`` one passes, and an interval below ``-margin`` that the test does
not confirm stays inconclusive (the test decides: it is exact on few items and ties).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Literal

from ..figures.decide import SETTLE_DELTA, Decision, decide, items_needed, minimum_detectable
from ..figures.stats import PairedComparison, Verdict

ComparisonVerdict = Literal["better", "worse", "equivalent", "inconclusive"]


def split_verdict(cmp: PairedComparison, tested: Verdict, margin: float = 0.0) -> ComparisonVerdict:
    """``tested`` (the signed-rank test's verdict) with "no difference" split into ``equivalent``
    (the interval inside +-``margin``) and ``inconclusive``."""
    if tested != "no difference":
        return tested
    low, high = cmp.ci_low, cmp.ci_high
    if low is not None and high is not None and low >= -margin - 1e-12 and high <= margin + 1e-12:
        return "equivalent"
    return "inconclusive"


def spread(diffs: Sequence[float]) -> float | None:
    """The sample standard deviation of the per-item differences (``None`` under two)."""
    return statistics.stdev(diffs) if len(diffs) >= 2 else None


def power_figures(diffs: Sequence[float], detect: float) -> tuple[float | None, int | None]:
    """(the minimum detectable difference at these items, the items a ``detect`` difference needs)."""
    sd = spread(diffs)
    if sd is None:
        return None, None
    mdd = minimum_detectable(sd, len(diffs))
    need = items_needed(sd, detect) if sd > 0 else None
    return (None if mdd is None or not math.isfinite(mdd) else mdd), need


def default_detect(margin: float, scale: float | None) -> float:
    """The difference "how many items would it need" is asked of: the margin, else 5% of the scale."""
    return margin if margin > 0 else SETTLE_DELTA * (scale or 1.0)


def worse_gate(cmp: PairedComparison, verdict: ComparisonVerdict, margin: float, *, scale: float = 1.0,
               confidence: float = 0.95) -> Decision:
    """``--fail-if-worse``: B is not worse than A by more than ``margin``."""
    bar = -margin
    decided = decide("--fail-if-worse", "B - A", cmp.diff, None if cmp.ci_low is None or cmp.ci_high is None
                     else (cmp.ci_low, cmp.ci_high), bar, n=cmp.n_pairs, scale=scale, confidence=confidence,
                     unit="paired items")
    if verdict == "worse":
        return Decision("--fail-if-worse", "fail", f"B is worse than A (Wilcoxon p = {cmp.p_value:.3g}); "
                        + decided.line)
    if verdict == "better":
        return Decision("--fail-if-worse", "pass", f"B is better than A (Wilcoxon p = {cmp.p_value:.3g})")
    if decided.outcome == "fail":  # the interval says worse, the test does not confirm it
        return Decision("--fail-if-worse", "inconclusive", decided.line + ", but the signed-rank test does not "
                        "find B worse", settle=decided.settle or "more paired items would decide it")
    return decided


__all__ = ["ComparisonVerdict", "default_detect", "power_figures", "split_verdict", "worse_gate"]
