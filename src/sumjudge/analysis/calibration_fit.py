"""``sumjudge calibrate``: fit what a run's judge exposes to a team's labels, and say honestly what it gained.

The verdicts are read from the run store, never asked again: a calibration re-decides what the judge
already said (:class:`~sumjudge.summarization.calibration.Calibration`). What is fitted depends
on what the judge's verdicts carry:

- the offline judge: how an unchecked claim counts (supported or not) and what an unsettled question
  counts as in coverage;
- a judge with probabilities (the reader, a log-probability server): the claim and question thresholds and
  the unsure margin, one coordinate at a time from the judge's own decisions; a threshold moves at most
  :data:`REACH` from the judge's own (read from its verdicts), because above and below that band the
  probabilities of one source differ from another's more than a faithful claim's from a wrong one's, and a
  threshold fitted there on some sources zeroes every claim of others;
- every judge: the score bound that best separates the labels' pass from fail (balanced accuracy), with a
  bootstrap interval.

The parameters are written only where cross-validation on the labels (:func:`choose`) says they separate
pass from fail better than the bound alone; on labels that cannot tell, the calibration moves the bound
and leaves the judge's decisions as they are. Folds keep the summaries of one source together: summaries
of one article are judged alike, and a fold that splits them scores a fit on its own training items.

How much that helps is measured by k-fold cross-validation: each fold's items are scored by what was
fitted on the other folds only, and the pooled out-of-fold decisions are compared with the labels, before
(the judge as shipped, the gate at half the scale) and after, each with a 95% bootstrap interval over the
items, and their paired difference. Labels too few to fit are refused (no file); labels too few to tell a
difference are said so in words.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
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
THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(1, 20))  # 0.05 ... 0.95
REACH = 0.2
"""How far a fitted claim or question threshold may move from the judge's own."""
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
    group: str = ""
    """What the item shares with others it must not be split from in a fold (its source's digest);
    empty: the item stands alone."""


def light_items(store: RunStore, run_id: str) -> list[LightItem]:
    """The run's scored items with their verdicts (items without stored verdicts are left out)."""
    out = []
    for rec in store.iter_items(run_id):
        o = rec.outcome
        if isinstance(o, ScoredItem) and o.verdicts is not None:
            v = o.verdicts
            claims = tuple((c.probability, c.unchecked, c.supported, c.decided_by is not None) for c in v.alignment)
            answers = tuple((a.probability, a.unchecked, a.answered) for a in v.coverage)
            out.append(LightItem(o.id, claims, answers, len(v.questions), o.source_sha256 or ""))
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
    claim_own = judge_threshold([(c[0], c[2]) for i in items for c in i.claims if not c[1] and not c[3]])
    question_own = judge_threshold([(a[0], a[2]) for i in items for a in i.answers])
    for _ in range(2):  # two sweeps of the three coordinates
        for name, values in (("claim_threshold", within_reach(claim_own)),
                             ("question_threshold", within_reach(question_own)), ("unsure_margin", MARGINS)):
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


def judge_threshold(decisions: list[tuple[float | None, bool]]) -> float:
    """The judge's own threshold, read from its decisions (a probability and yes or no): of the 0.05
    steps, the middle one of those that reproduce most of them; 0.5 where none carries a probability."""
    known = [(p, yes) for p, yes in decisions if p is not None]
    if not known:
        return 0.5
    agree = [sum((p >= t) == yes for p, yes in known) for t in THRESHOLDS]
    best = [t for t, n in zip(THRESHOLDS, agree) if n == max(agree)]
    return best[len(best) // 2]


def within_reach(own: float) -> tuple[float, ...]:
    """The thresholds a fit may try: those within :data:`REACH` of the judge's own."""
    return tuple(t for t in THRESHOLDS if abs(t - own) <= REACH + 1e-9)


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


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def folds_of(items: list[LightItem], truth: np.ndarray, k: int) -> np.ndarray:
    """Each item's fold, the order fixed by digests (no randomness to seed). Where the items name at least
    ``k`` groups, a group's items share a fold (the groups dealt in turn); otherwise the items are dealt
    one by one, stratified by their label."""
    groups = sorted({i.group for i in items if i.group}, key=_digest)
    if len(groups) >= k and all(i.group for i in items):
        of = {g: n % k for n, g in enumerate(groups)}
        return np.array([of[i.group] for i in items], dtype=int)
    ids = [i.id for i in items]
    order = sorted(range(len(ids)), key=lambda i: _digest(ids[i]))
    fold = np.zeros(len(ids), dtype=int)
    for label in (True, False):
        members = [i for i in order if bool(truth[i]) == label]
        for n, i in enumerate(members):
            fold[i] = n % k
    return fold


def cross_validate(items: list[LightItem], truth: np.ndarray, graded: bool, fold: np.ndarray,
                   pick: Callable[[list[LightItem], np.ndarray], tuple[Params, float]]
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Out-of-fold decisions: the judge's scores at a bound fitted on the other folds (the bound alone),
    and the scores under what ``pick`` fits on the other folds at its bound (with those scores)."""
    default = np.array([share(i, Params(), graded) for i in items])
    bound_only, after = np.zeros(len(items), dtype=bool), np.zeros(len(items), dtype=bool)
    after_scores = np.zeros(len(items))
    for f in sorted(set(fold.tolist())):
        train, test = fold != f, fold == f
        b0, _ = best_bound(default[train], truth[train])
        bound_only[test] = default[test] >= b0
        p, b = pick([i for i, t in zip(items, train) if t], truth[train])
        after_scores[test] = [share(i, p, graded) for i, t in zip(items, test) if t]
        after[test] = after_scores[test] >= b
    return bound_only, after, after_scores


def choose(items: list[LightItem], truth: np.ndarray, kind: str, graded: bool,
           folds: int = FOLDS) -> tuple[Params, float]:
    """What a calibration writes: the fitted parameters where, cross-validated on these items, they
    separate pass from fail better than the bound alone (else none), and the bound for the scores they give."""
    params = fit_params(items, truth, kind, graded)
    if params != Params() and len(items) >= folds:

        def fitted_freely(train: list[LightItem], t: np.ndarray) -> tuple[Params, float]:
            p = fit_params(train, t, kind, graded)
            return p, best_bound(np.array([share(i, p, graded) for i in train]), t)[0]

        bound_only, after, _ = cross_validate(items, truth, graded, folds_of(items, truth, folds), fitted_freely)
        if balanced_accuracy(after, truth) <= balanced_accuracy(bound_only, truth):
            params = Params()
    return params, best_bound(np.array([share(i, params, graded) for i in items]), truth)[0]


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
    default = np.array([share(i, Params(), graded) for i in items])
    before = default >= 0.5
    bound_only, after, after_scores = cross_validate(
        items, truth, graded, folds_of(items, truth, folds),
        lambda train, t: choose(train, t, kind, graded, folds))
    params, bound = choose(items, truth, kind, graded, folds)
    full = np.array([share(i, params, graded) for i in items])
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


__all__ = ["ClaimVerdict", "Fit", "LightItem", "Params", "balanced_accuracy", "best_bound", "choose", "cross_validate",
           "fit", "fit_params", "folds_of", "judge_kind", "judge_threshold", "light_items", "share", "within_reach"]
