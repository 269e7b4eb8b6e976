"""Gates: whether a finished data set run passes what the user asked of it (exit code 1 when not, 3
when the data cannot tell).

Every gate reads the run's end figures (:class:`~sumjudge.store.RunStats`) and returns a
:class:`~sumjudge.figures.decide.Decision`, or ``None`` when it has nothing to say. ``--fail-under`` and
``--pass-rate`` are held against their 95% intervals by default (``--gate interval``,
:func:`sumjudge.figures.decide.decide`): pass when the interval clears the bar, fail when it lies below,
inconclusive when it crosses it (``--on-inconclusive pass|fail`` picks one of the two instead).
``--gate mean`` (the mean alone) is the older two-outcome rule, kept for teams that chose it;
``--gate lower-bound`` is the interval rule with inconclusive counted as a fail (the interval's
lower end must clear the bar). Failed items,
``--min-item-score``, a ``--threshold`` every item must reach, and each item's gates beyond its score
(``--max-unsupported``, ``--min-alignment``, ``--min-coverage``: :class:`ItemGates`, held by every item
as ``check`` holds one) are facts about the items of this run, not estimates, so they pass or fail;
an item gate's line counts the items that broke it, with the Wilson interval of their share. Items whose evaluation failed count against the
run: by default one error fails it, however good the items that did score were (a judge that
answers 401 to 17 of 20 items must not let the other 3 pass a ``--fail-under``). ``--allow-errors``
tolerates a number or a share of failed items; the other gates then judge the items that scored.

Add a gate as one more function here and one more entry in :func:`check_gates`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from ..figures.decide import (
    ON_INCONCLUSIVE, Decision, OnInconclusive, decide, decide_proportion, proportion_interval, resolve,
)
from ..errors import ConfigurationError
from ..summarization.item_gates import ItemGates
from ..store.database import RunStats
from ..store.item_lookup import ItemRow


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


GateKind = Literal["interval", "mean", "lower-bound"]
GATE_KINDS: tuple[str, ...] = ("interval", "mean", "lower-bound")


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
    gate: GateKind = "interval"
    """What ``fail_under`` (and ``pass_rate``) are held against: their 95% ``interval`` (pass, fail, or
    inconclusive when it crosses the bar), the ``mean`` alone, or the ``lower-bound`` of the interval
    (passes only when the run is confidently at or above the bar, else fails)."""
    min_item_score: float | None = None
    """Every item that scored must score at least this."""
    pass_rate: PassRate | None = None
    """A share of the items that must reach a threshold."""
    on_inconclusive: OnInconclusive = "inconclusive"
    """What an inconclusive gate counts as: itself (exit 3), or ``pass`` / ``fail``."""
    scale: float = 1.0
    """The score's largest value (sizes the difference the "would settle it" line speaks of)."""
    item: ItemGates = ItemGates()
    """What every item that scored must meet beyond its score (``--max-unsupported`` and the axes)."""

    def __post_init__(self) -> None:
        for flag, bound in (("--fail-under", self.fail_under), ("--min-item-score", self.min_item_score)):
            if bound is not None and not 0 <= bound <= self.scale:
                raise ConfigurationError(f"{flag} must be from 0 to the scale ({self.scale:g}): outside it the gate "
                                         f"can never pass or never fail, got {bound:g}")
        if self.gate not in GATE_KINDS:
            raise ConfigurationError(f"--gate takes {', '.join(GATE_KINDS)}, got {self.gate!r}")
        if self.on_inconclusive not in ON_INCONCLUSIVE:
            raise ConfigurationError(f"--on-inconclusive takes {', '.join(ON_INCONCLUSIVE)}, got {self.on_inconclusive!r}")


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


def interval_gate(stats: RunStats, fail_under: float | None, scale: float = 1.0) -> Decision | None:
    """``--fail-under`` against the mean's interval: pass, fail, or inconclusive when it crosses the bar."""
    if fail_under is None or stats.mean is None:
        return None
    return decide("--fail-under", "mean score", stats.mean, stats.mean_ci, fail_under, n=stats.count,
                  scale=scale, confidence=stats.confidence)


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


def pass_rate_interval_gate(
    stats: RunStats, total_items: int, allowance: ErrorAllowance, pass_rate: PassRate | None, passing: int | None
) -> Decision | None:
    """``--pass-rate R`` (R < 1) against the Wilson interval of the share of items that passed."""
    if pass_rate is None or passing is None:
        return None
    judged = stats.count if allowance.allowed(total_items) > 0 else total_items
    if judged == 0:
        return None
    return decide_proportion("--pass-rate", f"share at or above {pass_rate.threshold:g}", passing,
                             judged, pass_rate.rate, confidence=stats.confidence)


