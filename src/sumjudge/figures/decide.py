"""Gate decisions that can abstain: pass, fail, or inconclusive when the interval crosses the bound.

Every gate sumjudge has (``score --fail-under`` and ``--pass-rate``, ``compare --fail-if-worse``, the
pytest plugin's bounds, ``probe --min-detection`` / ``--max-false-alarm``) asks one question of a
figure and its 95% interval: is the true value on the right side of the bound? This module answers
it, once, for all of them (:func:`decide`):

- **pass** when the whole interval lies on the right side of the bound (at or above it, for a
  lower bound);
- **fail** when the whole interval lies on the wrong side;
- **inconclusive** when the interval crosses the bound: the data cannot tell, and the line says
  so, with what would settle it (:func:`items_needed`: how many items would decide a difference
  of ``delta`` at the spread seen).

A figure with no interval (one item) is inconclusive: one item says nothing about spread.
``--on-inconclusive pass|fail`` turns the third outcome into one of the other two for teams whose
CI must have two (:func:`resolve`); the default keeps it (exit code 3, :data:`EXIT_INCONCLUSIVE`).

Sample sizes (see docs/doubt.md for the formulas and references): a mean of n items with standard
deviation s is decided against a bound ``delta`` away, at level alpha and power 1 - beta, by
``n = ((z_{1-alpha/2} + z_{1-beta}) * s / delta) ** 2`` items (the normal approximation; the
bootstrap interval the gates read has about the same width). Where the caller has only the
interval, the spread is read back from its width: ``s = half_width * sqrt(n) / z_{1-alpha/2}``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Outcome = Literal["pass", "fail", "inconclusive"]
OnInconclusive = Literal["inconclusive", "pass", "fail"]
ON_INCONCLUSIVE: tuple[str, ...] = ("inconclusive", "pass", "fail")
EXIT_INCONCLUSIVE = 3
"""The exit code of a run whose gates passed or abstained, and at least one abstained."""
ALPHA = 0.05
POWER = 0.80
SETTLE_DELTA = 0.05
"""The difference (a share of the score's scale) the "what would settle it" line sizes the data for,
when the figure sits closer to the bound than this."""


def z_quantile(p: float) -> float:
    """The standard normal quantile (inverse CDF) at ``p``."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(p)


def items_needed(sd: float, delta: float, *, alpha: float = ALPHA, power: float = POWER) -> int | None:
    """Items needed for a mean with spread ``sd`` to tell a ``delta`` difference from the bound
    (two-sided level ``alpha``, power ``power``, the normal approximation); ``None`` when ``delta`` is 0."""
    if delta <= 0 or not math.isfinite(sd) or not math.isfinite(delta):
        return None
    k = (z_quantile(1 - alpha / 2) + z_quantile(power)) * sd / delta
    return max(2, math.ceil(k * k))


def minimum_detectable(sd: float, n: int, *, alpha: float = ALPHA, power: float = POWER) -> float | None:
    """The smallest true difference a mean of ``n`` values with spread ``sd`` detects with probability
    ``power`` at two-sided level ``alpha`` (a one-sample / paired t-test: Student quantiles on n - 1
    degrees of freedom); ``None`` under two values."""
    if n < 2 or not math.isfinite(sd):
        return None
    from scipy.stats import t

    df = n - 1
    return float((t.ppf(1 - alpha / 2, df) + t.ppf(power, df)) * sd / math.sqrt(n))


def spread_from_interval(low: float, high: float, n: int, confidence: float = 0.95) -> float:
    """The standard deviation of the values behind a mean's interval, read back from its width."""
    z = z_quantile(1 - (1 - confidence) / 2)
    return (high - low) / 2 * math.sqrt(n) / z


@dataclass(frozen=True)
class Decision:
    """One gate's outcome, and the sentences that say why."""

    gate: str
    """Which gate: ``--fail-under``, ``--pass-rate``, ``min-detection overlap``, ..."""
    outcome: Outcome
    line: str
    """Why: the figure, its interval and the bound."""
    settle: str | None = None
    """What would settle an inconclusive outcome (more items, a lower bar)."""
    resolved_by: str | None = None
    """``--on-inconclusive pass`` / ``fail`` when that flag turned an inconclusive outcome into this one."""

    @property
    def passed(self) -> bool:
        return self.outcome == "pass"

    def text(self) -> str:
        """The line, the settling sentence, and what resolved it, as one line."""
        parts = [self.line]
        if self.settle:
            parts.append(self.settle)
        if self.resolved_by:
            parts.append(f"counted as {self.outcome} by {self.resolved_by}")
        elif self.outcome == "inconclusive":
            parts.append("--on-inconclusive pass|fail counts it as one of the two")
        return "; ".join(parts)


def resolve(decision: Decision, on_inconclusive: OnInconclusive = "inconclusive") -> Decision:
    """``decision`` with an inconclusive outcome turned into ``pass`` or ``fail`` when asked."""
    if on_inconclusive not in ON_INCONCLUSIVE:
        raise ValueError(f"--on-inconclusive takes {', '.join(ON_INCONCLUSIVE)}, not {on_inconclusive!r}")
    if decision.outcome != "inconclusive" or on_inconclusive == "inconclusive":
        return decision
    return Decision(gate=decision.gate, outcome=on_inconclusive, line=decision.line, settle=decision.settle,
                    resolved_by=f"--on-inconclusive {on_inconclusive}")


def _n(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".") if abs(x) < 1e6 else f"{x:g}"


def decide(
    gate: str,
    figure: str,
    value: float | None,
    interval: tuple[float, float] | None,
    bound: float,
    *,
    at_least: bool = True,
    n: int = 0,
    sd: float | None = None,
    scale: float = 1.0,
    confidence: float = 0.95,
    unit: str = "items",
) -> Decision:
    """``figure`` (``value`` with its ``interval``, over ``n`` units) held to ``bound``: at least it
    (``at_least``) or at most it. ``sd``: the spread of the units' values (read back from the
    interval when not given), for the "what would settle it" sentence; ``scale``: the figure's
    largest value, which sizes the default difference (:data:`SETTLE_DELTA` of it)."""
    op_ok, op_bad = (">=", "<") if at_least else ("<=", ">")
    if value is None:
        return Decision(gate, "inconclusive", f"{figure}: no value to hold to {bound:g} (nothing was measured)",
                        settle=f"score some {unit}")
    pct = f"{round(confidence * 100)}%"
    if interval is None:
        return Decision(gate, "inconclusive",
                        f"{figure} {_n(value)} has no interval ({n} {unit} give none), so it cannot be held to {bound:g}",
                        settle=f"score at least two {unit}")
    low, high = interval
    shown = f"{figure} {_n(value)}, {pct} interval [{_n(low)}, {_n(high)}]"
    ok = low >= bound if at_least else high <= bound
    bad = high < bound if at_least else low > bound
    if ok:
        return Decision(gate, "pass", f"{shown} {op_ok} {bound:g}")
    if bad:
        return Decision(gate, "fail", f"{shown} {op_bad} {bound:g}")
    spread = sd if sd is not None else (spread_from_interval(low, high, n, confidence) if n >= 2 else None)
    delta = max(abs(value - bound), SETTLE_DELTA * scale)
    needed = items_needed(spread, delta, alpha=1 - confidence) if spread is not None else None
    if needed is None:
        settle = f"more {unit} would decide it"
    else:
        more = max(needed - n, 1)
        settle = (f"about {more} more {unit} ({needed} in all) would decide a {_n(delta)} difference at this "
                  f"spread (sd {_n(spread)})")  # type: ignore[arg-type]
    return Decision(gate, "inconclusive", f"the interval of {shown} crosses {bound:g}", settle=settle)


def proportion_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float] | None:
    """The Wilson score interval of ``successes`` of ``n`` (``None`` without trials)."""
    if n == 0:
        return None
    z = z_quantile(1 - (1 - confidence) / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exactly the ends, not float noise near them
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def decide_proportion(
    gate: str, figure: str, successes: int, n: int, bound: float, *, at_least: bool = True,
    confidence: float = 0.95, unit: str = "items",
) -> Decision:
    """A share (``successes`` of ``n``, Wilson interval) held to ``bound`` (see :func:`decide`)."""
    if n == 0:
        return decide(gate, figure, None, None, bound, at_least=at_least, unit=unit)
    p = successes / n
    sd = math.sqrt(max(p * (1 - p), 1 / (4 * n)))  # never 0: an all-or-nothing sample still has doubt
    return decide(gate, f"{figure} ({successes} of {n} {unit}):", p, proportion_interval(successes, n, confidence),
                  bound, at_least=at_least,
                  n=n, sd=sd, confidence=confidence, unit=unit)


__all__ = [
    "EXIT_INCONCLUSIVE", "ON_INCONCLUSIVE", "Decision", "OnInconclusive", "Outcome", "decide",
    "decide_proportion", "items_needed", "minimum_detectable", "proportion_interval", "resolve",
]
