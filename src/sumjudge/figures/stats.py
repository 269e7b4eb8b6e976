"""How sure a run's figures are: bootstrap intervals, paired comparisons, signed-rank tests.

Every figure here treats the *item* as the unit: a run's mean is an average over items, and its
uncertainty comes from which items happened to be in the data set. So the interval is a bootstrap
over items (``scipy.stats.bootstrap``), and two runs on the same items are compared pair by pair
(the per-item difference B - A), never as two independent samples.

Choices, and why:

- **Seeded.** Every bootstrap draws from ``numpy.random.default_rng(seed)`` (default
  :data:`DEFAULT_SEED`), and the values are put in a canonical order first, so the same run gives the
  same interval whatever order its items finished in.
- **BCa** (bias-corrected and accelerated, scipy's default) with 9,999 resamples: item scores lie
  in [0, scale] and are often skewed (a pile at 1.0, a tail of failures), which BCa corrects for.
  Where BCa cannot be computed (tiny or nearly constant samples give a degenerate acceleration) the
  percentile interval is used instead, and so it is above :data:`BCA_MAX_N` items, where BCa's
  jackknife costs O(n^2) (8 s at 20,000 items) and the two intervals agree to the fourth decimal.
  :attr:`MeanEstimate.method` says which was used.
- **Small and constant samples do not crash.** With no value the mean is ``None``; with one value
  the interval is ``None`` (one item says nothing about spread); when every value is the same, the
  interval is that value on both ends (every resample has the same mean).
- **Wilcoxon signed-rank** for the paired test: item scores are bounded and far from normal, so a
  t-test on them is the wrong tool. Zero differences (items scored the same by both runs) are
  dropped, the classic ``zero_method="wilcox"``; they are reported as ``ties``. When every
  difference is zero the p-value is 1. Scores are ratios of small counts, so equal differences
  (ties) are the rule: up to :data:`EXACT_MAX_N` non-zero differences the p-value is exact under
  ties (enumerated here); above, ``scipy.stats.wilcoxon``'s tie-corrected normal approximation.
"""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

DEFAULT_SEED = 20240531
"""Any fixed number would do; this one is the seed of every interval sumjudge reports."""
CONFIDENCE = 0.95
N_RESAMPLES = 9999
TIE_TOLERANCE = 1e-9
"""Two scores closer than this are a tie (scores are ratios of small counts, so float noise only)."""
BCA_MAX_N = 2000
EXACT_MAX_N = 50
"""Up to this many non-zero differences the signed-rank p-value is exact (ties included); above it,
scipy's normal approximation with its tie correction."""
_BATCH = 500  # resamples held in memory at once, at most ...
_BATCH_VALUES = 1_000_000  # ... and at most this many values (8 MB an array): flat memory for runs of any size

Direction = Literal["higher", "lower", "same"]


class MeanEstimate(BaseModel):
    """The mean of some values with its bootstrap confidence interval."""

    model_config = ConfigDict(frozen=True)

    n: int
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    confidence: float = CONFIDENCE
    method: Literal["BCa", "percentile", "constant", "none"] = "none"
    """How the interval was found: ``none`` when it could not be (fewer than two values)."""


class PairedComparison(BaseModel):
    """B against A over paired values: ``diff`` is mean(B - A) with its paired bootstrap interval."""

    model_config = ConfigDict(frozen=True)

    n_pairs: int
    mean_a: float | None
    mean_b: float | None
    diff: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float | None
    """Wilcoxon signed-rank, two-sided; ``None`` with no pair, 1.0 when every pair is a tie."""
    wins: int
    """Pairs where B scored higher than A."""
    ties: int
    losses: int
    """Pairs where B scored lower than A."""
    direction: Direction
    """Which way the signed ranks lean (B ``higher`` or ``lower`` than A): the direction the test's
    p-value is about. It agrees with the sign of ``diff`` except in rare skewed cases."""


