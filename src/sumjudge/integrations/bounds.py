"""What one ``assert_summary`` check holds a result to: each figure against its lower bound (:class:`Bound`,
with the samples' interval where there are samples) and each count against its ceiling (:class:`Ceiling`:
the claims shown unsupported)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..figures.decide import Decision, OnInconclusive, decide, resolve


@dataclass(frozen=True)
class Bound:
    """One figure of a result against its lower bound (``None``: no bound).

    With ``samples=k > 1`` the figure carries the 95% Student interval of its k sample values
    (``interval``) and is held to the bound by the shared rule (:func:`sumjudge.figures.decide.decide`):
    pass, fail, or inconclusive when the interval crosses it. One evaluation has no spread to read:
    its value is held to the bound as it is (pass or fail)."""

    name: str
    value: float
    minimum: float | None
    default: bool = False
    """The bound is ``DEFAULT_MIN_SCORE``, not one the caller gave."""
    interval: tuple[float, float] | None = None
    samples: int = 1
    on_inconclusive: OnInconclusive = "inconclusive"

    @property
    def decision(self) -> Decision | None:
        if self.minimum is None:
            return None
        interval = self.interval if self.interval is not None else (self.value, self.value)
        return resolve(decide(f"min_{self.name}", self.name, self.value, interval, self.minimum, n=self.samples,
                              unit="samples"), self.on_inconclusive)

    @property
    def outcome(self) -> str:
        d = self.decision
        return "pass" if d is None else d.outcome

    @property
    def ok(self) -> bool:
        return self.outcome == "pass"

    def line(self) -> str:
        label = f"{self.name:<10}{self.value:.2f}"
        if self.interval is not None:
            label += f" [{self.interval[0]:.2f}, {self.interval[1]:.2f}]"
        if self.minimum is None:
            return f"{label}  (no bound)"
        bound = f"min_{self.name} {self.minimum:g}" + (" (default)" if self.default else "")
        mark = {"pass": "ok", "fail": "FAILED", "inconclusive": "INCONCLUSIVE"}[self.outcome]
        op = ">=" if self.ok else "~ " if self.outcome == "inconclusive" else "< "
        line = f"{label}  {op} {bound:<24}{mark}"
        d = self.decision
        if d is not None and self.outcome == "inconclusive" and d.settle:
            line += f" ({d.settle})"
        return line


@dataclass(frozen=True)
class Ceiling:
    """A count of a result's verdicts against its upper bound (``max_unsupported``: the claims shown
    unsupported). A count of what the judge showed is a fact of the verdicts, so it passes or fails, with
    samples too (the result's own verdicts are counted)."""

    name: str
    value: int
    maximum: int | None

    @property
    def outcome(self) -> str:
        return "pass" if self.maximum is None or self.value <= self.maximum else "fail"

    @property
    def ok(self) -> bool:
        return self.outcome == "pass"

    def line(self) -> str:
        label = f"{self.name + ' ' + str(self.value):<14}"  # as wide as a Bound's "alignment 0.50"
        if self.maximum is None:
            return f"{label}  (no bound)"
        op, mark = ("<=", "ok") if self.ok else ("> ", "FAILED")
        return f"{label}  {op} {'max_' + self.name + ' ' + str(self.maximum):<24}{mark}"


def sample_interval(values: list[float]) -> tuple[float, float] | None:
    """The 95% Student interval of the mean of k sample values (``None`` under two)."""
    k = len(values)
    if k < 2:
        return None
    import statistics

    from scipy.stats import t

    mean, sd = statistics.fmean(values), statistics.stdev(values)
    half = float(t.ppf(0.975, k - 1)) * sd / math.sqrt(k)
    return mean - half, mean + half


__all__ = ["Bound", "Ceiling", "sample_interval"]
