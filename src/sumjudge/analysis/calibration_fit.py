"""``sumjudge calibrate``: fit what a run's judge exposes to a team's labels, and say honestly what it gained.

The verdicts are read from the run store, never asked again: a calibration re-decides what the judge
already said (:class:`~sumjudge.summarization.calibration.Calibration`). What is fitted depends
on what the judge's verdicts carry:

- the offline judge: how an unchecked claim counts (supported or not) and what an unsettled question
  counts as in coverage;
- a judge with probabilities (the reader, a log-probability server): the claim and question thresholds and
  the unsure margin, one coordinate at a time from the judge's own decisions;
- every judge: the score bound that best separates the labels' pass from fail (balanced accuracy), with a
  bootstrap interval.

How much that helps is measured by k-fold cross-validation: each fold's items are scored by what was
fitted on the other folds only, and the pooled out-of-fold decisions are compared with the labels, before
(the judge as shipped, the gate at half the scale) and after, each with a 95% bootstrap interval over the
items, and their paired difference. Labels too few to fit are refused (no file); labels too few to tell a
difference are said so in words.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

import numpy as np

from ..errors import InputError
from ..store.database import RunStore
from ..store.records import ScoredItem
from .calibration_labels import Labels

MIN_ITEMS = 20
"""Labelled items (with at least :data:`MIN_EACH` of pass and of fail) below which nothing is fitted."""
MIN_EACH = 4
FOLDS = 5
BOOTSTRAP = 1000
THRESHOLDS = tuple(round(0.3 + 0.05 * i, 2) for i in range(14))  # 0.30 ... 0.95
MARGINS = (0.0, 0.05, 0.1, 0.15)
PRESENCES = tuple(round(0.1 * i, 1) for i in range(11))  # 0.0 ... 1.0
Verdict = tuple[float | None, bool, bool]  # probability, unchecked, answered
ClaimVerdict = tuple[float | None, bool, bool, bool]  # probability, unchecked, supported, decided by a rule


@dataclass(frozen=True)
class Params:
    """What a calibration changes; ``None`` keeps the judge's own decision."""

    claim_threshold: float | None = None
    question_threshold: float | None = None
    unsure_margin: float | None = None
    unchecked_claims: Literal["supported", "unsupported"] | None = None
    unsettled_presence: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}


@dataclass(frozen=True)
class LightItem:
    """An item's verdicts as plain tuples: what the fit re-decides thousands of times."""

    id: str
    claims: tuple[ClaimVerdict, ...]
    answers: tuple[Verdict, ...]
    questions: int


def light_items(store: RunStore, run_id: str) -> list[LightItem]:
    """The run's scored items with their verdicts (items without stored verdicts are left out)."""
    out = []
    for rec in store.iter_items(run_id):
        o = rec.outcome
        if isinstance(o, ScoredItem) and o.verdicts is not None:
            v = o.verdicts
            claims = tuple((c.probability, c.unchecked, c.supported, c.decided_by is not None) for c in v.alignment)
            answers = tuple((a.probability, a.unchecked, a.answered) for a in v.coverage)
            out.append(LightItem(o.id, claims, answers, len(v.questions)))
    return out


def share(item: LightItem, p: Params, graded: bool = False) -> float:
    """The item's score as a share (0-1) under ``p``: the same decisions as ``Calibration.claim`` and
    ``Calibration.answer``, and the same axes as :mod:`sumjudge.summarization.axes`."""
    if not item.claims or not item.questions:
        return 0.0
    total = 0.0
    for prob, unchecked, supported, ruled in item.claims:
        if unchecked and p.unchecked_claims is not None:
            supported = p.unchecked_claims == "supported"
        elif p.claim_threshold is not None and prob is not None and not unchecked and not ruled:
            supported = prob >= p.claim_threshold
        total += prob if graded and prob is not None else float(supported)
    alignment = total / len(item.claims)
    total = 0.0
    for prob, unchecked, answered in item.answers:
        if unchecked and p.unsettled_presence is not None and p.question_threshold is None:
            prob = p.unsettled_presence
        elif p.question_threshold is not None and prob is not None:
            answered = prob >= p.question_threshold
            unchecked = p.unsure_margin is not None and abs(prob - p.question_threshold) < p.unsure_margin
        total += prob if prob is not None and (graded or unchecked) else float(answered)
    return min(alignment, total / item.questions)


