"""How far the judge agrees with the people who labelled its verdicts (``sumjudge agreement --run``).

From the labels of one run (:mod:`sumjudge.store.labels`):

- **claims**: "unsupported" is the positive class (what a judge is there to catch). A label says
  whether the judge was right, so the person's view of a claim is the judge's verdict when marked
  right and its opposite when marked wrong. Precision: of the claims the judge called unsupported,
  the share people agree are; recall: of the claims people hold unsupported, the share the judge
  caught; F1; and Cohen's kappa between the judge and people on supported / unsupported.
- **coverage answers**: accuracy, the share of "answered / not answered" verdicts marked right.
- **ratings**: Spearman's rank correlation between the item's score and the people's 1-5 ratings.

Several reviewers' labels are pooled (each label one observation). Every interval is a 95%
percentile bootstrap over *items* (an item carries all its labels, seeded), so labels of one item are
never treated as independent: every figure but Spearman is a function of counts added up over items,
resampled at once (:func:`sumjudge.figures.stats.bootstrap_totals`); Spearman's resamples are weighted ranks,
vectorised here too (:func:`_spearman_interval`). With two or more reviewers, each
pair's agreement with each other (kappa on the verdicts both labelled, claims and answers) stands
beside each one's agreement with the judge on those same verdicts: a judge that agrees with people
about as well as they agree with each other is as good as a labeller.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from ..figures import number
from ..figures.decide import proportion_interval
from ..figures.stats import CONFIDENCE, DEFAULT_SEED, bootstrap_totals, percentile_interval, resample_weights
from ..store.labels import ItemLabel, VerdictLabel


class Figure(BaseModel):
    """One agreement figure with its bootstrap interval and how many labels it rests on."""

    value: float | None
    ci_low: float | None = None
    ci_high: float | None = None
    n: int = 0


class ReviewerPair(BaseModel):
    """Two reviewers on the verdicts both labelled: their kappa, and each one's kappa with the judge."""

    a: str
    b: str
    shared: int
    kappa: Figure
    """Between the two reviewers."""
    judge_kappa_a: Figure
    judge_kappa_b: Figure


class LabelAgreement(BaseModel):
    run: str
    reviewers: list[str]
    items: int
    claims: int
    answers: int
    ratings: int
    precision: Figure
    recall: Figure
    f1: Figure
    kappa: Figure
    answer_accuracy: Figure
    spearman: Figure
    pairs: list[ReviewerPair]
    confidence: float = CONFIDENCE


# -- counts: every figure but Spearman is a function of additive counts per item --------------------
#
# A 2x2 table of two raters over binary decisions is (both, first only, second only, neither); for
# claims the first rater is the judge and the second the people, "unsupported" the positive class, so
# the table is (true positives, false positives, false negatives, true negatives).


def _table(pairs: Iterable[tuple[bool, bool]]) -> list[float]:
    t = [0.0, 0.0, 0.0, 0.0]
    for x, y in pairs:
        t[0 if x and y else 1 if x else 2 if y else 3] += 1
    return t


def _cols(totals: Any) -> tuple[Any, ...]:
    import numpy as np

    t = np.atleast_2d(np.asarray(totals, dtype=float))
    return tuple(t[:, i] for i in range(t.shape[1]))


def _div(a: Any, b: Any) -> Any:
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1), np.nan)


def _precision(totals: Any) -> Any:
    tp, fp, _, _ = _cols(totals)
    return _div(tp, tp + fp)


def _recall(totals: Any) -> Any:
    tp, _, fn, _ = _cols(totals)
    return _div(tp, tp + fn)


def _f1(totals: Any) -> Any:
    tp, fp, fn, _ = _cols(totals)
    return _div(2 * tp, 2 * tp + fp + fn)


def _kappa(totals: Any) -> Any:
    import numpy as np

    both, first, second, neither = _cols(totals)
    n = both + first + second + neither
    po = _div(both + neither, n)
    p1, p2 = _div(both + first, n), _div(both + second, n)
    chance = p1 * p2 + (1 - p1) * (1 - p2)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(chance < 1 - 1e-12, (po - chance) / (1 - chance), np.nan)


def _accuracy(totals: Any) -> Any:
    correct, total = _cols(totals)
    return _div(correct, total)


def _one(stat: Callable[[Any], Any], table: Sequence[float]) -> float | None:
    v = float(stat([table])[0])
    return v if math.isfinite(v) else None


def kappa(pairs: Sequence[tuple[bool, bool]]) -> float | None:
    """Cohen's kappa of two raters over binary decisions; ``None`` with none, or when chance agreement is total."""
    return _one(_kappa, _table(pairs))


def spearman(pairs: Sequence[tuple[float, int]]) -> float | None:
    """Spearman's rho of (score, rating) (ties take their mean rank); ``None`` under three pairs or
    when either side is constant."""
    import numpy as np

    if len(pairs) < 3:
        return None
    rho = _rho(np.ones((1, len(pairs))), [p[0] for p in pairs], [p[1] for p in pairs])[0]
    return float(rho) if math.isfinite(rho) else None


