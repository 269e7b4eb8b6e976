"""A run's rates corrected for the judge's own errors, from the labels people left on its verdicts.

The judge calls some claims unsupported and some questions unanswered; the run's *raw* rate is the
share it called so. The judge misses some errors and invents others, so the raw rate is biased.
Where people labelled verdicts (``sumjudge view``, :mod:`sumjudge.store.labels`), the judge's

- **sensitivity** ``Se``: of the verdicts people hold positive (unsupported / unanswered), the share
  the judge called positive, and its
- **specificity** ``Sp``: of those people hold negative, the share the judge called negative,

give the **Rogan-Gladen** estimate of the true rate (Rogan & Gladen 1978)::

    corrected = (raw + Sp - 1) / (Se + Sp - 1)        clipped to [0, 1]

undefined when ``Se + Sp <= 1`` (a judge no better than a coin says nothing about the truth).

The interval carries both doubts: a percentile bootstrap (seeded, 2,000 resamples) that resamples the
run's items (each carrying its verdict counts) and the labelled items (each carrying its confusion
table) in the same draw: when the labels are the run's own, one draw of items carries both, so the
two stay as dependent as they are; labels from another run (``--labels-from``) are drawn
independently of the run's items. Fewer than :data:`MIN_PER_CLASS` labels on either side of a rate
(positives or negatives by people's account) is a plain line, never a number.

The method assumes the labelled verdicts are a fair sample of the run's verdicts of each class
(the judge's errors on them are its errors everywhere); docs/doubt.md says more, and what breaks it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel

from ..figures import number
from ..figures.decide import proportion_interval
from ..figures.stats import CONFIDENCE, DEFAULT_SEED, percentile_interval, resample_weights
from ..store.labels import VerdictLabel
from .labels import Figure

MIN_PER_CLASS = 30
"""Labels needed on each side (people's positives and negatives) before a rate is corrected."""
N_RESAMPLES = 2000
Kind = Literal["claim", "answer"]
WHAT: dict[str, str] = {"claim": "unsupported claims", "answer": "unanswered questions"}


class CorrectedRate(BaseModel):
    """One rate of a run (unsupported claims, or unanswered questions), raw and corrected."""

    what: str
    raw: Figure
    """The share of the run's verdicts the judge called positive (``n``: verdicts), interval over items."""
    sensitivity: Figure
    """Of the labelled verdicts people hold positive, the share the judge called positive."""
    specificity: Figure
    corrected: Figure | None = None
    """Rogan-Gladen; ``None`` when ``note`` says why not."""
    positives: int = 0
    """Labelled verdicts people hold positive (unsupported / unanswered)."""
    negatives: int = 0
    called: int = 0
    """Labelled verdicts the judge called positive."""
    called_right: int = 0
    """Of those, the ones people hold positive too (the judge's precision is ``called_right / called``)."""
    note: str | None = None


class Correction(BaseModel):
    """The corrected rates of ``run``, from the labels of ``labels_from`` (the run itself, or another
    run of the same judge and options)."""

    run: str
    labels_from: str
    claims: CorrectedRate
    answers: CorrectedRate
    confidence: float = CONFIDENCE
    min_per_class: int = MIN_PER_CLASS


# -- the arithmetic, vectorised over resamples -------------------------------------------------------


def rogan_gladen(raw: Any, se: Any, sp: Any) -> Any:
    """The corrected rate (NaN where ``se + sp <= 1``), clipped to [0, 1]; arrays or numbers."""
    import numpy as np

    raw, se, sp = (np.asarray(x, dtype=float) for x in (raw, se, sp))
    j = se + sp - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(j > 1e-12, (raw + sp - 1) / np.where(j > 1e-12, j, 1), np.nan)
    return np.clip(out, 0.0, 1.0)


def _ratio(a: Any, b: Any) -> Any:
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1), np.nan)


def _from_totals(t: Any) -> tuple[Any, Any, Any]:
    """(raw, Se, Sp) from totals columns (positive calls, verdicts, tp, fp, fn, tn)."""
    k, n, tp, fp, fn, tn = (t[..., i] for i in range(6))
    return _ratio(k, n), _ratio(tp, tp + fn), _ratio(tn, tn + fp)