def balanced_accuracy(passed: np.ndarray, truth: np.ndarray) -> float:
    """The mean of the pass and fail rates found (0.5 is chance, whatever the classes' sizes)."""
    pos, neg = truth, ~truth
    tpr = (passed & pos).sum() / pos.sum() if pos.any() else 1.0
    tnr = (~passed & neg).sum() / neg.sum() if neg.any() else 1.0
    return float((tpr + tnr) / 2)


def best_bound(scores: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """The bound (a share) whose ``score >= bound`` best matches ``truth``, and its balanced accuracy;
    among equal bests, the middle one."""
    if scores.size == 0:  # nothing to separate: half the scale, at chance
        return 0.5, 0.5
    values = np.unique(scores)
    candidates = np.concatenate([[0.0], (values[:-1] + values[1:]) / 2, [values[-1] + 1e-9]])
    accuracies = np.array([balanced_accuracy(scores >= b, truth) for b in candidates])
    top = np.flatnonzero(accuracies >= accuracies.max() - 1e-12)
    pick = candidates[top[len(top) // 2]]
    return float(min(pick, 1.0)), float(accuracies.max())


def _objective(items: list[LightItem], truth: np.ndarray, p: Params, graded: bool) -> float:
    return best_bound(np.array([share(i, p, graded) for i in items]), truth)[1]


def fit_params(items: list[LightItem], truth: np.ndarray, kind: str, graded: bool) -> Params:
    """The parameters that best separate pass from fail on these items (see the module's docstring)."""
    if kind == "offline":
        grid = [Params(unchecked_claims=u, unsettled_presence=w) for u in ("supported", "unsupported") for w in PRESENCES]
        return max(grid, key=lambda p: _objective(items, truth, p, graded))
    if kind != "probabilities":
        return Params()
    best, best_value = Params(), _objective(items, truth, Params(), graded)
    own_margin = judge_margin(items)
    for _ in range(2):  # two sweeps of the three coordinates
        for name, values in (("claim_threshold", THRESHOLDS), ("question_threshold", THRESHOLDS),
                             ("unsure_margin", MARGINS)):
            for value in values:
                if name == "unsure_margin" and best.question_threshold is None:
                    continue
                trial = replace(best, **{name: value})
                if name == "question_threshold" and trial.unsure_margin is None:
                    trial = replace(trial, unsure_margin=own_margin)  # a moved threshold keeps the judge's doubt
                got = _objective(items, truth, trial, graded)
                if got > best_value + 1e-9:
                    best, best_value = trial, got
    return best


def judge_margin(items: list[LightItem]) -> float:
    """The unsure margin a calibration that moves the question threshold starts from: of MARGINS, the
    one nearest the judge's own, read from its verdicts (its unsure answers lie within the margin on
    either side of its threshold, so the margin is half their spread; 0 where it has none). Without it
    a fitted threshold would silently turn every unsure answer firm."""
    unsure = [prob for i in items for prob, unchecked, _ in i.answers if unchecked and prob is not None]
    if not unsure:
        return 0.0
    reach = (max(unsure) - min(unsure)) / 2
    return min(MARGINS[1:], key=lambda m: (abs(m - reach), m))  # a judge with unsure answers has some doubt


def judge_kind(model: str, items: list[LightItem]) -> str:
    """``offline``, ``probabilities`` (most claims carry one) or ``plain`` (only the bound can be fitted)."""
    if model.startswith("offline/"):
        return "offline"
    claims = [c for i in items for c in i.claims]
    with_p = sum(1 for c in claims if c[0] is not None)
    return "probabilities" if claims and with_p * 2 >= len(claims) else "plain"


def folds_of(ids: list[str], truth: np.ndarray, k: int) -> np.ndarray:
    """Each item's fold, stratified by its label, the order fixed by its id (no randomness to seed)."""
    order = sorted(range(len(ids)), key=lambda i: hashlib.sha256(ids[i].encode()).hexdigest())
    fold = np.zeros(len(ids), dtype=int)
    for label in (True, False):
        members = [i for i in order if bool(truth[i]) == label]
        for n, i in enumerate(members):
            fold[i] = n % k
    return fold


def _interval(values: np.ndarray) -> tuple[float, float]:
    return float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))


@dataclass
class Figure:
    value: float
    interval: tuple[float, float]

    def as_dict(self) -> dict[str, Any]:
        return {"value": round(self.value, 4), "interval": [round(x, 4) for x in self.interval]}


@dataclass
class Fit:
    """What ``calibrate`` found: the parameters and bound fitted on every label, and the cross-validated figures."""

    kind: str
    items: int
    passes: int
    folds: int
    params: Params
    bound: float
    bound_interval: tuple[float, float]
    before: Figure
    bound_only: Figure
    after: Figure
    gain: Figure
    spearman: dict[str, float] = field(default_factory=dict)

    @property
    def tells(self) -> bool:
        """Whether the labels tell a difference: the gain's interval leaves out 0."""
        return self.gain.interval[0] > 0 or self.gain.interval[1] < 0


def fit(model: str, items: list[LightItem], labels: Labels, *, scale: float = 1.0, graded: bool = False,
        folds: int = FOLDS, seed: int = 0) -> Fit:
    """Fit and cross-validate; :class:`InputError` when the labels are too few to fit anything."""
    items = [i for i in items if i.id in labels.passed]
    truth = np.array([labels.passed[i.id] for i in items], dtype=bool)
    if len(items) < MIN_ITEMS or truth.sum() < MIN_EACH or (~truth).sum() < MIN_EACH:
        raise InputError(
            f"too few labels to calibrate: {len(items)} labelled item(s) of this run, {int(truth.sum())} pass and "
            f"{int((~truth).sum())} fail; at least {MIN_ITEMS}, with {MIN_EACH} of each, are needed (50 or more "
            "give an interval worth reading). No calibration file was written.")
    kind = judge_kind(model, items)
    fold = folds_of([i.id for i in items], truth, folds)
    default = np.array([share(i, Params(), graded) for i in items])
    before = default >= 0.5
    bound_only, after = np.zeros(len(items), dtype=bool), np.zeros(len(items), dtype=bool)
    after_scores = np.zeros(len(items))
    for f in range(folds):
        train, test = fold != f, fold == f
        train_items = [i for i, t in zip(items, train) if t]
        b0, _ = best_bound(default[train], truth[train])
        bound_only[test] = default[test] >= b0
        p = fit_params(train_items, truth[train], kind, graded)
        trained = np.array([share(i, p, graded) for i in train_items])
        b, _ = best_bound(trained, truth[train])
        after_scores[test] = [share(i, p, graded) for i, t in zip(items, test) if t]
        after[test] = after_scores[test] >= b
    params = fit_params(items, truth, kind, graded)
    full = np.array([share(i, params, graded) for i in items])
    bound, _ = best_bound(full, truth)
    rng = np.random.default_rng(seed)
    draws = [rng.integers(0, len(items), len(items)) for _ in range(BOOTSTRAP)]
    stats = {name: np.array([balanced_accuracy(dec[d], truth[d]) for d in draws])
             for name, dec in (("before", before), ("bound_only", bound_only), ("after", after))}
    bounds = np.array([best_bound(full[d], truth[d])[0] for d in draws[:200]])

    def figure(name: str, dec: np.ndarray) -> Figure:
        return Figure(balanced_accuracy(dec, truth), _interval(stats[name]))

    result = Fit(kind, len(items), int(truth.sum()), folds, params, bound * scale,
                 (_interval(bounds)[0] * scale, _interval(bounds)[1] * scale),
                 figure("before", before), figure("bound_only", bound_only), figure("after", after),
                 Figure(balanced_accuracy(after, truth) - balanced_accuracy(before, truth),
                        _interval(stats["after"] - stats["before"])))
    rated = [k for k, i in enumerate(items) if i.id in labels.ratings]
    if len(rated) >= MIN_ITEMS:
        from scipy.stats import spearmanr

        ratings = [labels.ratings[items[k].id] for k in rated]
        result.spearman = {"before": float(spearmanr(ratings, default[rated]).statistic),
                           "after": float(spearmanr(ratings, after_scores[rated]).statistic)}
    return result


__all__ = ["ClaimVerdict", "Fit", "LightItem", "Params", "balanced_accuracy", "best_bound", "fit", "fit_params", "judge_kind",
           "light_items", "share"]