def _rho(w: Any, xs: Sequence[float], ys: Sequence[float]) -> Any:
    """Spearman's rho of each row of weights ``w`` over the pairs (xs, ys): the weighted Pearson
    correlation of the weighted ranks, which is rho of the sample with each pair repeated w times."""
    import numpy as np

    xu, xi = np.unique(np.asarray(xs, dtype=float), return_inverse=True)
    yu, yi = np.unique(np.asarray(ys, dtype=float), return_inverse=True)
    rx, ry = _weighted_ranks(w, xi, len(xu)), _weighted_ranks(w, yi, len(yu))
    tw = w.sum(axis=1, keepdims=True)
    dx = rx - (w * rx).sum(axis=1, keepdims=True) / tw
    dy = ry - (w * ry).sum(axis=1, keepdims=True) / tw
    vx, vy = (w * dx * dx).sum(axis=1), (w * dy * dy).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((vx > 1e-12) & (vy > 1e-12) & (tw[:, 0] >= 3), (w * dx * dy).sum(axis=1) / np.sqrt(vx * vy), np.nan)


def _weighted_ranks(w: Any, idx: Any, k: int) -> Any:
    """Average ranks (1-based, ties sharing their mean) of values ``idx`` (indices into k sorted unique
    values) in each resample, a value counted ``w`` times: the ranks of the expanded sample."""
    import numpy as np

    per = np.zeros((k, w.shape[0]))
    np.add.at(per, idx, w.T)  # weight of each unique value, per resample
    per = per.T
    below = np.cumsum(per, axis=1) - per
    return (below + (per + 1) / 2)[:, idx]


