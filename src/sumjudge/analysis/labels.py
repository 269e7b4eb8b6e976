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
percentile bootstrap over *items* (an item carries all its labels; :func:`sumjudge.stats.cluster_bootstrap`,
seeded), so labels of one item are never treated as independent. With two or more reviewers, each
pair's agreement with each other (kappa on the verdicts both labelled, claims and answers) stands
beside each one's agreement with the judge on those same verdicts: a judge that agrees with people
about as well as they agree with each other is as good as a labeller.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from ..figures import number
from ..stats import CONFIDENCE, DEFAULT_SEED, cluster_bootstrap
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


@dataclass(frozen=True)
class _Unit:
    """One item: its claim labels, answer labels and (score, rating) pairs."""

    claims: tuple[VerdictLabel, ...]
    answers: tuple[VerdictLabel, ...]
    ratings: tuple[tuple[float, int], ...]


def _confusion(labels: Iterable[VerdictLabel]) -> tuple[int, int, int, int]:
    """(tp, fp, fn, tn) with "unsupported" (judge_says False) as the positive class."""
    tp = fp = fn = tn = 0
    for lab in labels:
        judge_pos, human_pos = not lab.judge_says, not lab.truth
        if judge_pos and human_pos:
            tp += 1
        elif judge_pos:
            fp += 1
        elif human_pos:
            fn += 1
        else:
            tn += 1
    return tp, fp, fn, tn


def precision(labels: Iterable[VerdictLabel]) -> float | None:
    tp, fp, _, _ = _confusion(labels)
    return tp / (tp + fp) if tp + fp else None


def recall(labels: Iterable[VerdictLabel]) -> float | None:
    tp, _, fn, _ = _confusion(labels)
    return tp / (tp + fn) if tp + fn else None


def f1(labels: Iterable[VerdictLabel]) -> float | None:
    tp, fp, fn, _ = _confusion(labels)
    return 2 * tp / (2 * tp + fp + fn) if tp else (0.0 if fp + fn else None)


def kappa(pairs: Sequence[tuple[bool, bool]]) -> float | None:
    """Cohen's kappa of two raters over binary decisions; ``None`` when chance agreement is total."""
    n = len(pairs)
    if not n:
        return None
    observed = sum(1 for x, y in pairs if x == y) / n
    px = sum(1 for x, _ in pairs if x) / n
    py = sum(1 for _, y in pairs if y) / n
    chance = px * py + (1 - px) * (1 - py)
    if chance >= 1:
        return None
    return (observed - chance) / (1 - chance)


def judge_kappa(labels: Iterable[VerdictLabel]) -> float | None:
    return kappa([(lab.judge_says, lab.truth) for lab in labels])


def accuracy(labels: Iterable[VerdictLabel]) -> float | None:
    marks = [lab.correct for lab in labels]
    return sum(marks) / len(marks) if marks else None


def spearman(pairs: Sequence[tuple[float, int]]) -> float | None:
    """Spearman's rho of (score, rating); ``None`` under three pairs or when either side is constant."""
    if len(pairs) < 3 or len({p[0] for p in pairs}) < 2 or len({p[1] for p in pairs}) < 2:
        return None
    from scipy.stats import spearmanr

    rho = spearmanr([p[0] for p in pairs], [p[1] for p in pairs]).statistic
    return None if rho is None or not math.isfinite(rho) else float(rho)


def _figure(
    units: Sequence[_Unit], pick: Callable[[Sequence[_Unit]], Sequence[object]],
    stat: Callable[[Sequence[object]], float | None], *, seed: int,
) -> Figure:
    items = [u for u in units if pick([u])]
    pooled = pick(items)
    ci = cluster_bootstrap(items, lambda sample: stat(pick(sample)), seed=seed)
    return Figure(value=stat(pooled), ci_low=ci[0] if ci else None, ci_high=ci[1] if ci else None, n=len(pooled))


def _claims(units: Sequence[_Unit]) -> list[VerdictLabel]:
    return [lab for u in units for lab in u.claims]


def _answers(units: Sequence[_Unit]) -> list[VerdictLabel]:
    return [lab for u in units for lab in u.answers]


def _ratings(units: Sequence[_Unit]) -> list[tuple[float, int]]:
    return [p for u in units for p in u.ratings]


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
    units = [
        _Unit(
            claims=tuple(lab for lab in verdict_labels if lab.item_id == i and lab.target == "claim"),
            answers=tuple(lab for lab in verdict_labels if lab.item_id == i and lab.target == "answer"),
            ratings=tuple((scores[i], lab.rating) for lab in item_labels if lab.item_id == i and lab.rating is not None),
        )
        for i in ids
    ]
    reviewers = sorted({lab.reviewer for lab in verdict_labels} | {lab.reviewer for lab in item_labels})
    return LabelAgreement(
        run=run,
        reviewers=reviewers,
        items=len(ids),
        claims=len(_claims(units)),
        answers=len(_answers(units)),
        ratings=len(_ratings(units)),
        precision=_figure(units, _claims, precision, seed=seed),  # type: ignore[arg-type]
        recall=_figure(units, _claims, recall, seed=seed),  # type: ignore[arg-type]
        f1=_figure(units, _claims, f1, seed=seed),  # type: ignore[arg-type]
        kappa=_figure(units, _claims, judge_kappa, seed=seed),  # type: ignore[arg-type]
        answer_accuracy=_figure(units, _answers, accuracy, seed=seed),  # type: ignore[arg-type]
        spearman=_figure(units, _ratings, spearman, seed=seed),  # type: ignore[arg-type]
        pairs=[_pair(a, b, verdict_labels, seed=seed) for a, b in itertools.combinations(reviewers, 2)],
    )


def _pair(a: str, b: str, labels: Sequence[VerdictLabel], *, seed: int) -> ReviewerPair:
    """Reviewers a and b on the verdicts (claims and answers) both labelled."""
    key = lambda lab: (lab.item_id, lab.target, lab.index)  # noqa: E731
    of_a = {key(lab): lab for lab in labels if lab.reviewer == a}
    of_b = {key(lab): lab for lab in labels if lab.reviewer == b}
    shared = sorted(set(of_a) & set(of_b))
    # one unit per item: a list of (judge, a's view, b's view)
    by_item: dict[str, list[tuple[bool, bool, bool]]] = {}
    for k in shared:
        by_item.setdefault(k[0], []).append((of_a[k].judge_says, of_a[k].truth, of_b[k].truth))
    units = [by_item[i] for i in sorted(by_item)]

    def fig(stat: Callable[[list[tuple[bool, bool, bool]]], float | None]) -> Figure:
        flat = [t for u in units for t in u]
        ci = cluster_bootstrap(units, lambda s: stat([t for u in s for t in u]), seed=seed)
        return Figure(value=stat(flat), ci_low=ci[0] if ci else None, ci_high=ci[1] if ci else None, n=len(flat))

    return ReviewerPair(
        a=a, b=b, shared=len(shared),
        kappa=fig(lambda ts: kappa([(x[1], x[2]) for x in ts])),
        judge_kappa_a=fig(lambda ts: kappa([(x[0], x[1]) for x in ts])),
        judge_kappa_b=fig(lambda ts: kappa([(x[0], x[2]) for x in ts])),
    )


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
