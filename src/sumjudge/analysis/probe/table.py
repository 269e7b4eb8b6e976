"""What a probe's scores say: per kind, how often the judge caught the change (and where), with a 95%
Wilson interval; how often a control was flagged; the gates; two judges compared kind by kind.

A variant is *detected* when it scored strictly lower than its original and its expected axis
(alignment or coverage) is lower too; *localized* (alignment kinds) when one of the claims the judge
found unsupported belongs to the changed sentence. A control is *flagged* when it scored lower.
Items that failed (either the original or the variant) are left out of every count.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from ...figures.decide import OnInconclusive, Outcome, decide_proportion, proportion_interval, resolve
from ...store.records import ItemOutcome, ScoredItem
from . import text as tx
from .selection import ProbePlan
from .variants import Variant

TOLERANCE = 1e-9


def wilson(successes: int, n: int) -> tuple[float | None, float | None]:
    """The 95% Wilson score interval of a proportion (``None`` without trials): the gates' own
    (:func:`sumjudge.figures.decide.proportion_interval`), so the table shows the interval they decide on."""
    found = proportion_interval(successes, n)
    return (None, None) if found is None else found


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value: the discordant pairs against a fair coin (1.0 with none)."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


class KindRow(BaseModel):
    kind: str
    axis: str
    applicable: int
    probes: int
    detected: int | None = None
    flagged: int | None = None
    rate: float | None
    ci_low: float | None
    ci_high: float | None
    localized: int | None = None
    """Alignment kinds: of the detected, how many had an unsupported claim in the changed sentence."""
    axis_lower: int | None = None
    """Kinds with an axis: how many variants lowered that axis, whether or not the score fell (the
    score is the lower axis, so a drop in alignment is hidden when coverage is lower still)."""
    failed: int = 0
    """Probes left out because the original or the variant failed to score."""

    def as_json(self) -> dict[str, Any]:
        data = self.model_dump()
        data.pop("flagged" if self.axis != "control" else "detected")
        return data


class Gate(BaseModel):
    name: str
    kind: str
    value: float | None
    threshold: float
    passed: bool
    outcome: Outcome = "pass"
    """pass / fail, or inconclusive when the rate's Wilson interval crosses the threshold
    (:func:`sumjudge.figures.decide.decide`); ``passed`` is ``outcome == "pass"``."""
    settle: str | None = None
    """What would settle an inconclusive gate."""

    low: float | None = None
    high: float | None = None
    """The rate's 95% (Wilson) interval, which the gate holds to the threshold (``None`` for a bar of
    1 or 0, which holds the probes themselves)."""

    @property
    def line(self) -> str:
        """The comparison the gate makes, in words: "min-detection number: detection 1.00,
        needs >= 0.80: met"; an abstaining gate says the interval cannot tell, and what would."""
        at_least = self.name == "min-detection"
        what = "detection" if at_least else "false alarms"
        op = ">=" if at_least else "<="
        shown = "no probes" if self.value is None else f"{what} {self.value:.2f}"
        if self.value is not None and self.low is not None and self.high is not None:
            shown += f" (95% interval {self.low:.2f}–{self.high:.2f})"
        verdict = {"pass": "met", "fail": "NOT MET",
                   "inconclusive": "cannot tell yet, the interval crosses the bar"}[self.outcome]
        return f"{self.name} {self.kind}: {shown}, needs {op} {self.threshold:.2f}: {verdict}" + (
            f"; {self.settle}" if self.settle else "")