def _clean(values: Sequence[float | None]) -> list[float]:
    out = []
    for v in values:
        if v is None:
            raise ValueError("a missing value cannot enter an interval; leave failed items out first")
        f = float(v)
        if not math.isfinite(f):
            raise ValueError(f"not a finite number: {v!r}")
        out.append(f)
    return out


def _rng_kwargs(seed: int) -> dict[str, Any]:
    import numpy as np
    from scipy.stats import bootstrap

    # scipy 1.15 renamed random_state to rng; accept both so scipy>=1.10 works.
    name = "rng" if "rng" in inspect.signature(bootstrap).parameters else "random_state"
    return {name: np.random.default_rng(seed)}


def mean_interval(
    values: Sequence[float | None],
    *,
    confidence: float = CONFIDENCE,
    seed: int = DEFAULT_SEED,
    n_resamples: int = N_RESAMPLES,
) -> MeanEstimate:
    """The mean of ``values`` and its ``confidence`` bootstrap interval, resampling the values.

    ``values`` are one number per item (``None`` is refused: drop failed items first).
    """
    xs = sorted(_clean(values))
    n = len(xs)
    if n == 0:
        return MeanEstimate(n=0, mean=None, ci_low=None, ci_high=None, confidence=confidence)
    mean = math.fsum(xs) / n
    if n == 1:
        return MeanEstimate(n=1, mean=mean, ci_low=None, ci_high=None, confidence=confidence)
    if xs[-1] - xs[0] <= TIE_TOLERANCE:
        return MeanEstimate(n=n, mean=mean, ci_low=mean, ci_high=mean, confidence=confidence, method="constant")
    low, high, method = _bootstrap_mean(xs, confidence=confidence, seed=seed, n_resamples=n_resamples)
    return MeanEstimate(n=n, mean=mean, ci_low=low, ci_high=high, confidence=confidence, method=method)


