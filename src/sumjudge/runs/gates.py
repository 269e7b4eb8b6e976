"""Gates: whether a finished batch run passes what the user asked of it (exit code 1 when not).

Every gate reads the run's end figures (:class:`~sumjudge.store.RunStats`) and returns the
sentence that says why it failed, or ``None``. Items whose evaluation failed count against the
run: by default one error fails it, however good the items that did score were (a judge that
answers 401 to 17 of 20 items must not let the other 3 pass a ``--fail-under``). ``--allow-errors``
tolerates a number or a share of failed items; the other gates then judge the items that scored.

Add a gate as one more function here and one more entry in :func:`check_gates`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ..errors import ConfigurationError
from ..store.database import RunStats


@dataclass(frozen=True)
class ErrorAllowance:
    """How many failed items a run may have and still pass: a count, or a share of the items."""

    count: int = 0
    share: float | None = None

    @classmethod
    def parse(cls, text: str | int | None) -> ErrorAllowance:
        """``"3"`` (items), ``"10%"`` or ``"0.1"`` (a share of the items); ``None`` allows none."""
        if text is None:
            return cls()
        if isinstance(text, int) and not isinstance(text, bool):
            value = str(text)
        else:
            value = str(text).strip()
        try:
            if value.endswith("%"):
                share = float(value[:-1]) / 100
                if not 0 <= share <= 1:
                    raise ValueError
                return cls(share=share)
            if value.isdigit():
                return cls(count=int(value))
            share = float(value)
            if not 0 <= share < 1:
                raise ValueError
            return cls(share=share)
        except ValueError:
            raise ConfigurationError(
                f"--allow-errors takes a number of items (3), a share (0.1) or a percentage (10%), got {text!r}"
            ) from None

    def allowed(self, total_items: int) -> int:
        if self.share is not None:
            return math.floor(self.share * total_items + 1e-9)
        return self.count

    def describe(self) -> str:
        return f"{self.share:.0%} of the items" if self.share is not None else str(self.count)


GateKind = Literal["mean", "lower-bound"]
GATE_KINDS: tuple[str, ...] = ("mean", "lower-bound")


@dataclass(frozen=True)
class PassRate:
    """At least ``rate`` of the items must score ``threshold`` or more (``--pass-rate R --threshold T``)."""

    rate: float
    threshold: float

    @classmethod
    def parse(cls, rate: str | float | None, threshold: float | None, scale: float = 1) -> PassRate | None:
        """``rate`` as ``0.9`` or ``90%``; a threshold alone asks every item to reach it (rate 1)."""
        if threshold is None:
            if rate is not None:
                raise ConfigurationError("--pass-rate needs --threshold: the score an item must reach to pass")
            return None
        if isinstance(threshold, bool) or not 0 <= threshold <= scale:
            raise ConfigurationError(f"--threshold must be in [0, {scale:g}] (the score's scale), got {threshold}")
        if rate is None:
            return cls(rate=1.0, threshold=float(threshold))
        text = str(rate).strip()
        try:
            value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        except ValueError:
            value = math.nan
        if not 0 <= value <= 1:
            raise ConfigurationError(f"--pass-rate takes a share (0.9) or a percentage (90%) of the items, got {rate!r}")
        return cls(rate=value, threshold=float(threshold))


@dataclass(frozen=True)
class Gates:
    """What a run must meet. ``None`` switches a gate off; errors are always checked."""

    fail_under: float | None = None
    """The mean score of the items that scored must be at least this."""
    allow_errors: ErrorAllowance = ErrorAllowance()
    gate: GateKind = "mean"
    """What ``fail_under`` is held against: the ``mean``, or the ``lower-bound`` of its 95% bootstrap
    interval (passes only when the run is confidently at or above the bar, not by luck of the items)."""
    min_item_score: float | None = None
    """Every item that scored must score at least this."""
    pass_rate: PassRate | None = None
    """A share of the items that must reach a threshold."""

    def __post_init__(self) -> None:
        if self.gate not in GATE_KINDS:
            raise ConfigurationError(f"--gate takes {' or '.join(GATE_KINDS)}, got {self.gate!r}")


def errors_gate(stats: RunStats, total_items: int, allowance: ErrorAllowance) -> str | None:
    allowed = allowance.allowed(total_items)
    if stats.errors <= allowed:
        return None
    return (
        f"{stats.errors} of {total_items} item(s) could not be scored (allowed: {allowance.describe()}); "
        "pass --allow-errors to tolerate some"
    )


def nothing_scored_gate(stats: RunStats) -> str | None:
    return "no item could be scored" if stats.count == 0 else None


def mean_gate(stats: RunStats, fail_under: float | None) -> str | None:
    if fail_under is None or stats.mean is None or stats.mean >= fail_under:
        return None
    return f"mean score {stats.mean:.3f} is below --fail-under {fail_under}"


def lower_bound_gate(stats: RunStats, fail_under: float | None) -> str | None:
    """``--gate lower-bound``: the lower end of the mean's interval must reach ``fail_under``."""
    if fail_under is None or stats.mean is None:
        return None
    pct = f"{round(stats.confidence * 100)}%"
    if stats.mean_ci is None:
        return (
            f"--gate lower-bound needs an interval, and {stats.count} scored item(s) give none "
            f"(mean score {stats.mean:.3f}); score at least two items"
        )
    low = stats.mean_ci[0]
    if low >= fail_under:
        return None
    return (
        f"the lower end of the mean score's {pct} interval, {low:.3f} (mean {stats.mean:.3f}), is below "
        f"--fail-under {fail_under}"
    )


def min_item_gate(stats: RunStats, min_item_score: float | None) -> str | None:
    """``--min-item-score``: no item that scored may score below it."""
    if min_item_score is None or stats.min_score is None or stats.min_score >= min_item_score:
        return None
    return f"the lowest item score, {stats.min_score:.3f}, is below --min-item-score {min_item_score}"


def pass_rate_gate(
    stats: RunStats, total_items: int, allowance: ErrorAllowance, pass_rate: PassRate | None, passing: int | None
) -> str | None:
    """``passing`` items reached the threshold. Failed items count as not passing, unless
    ``--allow-errors`` tolerates some: then the share is of the items that scored."""
    if pass_rate is None or passing is None:
        return None
    judged = stats.count if allowance.allowed(total_items) > 0 else total_items
    if judged == 0 or passing >= pass_rate.rate * judged - 1e-9:
        return None
    return (
        f"{passing} of {judged} items ({passing / judged:.0%}) scored at least {pass_rate.threshold:g}; "
        f"--pass-rate asks for {pass_rate.rate:.0%}"
    )


def check_gates(stats: RunStats, total_items: int, gates: Gates, *, passing: int | None = None) -> list[str]:
    """Why the run fails its gates (an empty list: it passes). ``passing``: the items at or above
    the pass-rate threshold (``RunStore.count_at_least``), when that gate is on."""
    found = [
        nothing_scored_gate(stats),
        errors_gate(stats, total_items, gates.allow_errors),
        (lower_bound_gate if gates.gate == "lower-bound" else mean_gate)(stats, gates.fail_under),
        min_item_gate(stats, gates.min_item_score),
        pass_rate_gate(stats, total_items, gates.allow_errors, gates.pass_rate, passing),
    ]
    return [f for f in found if f is not None]


__all__ = ["GATE_KINDS", "ErrorAllowance", "GateKind", "Gates", "PassRate", "check_gates"]