def gate_of(name: str, row: KindRow, threshold: float, on_inconclusive: OnInconclusive = "inconclusive") -> Gate:
    """A probe gate on one row: its rate's Wilson interval held to ``threshold`` by the shared rule."""
    hits = row.flagged if row.axis == "control" else row.detected
    at_least = name == "min-detection"
    if (threshold >= 1) if at_least else (threshold <= 0):
        # "every probe caught" / "no control flagged": a fact about these probes (no sample can show a
        # rate of exactly 1 or 0, so the interval would never decide), as --threshold alone is for score
        met = (hits or 0) == row.probes if at_least else not hits
        return Gate(name=name, kind=row.kind, value=row.rate, threshold=threshold, passed=met,
                    outcome="pass" if met else "fail")
    d = resolve(decide_proportion(f"--{name}", f"{name} {row.kind}", hits or 0, row.probes, threshold,
                                  at_least=at_least, unit="probes"), on_inconclusive)
    interval = proportion_interval(hits or 0, row.probes) if row.probes else None
    return Gate(name=name, kind=row.kind, value=row.rate, threshold=threshold, passed=d.outcome == "pass",
                outcome=d.outcome, settle=d.settle if d.outcome == "inconclusive" else d.resolved_by,
                low=interval[0] if interval else None, high=interval[1] if interval else None)


class ProbeTable(BaseModel):
    judge: dict[str, Any]
    items: int
    kinds: list[KindRow]
    controls: list[KindRow]
    gates: list[Gate]

    @property
    def passed(self) -> bool:
        return all(g.passed for g in self.gates)

    @property
    def outcome(self) -> Outcome:
        """fail when a gate failed, else inconclusive when one could not decide, else pass."""
        outcomes = {g.outcome for g in self.gates}
        return "fail" if "fail" in outcomes else "inconclusive" if "inconclusive" in outcomes else "pass"

    def as_json(self) -> dict[str, Any]:
        return {
            "judge": self.judge, "items": self.items, "kinds": [k.as_json() for k in self.kinds],
            "controls": [k.as_json() for k in self.controls],
            "gates": [{**g.model_dump(), "line": g.line} for g in self.gates], "passed": self.passed,
            "outcome": self.outcome,
        }


def outcome_of(variant: Variant, outcomes: Mapping[str, ItemOutcome]) -> tuple[ScoredItem, ScoredItem] | None:
    """The scored original and variant, or ``None`` when either failed or is missing."""
    a, b = outcomes.get(variant.row_id), outcomes.get(variant.id)
    if isinstance(a, ScoredItem) and isinstance(b, ScoredItem):
        return a, b
    return None


def is_detected(variant: Variant, original: ScoredItem, changed: ScoredItem) -> bool:
    """Lower score, and lower on the expected axis (for a control: lower score at all)."""
    lower = changed.score < original.score - TOLERANCE
    if variant.axis == "control":
        return lower
    attr = "alignment_score" if variant.axis == "alignment" else "coverage_score"
    return lower and getattr(changed, attr) < getattr(original, attr) - TOLERANCE


def is_localized(variant: Variant, changed: ScoredItem) -> bool:
    """Some unsupported claim belongs to the sentence the change is in (a claim belongs to the
    variant's sentence it shares most words with)."""
    if changed.verdicts is None:
        return False
    parts = tx.sentences(variant.summary)
    if not parts:
        return False
    start, end = variant.variant_span
    target = next((i for i, p in enumerate(parts) if p.start <= max(start, end - 1) < p.end + 1), len(parts) - 1)
    words = [tx.content_words(p.text) | {w.text.lower() for w in tx.words(p.text)} for p in parts]
    for claim in changed.verdicts.alignment:
        if claim.supported:
            continue
        mine = {w.text.lower() for w in tx.words(claim.claim)}
        best = max(range(len(parts)), key=lambda i: (len(mine & words[i]), -i))
        if best == target:
            return True
    return False