def _bootstrap_mean(
    xs: list[float], *, confidence: float, seed: int, n_resamples: int
) -> tuple[float, float, Literal["BCa", "percentile"]]:
    import numpy as np
    from scipy.stats import bootstrap

    data = (np.asarray(xs, dtype=float),)
    methods = ("BCa", "percentile") if len(xs) <= BCA_MAX_N else ("percentile",)
    for method in methods:
        with warnings.catch_warnings():
            # Degenerate BCa samples warn and give NaN; the percentile fallback handles them.
            warnings.simplefilter("ignore")
            res = bootstrap(
                data,
                np.mean,
                confidence_level=confidence,
                n_resamples=n_resamples,
                method=method,
                vectorized=True,
                axis=-1,
                batch=max(1, min(_BATCH, _BATCH_VALUES // len(xs))),
                **_rng_kwargs(seed),
            )
        low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
        if math.isfinite(low) and math.isfinite(high):
            # The mean itself always lies inside; float rounding in the resampled means must not
            # put an end a hair past it.
            mean = float(np.mean(data[0]))
            return min(low, mean), max(high, mean), method  # type: ignore[return-value]
    raise AssertionError("the percentile bootstrap of a non-constant sample is always finite")


def win_tie_loss(a: Sequence[float], b: Sequence[float], *, tolerance: float = TIE_TOLERANCE) -> tuple[int, int, int]:
    """(wins, ties, losses) of B against A, pair by pair."""
    wins = ties = losses = 0
    for x, y in zip(a, b, strict=True):
        if abs(y - x) <= tolerance:
            ties += 1
        elif y > x:
            wins += 1
        else:
            losses += 1
    return wins, ties, losses


def signed_rank_test(diffs: Sequence[float], *, tolerance: float = TIE_TOLERANCE) -> tuple[float | None, Direction]:
    """Two-sided Wilcoxon signed-rank p-value of paired differences, and which way they lean.

    Zero differences are dropped (``zero_method="wilcox"``). No difference at all: ``(None, "same")``;
    every difference zero: ``(1.0, "same")``.
    """
    from scipy.stats import rankdata, wilcoxon

    # Rounded to the tie tolerance: 0.55 - 0.5 and 0.5 - 0.45 must rank as the same size, not by float noise.
    ds = [0.0 if abs(d) <= tolerance else round(float(d), 9) for d in _clean(diffs)]
    if not ds:
        return None, "same"
    nonzero = [d for d in ds if d != 0.0]
    if not nonzero:
        return 1.0, "same"
    ranks = rankdata([abs(d) for d in nonzero])
    r_plus = float(sum(r for r, d in zip(ranks, nonzero) if d > 0))
    r_minus = float(sum(r for r, d in zip(ranks, nonzero) if d < 0))
    direction: Direction = "higher" if r_plus > r_minus else "lower" if r_minus > r_plus else "same"
    if len(nonzero) <= EXACT_MAX_N:
        p = _exact_signed_rank_p([float(r) for r in ranks], r_plus)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = float(wilcoxon(nonzero, zero_method="wilcox", method="asymptotic").pvalue)
    if not math.isfinite(p):
        p = 1.0
    return min(max(p, 0.0), 1.0), direction


def _exact_signed_rank_p(ranks: list[float], r_plus: float) -> float:
    """Two-sided p of the signed-rank statistic by enumerating its null distribution, ties included.

    Under "no difference" each rank is positive or negative with probability 1/2, independently;
    midranks are multiples of 1/2, so doubled they are integers and the distribution of the doubled
    positive rank sum is a small convolution. (scipy's own exact method assumes no ties, and with
    ties falls back to a permutation test that takes seconds at a dozen pairs.)
    """
    import numpy as np

    weights = [int(round(2 * r)) for r in ranks]
    total = sum(weights)
    dist = np.zeros(total + 1)
    dist[0] = 1.0
    for w in weights:
        shifted = np.zeros_like(dist)
        shifted[w:] = dist[: total + 1 - w]
        dist = (dist + shifted) / 2
    t = int(round(2 * r_plus))
    lower = float(dist[: t + 1].sum())
    upper = float(dist[t:].sum())
    return min(1.0, 2 * min(lower, upper))


def paired_comparison(
    a: Sequence[float | None],
    b: Sequence[float | None],
    *,
    confidence: float = CONFIDENCE,
    seed: int = DEFAULT_SEED,
    n_resamples: int = N_RESAMPLES,
) -> PairedComparison:
    """B against A on the same items (``a[i]`` and ``b[i]`` are one item's two values).

    The interval of ``diff`` is a paired bootstrap: items are resampled, each carrying both its
    values, which is the bootstrap of the per-item differences.
    """
    xa, xb = _clean(a), _clean(b)
    if len(xa) != len(xb):
        raise ValueError(f"paired values need the same length: {len(xa)} and {len(xb)}")
    pairs = sorted(zip(xa, xb))  # canonical order: the same pairs give the same interval
    xa = [p[0] for p in pairs]
    xb = [p[1] for p in pairs]
    diffs = [y - x for x, y in pairs]
    est = mean_interval(diffs, confidence=confidence, seed=seed, n_resamples=n_resamples)
    p_value, direction = signed_rank_test(diffs)
    wins, ties, losses = win_tie_loss(xa, xb)
    n = len(pairs)
    return PairedComparison(
        n_pairs=n,
        mean_a=math.fsum(xa) / n if n else None,
        mean_b=math.fsum(xb) / n if n else None,
        diff=est.mean,
        ci_low=est.ci_low,
        ci_high=est.ci_high,
        p_value=p_value,
        wins=wins,
        ties=ties,
        losses=losses,
        direction=direction,
    )


def cluster_bootstrap(
    units: Sequence[Any],
    statistic: Callable[[Sequence[Any]], float | None],
    *,
    confidence: float = CONFIDENCE,
    seed: int = DEFAULT_SEED,
    n_resamples: int = 2000,
) -> tuple[float, float] | None:
    """The percentile interval of ``statistic`` over ``units`` resampled with replacement (seeded).

    For figures that are not a mean of one number per item (a precision, a kappa, a rank
    correlation): each unit is an item carrying all its labels, so labels of one item stay together.
    Resamples where the statistic is undefined (``None``) are dropped; ``None`` when fewer than two
    units, or when fewer than half of the resamples give a value. The caller puts ``units`` in a
    canonical order, so the same labels give the same interval.
    """
    import numpy as np

    n = len(units)
    if n < 2:
        return None
    rng = np.random.default_rng(seed)
    values: list[float] = []
    for _ in range(n_resamples):
        picks = rng.integers(0, n, size=n)
        v = statistic([units[i] for i in picks])
        if v is not None and math.isfinite(v):
            values.append(v)
    if len(values) < n_resamples / 2:
        return None
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def resample_weights(rng: Any, n: int, size: int) -> Any:
    """``size`` bootstrap resamples of ``n`` units as weights (how often each unit was drawn), an
    integer array of shape (size, n): draws with replacement counted by ``bincount``."""
    import numpy as np

    draws = rng.integers(0, n, size=(size, n)) + (np.arange(size) * n)[:, None]
    return np.bincount(draws.ravel(), minlength=size * n).reshape(size, n)


def percentile_interval(values: Sequence[Any], n_resamples: int, confidence: float) -> tuple[float, float] | None:
    """The percentile interval of bootstrap statistics (arrays drawn in batches); ``None`` when fewer than
    half of the ``n_resamples`` are finite (the statistic is undefined on most resamples)."""
    import numpy as np

    flat = np.concatenate(values)
    flat = flat[np.isfinite(flat)]
    if len(flat) < n_resamples / 2:
        return None
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(flat, [tail, 100 - tail])
    return float(low), float(high)


def bootstrap_totals(
    counts: Sequence[Sequence[float]],
    statistic: Callable[[Any], Any],
    *,
    confidence: float = CONFIDENCE,
    seed: int = DEFAULT_SEED,
    n_resamples: int = 2000,
) -> tuple[float, float] | None:
    """:func:`cluster_bootstrap` for figures made of additive counts (a confusion table, correct of
    total): each unit is a row of counts, a resample's totals are the counts of the units drawn
    (:func:`resample_weights`), and ``statistic`` maps an array
    of totals (resamples x columns) to one value per resample, NaN where undefined. Vectorised: many
    thousands of labels take milliseconds."""
    import numpy as np

    table = np.asarray(counts, dtype=float)
    n = len(table)
    if n < 2:
        return None
    rng = np.random.default_rng(seed)
    values: list[Any] = []
    batch = max(1, min(n_resamples, 2_000_000 // n))  # weights held at once: flat memory for any n
    for start in range(0, n_resamples, batch):
        weights = resample_weights(rng, n, min(batch, n_resamples - start))
        values.append(np.asarray(statistic(weights @ table), dtype=float))
    return percentile_interval(values, n_resamples, confidence)


Verdict = Literal["better", "worse", "no difference"]


def interval_disagrees(comparison: PairedComparison, decided: Verdict) -> bool:
    """The interval of ``diff`` points another way than the verdict the signed-rank test ``decided``:
    it leaves out 0 beside "no difference", or holds 0 (or lies on the other side) beside a change.
    The test decides: it is exact on few items and under ties, where the bootstrap is too narrow."""
    low, high = comparison.ci_low, comparison.ci_high
    if low is None or high is None:
        return False
    if decided == "no difference":
        return low > 0 or high < 0
    return low <= 0 if decided == "better" else high >= 0


def verdict(comparison: PairedComparison, alpha: float) -> Verdict:
    """``better`` / ``worse`` when the signed-rank test rejects "no difference" at ``alpha``
    (B higher / lower than A), else ``no difference``."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie between 0 and 1, not {alpha}")
    p = comparison.p_value
    if p is None or p >= alpha or comparison.direction == "same":
        return "no difference"
    return "better" if comparison.direction == "higher" else "worse"