ITEM_GATE_FLAGS = ("--max-unsupported", "--min-alignment", "--min-coverage")
"""How the item gates are named in a run's decisions."""
_NAMED_IDS = 3
"""Items an item gate's failure names; the rest are counted."""


def item_gate_decisions(rows: list[ItemRow], gates: ItemGates) -> list[Decision]:
    """One decision per item gate that is on: fail when any item that scored broke it. ``rows``: the run's
    items (:func:`sumjudge.store.item_lookup.item_rows`); a failed item is the errors gate's, not these."""
    scored = [r for r in rows if not r.failed]
    tests = {
        "max_unsupported": lambda r, n: r.claims - r.supported > n,
        "min_alignment": lambda r, x: (r.alignment or 0.0) < x,
        "min_coverage": lambda r, x: (r.coverage or 0.0) < x,
    }
    what = {"max_unsupported": "more than {b:g} claims shown unsupported", "min_alignment": "alignment below {b:g}",
            "min_coverage": "coverage below {b:g}"}
    decisions = []
    for gate, bound in gates.bounds().items():
        broke = [r.item_id for r in scored if tests[gate](r, bound)]
        flag = "--" + gate.replace("_", "-")
        if not broke:
            decisions.append(Decision(flag, "pass", f"no item of {len(scored)} has {what[gate].format(b=bound)}"))
            continue
        low, high = proportion_interval(len(broke), len(scored)) or (0.0, 1.0)
        named = ", ".join(broke[:_NAMED_IDS]) + (f" and {len(broke) - _NAMED_IDS} more" if len(broke) > _NAMED_IDS else "")
        decisions.append(Decision(flag, "fail", f"{len(broke)} of {len(scored)} items have {what[gate].format(b=bound)} "
                                                f"({flag} {bound:g}; 95% interval of the share {low:.0%}-{high:.0%}): {named}"))
    return decisions


def _lower_bound(gates: Gates, d: Decision | None) -> Decision | None:
    """``--gate lower-bound``: the interval must clear the bar, so one that crosses it fails."""
    if d is None or gates.gate != "lower-bound" or d.outcome != "inconclusive":
        return d
    return replace(resolve(d, "fail"), resolved_by="--gate lower-bound")


def _fact(gate: str, why: str | None) -> Decision | None:
    return None if why is None else Decision(gate, "fail", why)


def decide_gates(stats: RunStats, total_items: int, gates: Gates, *, passing: int | None = None,
                 rows: list[ItemRow] | None = None) -> list[Decision]:
    """Every gate's decision (those with nothing to say left out), ``--on-inconclusive`` applied.
    ``passing``: the items at or above the pass-rate threshold (:func:`sumjudge.store.item_lookup.count_at_least`); ``rows``:
    the run's items, for the item gates (needed when ``gates.item`` has one on)."""
    found: list[Decision | None] = [
        _fact("scored", nothing_scored_gate(stats)),
        _fact("--allow-errors", errors_gate(stats, total_items, gates.allow_errors)),
        _fact("--min-item-score", min_item_gate(stats, gates.min_item_score)),
    ]
    if gates.gate == "mean":
        found.append(_fact("--fail-under", mean_gate(stats, gates.fail_under)))
    else:
        found.append(_lower_bound(gates, interval_gate(stats, gates.fail_under, gates.scale)))
    if gates.gate != "mean" and gates.pass_rate is not None and gates.pass_rate.rate < 1:
        found.append(_lower_bound(gates, pass_rate_interval_gate(stats, total_items, gates.allow_errors,
                                                                 gates.pass_rate, passing)))
    else:
        found.append(_fact("--pass-rate", pass_rate_gate(stats, total_items, gates.allow_errors, gates.pass_rate,
                                                          passing)))
    if gates.item.active:
        if rows is None:
            raise ValueError("decide_gates: the item gates need the run's item rows")
        found.extend(item_gate_decisions(rows, gates.item))
    return [resolve(d, gates.on_inconclusive) for d in found if d is not None]  # (lower-bound's are decided)


def check_gates(stats: RunStats, total_items: int, gates: Gates, *, passing: int | None = None,
                rows: list[ItemRow] | None = None) -> list[str]:
    """Why the run fails its gates (an empty list: none failed; see :func:`decide_gates` for the
    inconclusive ones)."""
    return [d.text() for d in decide_gates(stats, total_items, gates, passing=passing, rows=rows)
            if d.outcome == "fail"]


def inconclusive(decisions: list[Decision]) -> list[str]:
    """The lines of the gates that could not decide."""
    return [d.text() for d in decisions if d.outcome == "inconclusive"]


__all__ = ["GATE_KINDS", "ErrorAllowance", "GateKind", "Gates", "ItemGates", "PassRate", "check_gates", "decide_gates",
           "ITEM_GATE_FLAGS", "inconclusive", "item_gate_decisions"]