def probe_table(
    plan: ProbePlan, outcomes: Mapping[str, ItemOutcome], judge: Mapping[str, Any], *,
    min_detection: float | None = None, max_false_alarm: float | None = None,
    on_inconclusive: OnInconclusive = "inconclusive",
) -> ProbeTable:
    """The table of a finished probe (``outcomes`` by item id: originals and variants)."""
    rows: list[KindRow] = []
    for kind in _kinds_in_order(plan):
        vs = [v for v in plan.variants if v.kind == kind]
        axis = vs[0].axis if vs else _axis_default(kind)
        scored = [(v, pair) for v in vs if (pair := outcome_of(v, outcomes)) is not None]
        hits = sum(is_detected(v, a, b) for v, (a, b) in scored)
        low, high = wilson(hits, len(scored))
        row = KindRow(
            kind=kind, axis=axis, applicable=plan.applicable.get(kind, 0), probes=len(scored),
            rate=hits / len(scored) if scored else None, ci_low=low, ci_high=high, failed=len(vs) - len(scored),
        )
        if axis == "control":
            row.flagged = hits
        else:
            row.detected = hits
            attr = f"{axis}_score"
            row.axis_lower = sum(getattr(b, attr) < getattr(a, attr) - TOLERANCE for _, (a, b) in scored)
            if axis == "alignment":
                row.localized = sum(is_detected(v, a, b) and is_localized(v, b) for v, (a, b) in scored)
        rows.append(row)
    gates: list[Gate] = []
    for row in rows:
        if row.probes == 0:
            continue
        if row.axis != "control" and min_detection is not None:
            gates.append(gate_of("min-detection", row, min_detection, on_inconclusive))
        if row.axis == "control" and max_false_alarm is not None:
            gates.append(gate_of("max-false-alarm", row, max_false_alarm, on_inconclusive))
    return ProbeTable(
        judge=dict(judge), items=len(outcomes), kinds=[r for r in rows if r.axis != "control"],
        controls=[r for r in rows if r.axis == "control"], gates=gates,
    )


def _kinds_in_order(plan: ProbePlan) -> list[str]:
    return list(dict.fromkeys([*plan.kinds, *(v.kind for v in plan.variants)]))


def _axis_default(kind: str) -> str:
    from .variants import axis_of

    return axis_of(kind)


class PairedKind(BaseModel):
    """Two judges on the same variants of one kind: how many each caught alone, and McNemar's p."""

    kind: str
    pairs: int
    both: int
    only_a: int
    only_b: int
    neither: int
    p_value: float


def paired_kinds(plan: ProbePlan, a: Mapping[str, ItemOutcome], b: Mapping[str, ItemOutcome]) -> list[PairedKind]:
    """Per kind, the variants both judges scored, paired on detected / not (exact McNemar)."""
    out = []
    for kind in _kinds_in_order(plan):
        cells = {"both": 0, "only_a": 0, "only_b": 0, "neither": 0}
        for v in (v for v in plan.variants if v.kind == kind):
            pa, pb = outcome_of(v, a), outcome_of(v, b)
            if pa is None or pb is None:
                continue
            da, db = is_detected(v, *pa), is_detected(v, *pb)
            cells["both" if da and db else "only_a" if da else "only_b" if db else "neither"] += 1
        n = sum(cells.values())
        if n:
            out.append(PairedKind(kind=kind, pairs=n, p_value=mcnemar_exact(cells["only_a"], cells["only_b"]), **cells))
    return out


def examples(plan: ProbePlan, outcomes: Mapping[str, ItemOutcome], per_kind: int = 2) -> list[tuple[Variant, ScoredItem, ScoredItem]]:
    """A few scored variants per kind for the report: misses first (they are what a reader needs to see)."""
    out: list[tuple[Variant, ScoredItem, ScoredItem]] = []
    for kind in _kinds_in_order(plan):
        scored = [(v, *pair) for v in plan.variants if v.kind == kind and (pair := outcome_of(v, outcomes))]
        scored.sort(key=lambda t: is_detected(t[0], t[1], t[2]) != (t[0].axis == "control"))
        out.extend(scored[:per_kind])  # type: ignore[arg-type]
    return out


__all__: Sequence[str] = ["Gate", "KindRow", "PairedKind", "ProbeTable", "examples", "mcnemar_exact", "paired_kinds",
                          "probe_table", "wilson"]