def _spearman_interval(units: Sequence[Sequence[tuple[float, int]]], *, seed: int, n_resamples: int = 2000,
                       confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """The bootstrap interval of Spearman's rho over items (an item carries its ratings), vectorised:
    each resample is the items drawn (multinomial weights), rho the weighted Pearson correlation of
    the weighted ranks, which is rho of the expanded sample. NaN (left out) under three pairs or
    when a side is constant."""
    import numpy as np

    n = len(units)
    if n < 2:
        return None
    xs = [p[0] for u in units for p in u]
    ys = [p[1] for u in units for p in u]
    owner = np.array([k for k, u in enumerate(units) for _ in u])
    rng = np.random.default_rng(seed)
    out = []
    batch = max(1, min(n_resamples, 2_000_000 // max(len(xs), n)))
    for start in range(0, n_resamples, batch):
        w = resample_weights(rng, n, min(batch, n_resamples - start))[:, owner].astype(float)
        out.append(_rho(w, xs, ys))
    return percentile_interval(out, n_resamples, confidence)


def _counted(units: Sequence[Sequence[float]], stat: Callable[[Any], Any], n: int, *, seed: int,
             share: Callable[[Sequence[float]], tuple[float, float]] | None = None) -> Figure:
    """A figure over per-item counts: its value on the totals, its interval over items. ``share``:
    for a proportion, its (successes, trials) of the totals; the interval is then never narrower
    than Wilson's (a bootstrap over items gives a recall of 1.000 from 32 labels the interval [1.000, 1.000])."""
    if not units:
        return Figure(value=None, n=0)
    total = [sum(col) for col in zip(*units)]
    ci = bootstrap_totals(units, stat, seed=seed)
    if share is not None and ci is not None:
        hits, trials = share(total)
        wilson = proportion_interval(int(hits), int(trials))
        if wilson is not None:
            ci = (min(ci[0], wilson[0]), max(ci[1], wilson[1]))
    return Figure(value=_one(stat, total), ci_low=ci[0] if ci else None, ci_high=ci[1] if ci else None, n=n)


def _claim_pairs(labels: Iterable[VerdictLabel]) -> list[tuple[bool, bool]]:
    """(judge says unsupported, people hold it unsupported) per claim label."""
    return [(not lab.judge_says, not lab.truth) for lab in labels]


def measure_label_agreement(
    run: str,
    verdict_labels: Sequence[VerdictLabel],
    item_labels: Sequence[ItemLabel],
    scores: Mapping[str, float],
    *,
    seed: int = DEFAULT_SEED,
) -> LabelAgreement:
    """The judge against the labels of run ``run``. ``scores`` holds each scored item's score (for
    the rank correlation with ratings); labels of items not in it (failed items) are left out."""
    verdict_labels = [lab for lab in verdict_labels if lab.item_id in scores]
    item_labels = [lab for lab in item_labels if lab.item_id in scores]
    ids = sorted({lab.item_id for lab in verdict_labels} | {lab.item_id for lab in item_labels})
    claims: dict[str, list[VerdictLabel]] = {}
    answers: dict[str, list[VerdictLabel]] = {}
    for lab in verdict_labels:
        (claims if lab.target == "claim" else answers).setdefault(lab.item_id, []).append(lab)
    claim_units = [_table(_claim_pairs(claims[i])) for i in ids if i in claims]
    answer_units = [[sum(lab.correct for lab in answers[i]), len(answers[i])] for i in ids if i in answers]
    rated_by_item: dict[str, list[tuple[float, int]]] = {}
    for lab in item_labels:
        if lab.rating is not None:
            rated_by_item.setdefault(lab.item_id, []).append((scores[lab.item_id], lab.rating))
    rating_units = [rated_by_item[i] for i in ids if i in rated_by_item]
    n_claims, n_answers = sum(len(v) for v in claims.values()), sum(len(v) for v in answers.values())
    rated = [p for u in rating_units for p in u]
    rho_ci = _spearman_interval(rating_units, seed=seed)
    reviewers = sorted({lab.reviewer for lab in verdict_labels} | {lab.reviewer for lab in item_labels})
    return LabelAgreement(
        run=run,
        reviewers=reviewers,
        items=len(ids),
        claims=n_claims,
        answers=n_answers,
        ratings=len(rated),
        precision=_counted(claim_units, _precision, n_claims, seed=seed, share=lambda t: (t[0], t[0] + t[1])),
        recall=_counted(claim_units, _recall, n_claims, seed=seed, share=lambda t: (t[0], t[0] + t[2])),
        f1=_counted(claim_units, _f1, n_claims, seed=seed),
        kappa=_counted(claim_units, _kappa, n_claims, seed=seed),
        answer_accuracy=_counted(answer_units, _accuracy, n_answers, seed=seed, share=lambda t: (t[0], t[1])),
        spearman=Figure(value=spearman(rated), ci_low=rho_ci[0] if rho_ci else None,
                        ci_high=rho_ci[1] if rho_ci else None, n=len(rated)),
        pairs=[_pair(a, b, verdict_labels, seed=seed) for a, b in itertools.combinations(reviewers, 2)],
    )


def _pair(a: str, b: str, labels: Sequence[VerdictLabel], *, seed: int) -> ReviewerPair:
    """Reviewers a and b on the verdicts (claims and answers) both labelled."""
    key = lambda lab: (lab.item_id, lab.target, lab.index)  # noqa: E731
    of_a = {key(lab): lab for lab in labels if lab.reviewer == a}
    of_b = {key(lab): lab for lab in labels if lab.reviewer == b}
    shared = sorted(set(of_a) & set(of_b))
    by_item: dict[str, list[tuple[bool, bool, bool]]] = {}  # (judge, a's view, b's view) per verdict
    for k in shared:
        by_item.setdefault(k[0], []).append((of_a[k].judge_says, of_a[k].truth, of_b[k].truth))
    items = [by_item[i] for i in sorted(by_item)]

    def fig(x: int, y: int) -> Figure:
        return _counted([_table((t[x], t[y]) for t in u) for u in items], _kappa, len(shared), seed=seed)

    return ReviewerPair(a=a, b=b, shared=len(shared), kappa=fig(1, 2), judge_kappa_a=fig(0, 1), judge_kappa_b=fig(0, 2))


def _line(name: str, f: Figure, unit: str, pct: int) -> str:
    ci = "" if f.ci_low is None else f"  {pct}% CI [{number(f.ci_low)}, {number(f.ci_high)}]"
    return f"{name:<34} {number(f.value):>6}{ci}  ({f.n} {unit})"


def render_label_agreement(r: LabelAgreement) -> str:
    """The figures as plain text, one per line."""
    pct = round(r.confidence * 100)
    who = ", ".join(r.reviewers) or "nobody"
    lines = [
        f"run {r.run}: labels by {who} on {r.items} items ({r.claims} claims, {r.answers} answers, {r.ratings} ratings)",
        _line('precision of "unsupported"', r.precision, "claims", pct),
        _line('recall of "unsupported"', r.recall, "claims", pct),
        _line('F1 of "unsupported"', r.f1, "claims", pct),
        _line("Cohen's kappa, judge vs people", r.kappa, "claims", pct),
        _line("coverage answer accuracy", r.answer_accuracy, "answers", pct),
        _line("Spearman, score vs rating", r.spearman, "ratings", pct),
    ]
    for p in r.pairs:
        lines.append(f"reviewers {p.a} and {p.b}: {p.shared} verdicts labelled by both")
        lines.append(_line(f"  kappa, {p.a} vs {p.b}", p.kappa, "verdicts", pct))
        lines.append(_line(f"  kappa, judge vs {p.a}", p.judge_kappa_a, "verdicts", pct))
        lines.append(_line(f"  kappa, judge vs {p.b}", p.judge_kappa_b, "verdicts", pct))
    return "\n".join(lines)


__all__ = ["Figure", "LabelAgreement", "ReviewerPair", "measure_label_agreement", "render_label_agreement"]