def _value(x: Any) -> float | None:
    v = float(x)
    return v if math.isfinite(v) else None


def _fig(value: Any, ci: tuple[float, float] | None, n: int) -> Figure:
    return Figure(value=_value(value), ci_low=ci[0] if ci else None, ci_high=ci[1] if ci else None, n=n)


def bootstrap_corrected(
    run_units: Sequence[Sequence[float]],
    label_units: Sequence[Sequence[float]],
    *,
    joint: bool,
    seed: int = DEFAULT_SEED,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> dict[str, tuple[float, float] | None]:
    """Percentile intervals of raw, Se, Sp and the corrected rate. ``run_units``: per run item
    (positive calls, verdicts); ``label_units``: per labelled item (tp, fp, fn, tn). ``joint``: the
    two lists are the same items in the same order (labels of the run itself), drawn together."""
    import numpy as np

    run = np.asarray(run_units, dtype=float).reshape(-1, 2)
    lab = np.asarray(label_units, dtype=float).reshape(-1, 4)
    if joint and len(run) != len(lab):
        raise ValueError("joint resampling needs one label row per run item")
    if len(run) < 2 or len(lab) < 2:
        return {"raw": None, "sensitivity": None, "specificity": None, "corrected": None}
    rng = np.random.default_rng(seed)
    out: dict[str, list[Any]] = {"raw": [], "sensitivity": [], "specificity": [], "corrected": []}
    width = max(len(run), len(lab))
    batch = max(1, min(n_resamples, 2_000_000 // width))
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        w_run = resample_weights(rng, len(run), size)
        w_lab = w_run if joint else resample_weights(rng, len(lab), size)
        totals = np.concatenate([w_run @ run, w_lab @ lab], axis=1)
        raw, se, sp = _from_totals(totals)
        for key, v in (("raw", raw), ("sensitivity", se), ("specificity", sp),
                       ("corrected", rogan_gladen(raw, se, sp))):
            out[key].append(v)
    return {k: percentile_interval(v, n_resamples, confidence) for k, v in out.items()}


# -- from a run and its labels --------------------------------------------------------------------


def positive_calls(outcome: Any, kind: Kind) -> tuple[int, int] | None:
    """(verdicts the judge called positive, verdicts) of one scored item; ``None`` without verdicts."""
    verdicts = getattr(outcome, "verdicts", None)
    if verdicts is None:
        return None
    if kind == "claim":
        return sum(1 for v in verdicts.alignment if not v.supported), len(verdicts.alignment)
    return sum(1 for v in verdicts.coverage if not v.answered), len(verdicts.coverage)


def _label_table(labels: Iterable[VerdictLabel]) -> list[float]:
    """(tp, fp, fn, tn) with the judge first, positive = unsupported / unanswered."""
    t = [0.0, 0.0, 0.0, 0.0]
    for lab in labels:
        judge, truth = not lab.judge_says, not lab.truth
        t[0 if judge and truth else 1 if judge else 2 if truth else 3] += 1
    return t


def correct_rate(
    kind: Kind,
    run_counts: Mapping[str, tuple[int, int]],
    labels: Sequence[VerdictLabel],
    *,
    same_run: bool,
    seed: int = DEFAULT_SEED,
    n_resamples: int = N_RESAMPLES,
    min_per_class: int = MIN_PER_CLASS,
) -> CorrectedRate:
    """One rate of a run: ``run_counts`` by item id (positive calls, verdicts); ``labels`` of
    ``kind`` (of this run when ``same_run``: then labels of items outside ``run_counts`` are left out)."""
    import numpy as np

    labels = [lab for lab in labels if lab.target == kind and (not same_run or lab.item_id in run_counts)]
    by_item: dict[str, list[VerdictLabel]] = {}
    for lab in labels:
        by_item.setdefault(lab.item_id, []).append(lab)
    run_ids = sorted(run_counts)
    if same_run:
        run_units = [list(run_counts[i]) for i in run_ids]
        label_units = [_label_table(by_item.get(i, [])) for i in run_ids]
    else:
        run_units = [list(run_counts[i]) for i in run_ids]
        label_units = [_label_table(by_item[i]) for i in sorted(by_item)]
    run_t = np.asarray(run_units, dtype=float).reshape(-1, 2).sum(axis=0)
    lab_t = np.asarray(label_units, dtype=float).reshape(-1, 4).sum(axis=0)
    raw, se, sp = _from_totals(np.concatenate([run_t, lab_t]))
    tp, fp, fn, tn = (int(x) for x in lab_t)
    positives, negatives = tp + fn, tn + fp
    cis = bootstrap_corrected(run_units, label_units, joint=same_run, seed=seed, n_resamples=n_resamples)
    # Se and Sp are shares of labels: their intervals are Wilson's, which no finite sample shrinks to
    # a point ("specificity 1.000 (95% CI [1.000, 1.000])" from 51 labels); the raw rate's
    # bootstrap over items is never narrower than Wilson's on its verdicts
    se_ci, sp_ci = proportion_interval(tp, positives), proportion_interval(tn, negatives)
    raw_ci = _union(cis["raw"], proportion_interval(int(run_t[0]), int(run_t[1])))
    what = WHAT[kind]
    rate = CorrectedRate(
        what=what, raw=_fig(raw, raw_ci, int(run_t[1])), sensitivity=_fig(se, se_ci, positives),
        specificity=_fig(sp, sp_ci, negatives), positives=positives, negatives=negatives,
        called=tp + fp, called_right=tp,
    )
    noun = "claims" if kind == "claim" else "answers"
    pos, neg = ("unsupported", "supported") if kind == "claim" else ("unanswered", "answered")
    if positives < min_per_class or negatives < min_per_class:
        rate.note = (f"too few labels to correct the rate of {what}: {positives} {pos} and {negatives} {neg} "
                     f"{noun} labelled ({min_per_class} of each are needed)")
        return rate
    value = rogan_gladen(raw, se, sp)
    if not math.isfinite(float(value)):
        rate.note = (f"the judge's labelled {noun} give sensitivity + specificity <= 1 (no better than chance): "
                     f"its rate of {what} cannot be corrected")
        return rate
    rate.corrected = _fig(value, _corrected_interval(cis["corrected"], raw_ci, (se, se_ci, tp, fn),
                                                     (sp, sp_ci, tn, fp)), int(run_t[1]))
    return rate


def _union(a: tuple[float, float] | None, b: tuple[float, float] | None) -> tuple[float, float] | None:
    if a is None or b is None:
        return a or b
    return min(a[0], b[0]), max(a[1], b[1])


def _corrected_interval(boot: tuple[float, float] | None, raw_ci: tuple[float, float] | None,
                        se: tuple[Any, tuple[float, float] | None, int, int],
                        sp: tuple[Any, tuple[float, float] | None, int, int]) -> tuple[float, float] | None:
    """The bootstrap interval of the corrected rate, widened where it is blind: a rate whose labels
    are unanimous (every positive caught, or no negative called positive) is the same in every
    resample, so its doubt is taken from its Wilson ends, the rate corrected at them and at the raw
    rate's ends."""
    import itertools

    def ends(value: Any, ci: tuple[float, float] | None, hit: int, miss: int) -> list[float]:
        unanimous = (hit == 0 or miss == 0) and ci is not None
        return [float(value), *(ci if unanimous else ())]  # type: ignore[misc]

    if boot is None:
        return None
    ses, sps = ends(*se), ends(*sp)
    if len(ses) == 1 and len(sps) == 1:
        return boot
    raws = list(raw_ci) if raw_ci else []
    grid = [float(rogan_gladen(r, a, b)) for r, a, b in itertools.product(raws, ses, sps)]
    grid = [g for g in grid if math.isfinite(g)]
    return _union(boot, (min(grid), max(grid))) if grid else boot


def correct_run(
    run: str,
    outcomes: Mapping[str, Any],
    labels: Sequence[VerdictLabel],
    *,
    labels_from: str | None = None,
    seed: int = DEFAULT_SEED,
    n_resamples: int = N_RESAMPLES,
    min_per_class: int = MIN_PER_CLASS,
) -> Correction:
    """The corrected rates of ``run`` (``outcomes``: its items by id) from ``labels`` (of run
    ``labels_from``, default the run itself)."""
    source = labels_from or run
    same = source == run
    rates = {}
    for kind in ("claim", "answer"):
        counts = {i: c for i, o in outcomes.items() if (c := positive_calls(o, kind)) is not None}  # type: ignore[arg-type]
        rates[kind] = correct_rate(kind, counts, labels, same_run=same, seed=seed,  # type: ignore[arg-type]
                                   n_resamples=n_resamples, min_per_class=min_per_class)
    return Correction(run=run, labels_from=source, claims=rates["claim"], answers=rates["answer"])


def correction_from_store(store: Any, run_ref: str, labels_from: str | None = None) -> Correction:
    """:func:`correct_run` of a stored run (id, prefix or ``latest``), from its own labels or those of
    run ``labels_from``, which must have been scored by the same judge with the same options.
    Raises ``KeyError`` for an unknown run, :class:`~sumjudge.errors.InputError` for another judge."""
    from ..errors import InputError
    from ..store.labels import LabelBook

    run = store.get_run(run_ref)
    source = store.get_run(labels_from) if labels_from is not None else run
    if source.id != run.id and (source.model != run.model or dict(source.options) != dict(run.options)):
        raise InputError(
            f"--labels-from {source.id} was scored by {source.model!r} with options {dict(source.options)}, run "
            f"{run.id} by {run.model!r} with {dict(run.options)}: labels correct only the same judge and options"
        )
    outcomes = {item.item_id: item.outcome for item in store.iter_items(run.id) if item.status == "ok"}
    labels = LabelBook(store).verdict_labels(source.id)
    return correct_run(run.id, outcomes, labels, labels_from=source.id)


# -- as text ---------------------------------------------------------------------------------------


def _shown(f: Figure, pct: int) -> str:
    ci = "" if f.ci_low is None else f" ({pct}% interval [{number(f.ci_low)}, {number(f.ci_high)}])"
    return f"{number(f.value)}{ci}"


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{round(100 * x)}%"


def correction_lines(c: Correction) -> list[str]:
    """The corrected figures in plain words first, then the figures behind them: what
    reviewers say of the judge's calls, the rate the run's verdicts would have by their account, the
    judge's raw rate beside it; the method named once, with the page that explains it."""
    pct = round(c.confidence * 100)
    whose = "its own labels" if c.labels_from == c.run else f"the labels of run {c.labels_from}"
    lines = [f"rates of run {c.run} corrected for the judge's mistakes, from {whose} (the Rogan-Gladen "
             "method: docs/doubt.md):"]
    for r in (c.claims, c.answers):
        noun, pos, neg = (("claims", "unsupported", "supported") if r.what == WHAT["claim"]
                          else ("questions", "unanswered", "answered"))
        lines.append(f"  {r.what}: the judge calls {_pct(r.raw.value)} of {r.raw.n} {noun} {pos}")
        if r.called:
            lines.append(f"    of the {noun} the judge calls {pos}, reviewers say about "
                         f"{_pct(r.called_right / r.called)} are ({r.called_right} of {r.called} labelled)")
        if r.positives:
            lines.append(f"    of the {noun} reviewers call {pos}, the judge finds about {_pct(r.sensitivity.value)} "
                         f"({r.positives} labelled)")
        if r.corrected is not None:
            lines.append(f"    so about {_pct(r.corrected.value)} of the run's {noun} are {pos}: corrected "
                         f"{_shown(r.corrected, pct)}, raw {_shown(r.raw, pct)} (items and labels resampled together)")
            lines.append(f"    sensitivity {_shown(r.sensitivity, pct)} on {r.positives} {noun} reviewers call {pos}, "
                         f"specificity {_shown(r.specificity, pct)} on {r.negatives} they call {neg} (Wilson intervals)")
        else:
            lines.append(f"    {r.note}; raw {_shown(r.raw, pct)}")
    return lines


__all__ = ["MIN_PER_CLASS", "CorrectedRate", "Correction", "correct_rate", "correct_run", "correction_from_store",
           "correction_lines",
           "rogan_gladen"]
