"""The judge against people's labels: precision, recall and F1 of "unsupported", kappa, answer
accuracy, Spearman with ratings, intervals over items, and reviewers against each other."""

from __future__ import annotations

import pytest

from sumjudge.analysis.labels import kappa, measure_label_agreement, render_label_agreement
from sumjudge.analysis.review_queue import review_order
from sumjudge.store.labels import ItemLabel, VerdictLabel


def claim(item: str, index: int, judge_says: bool, correct: bool, reviewer: str = "ann", target: str = "claim") -> VerdictLabel:
    return VerdictLabel("run", item, reviewer, target, index, f"claim {index}", judge_says, correct, 0.0)  # type: ignore[arg-type]


def confusion_labels() -> list[VerdictLabel]:
    """3 TP (judge: unsupported, right), 1 FP (unsupported, wrong), 2 FN (supported, wrong), 4 TN, over 5 items."""
    kinds = [(False, True)] * 3 + [(False, False)] + [(True, False)] * 2 + [(True, True)] * 4
    return [claim(f"doc-{n % 5}", n, says, ok) for n, (says, ok) in enumerate(kinds)]


def test_the_figures_match_the_hand_count():
    scores = {f"doc-{i}": i / 5 for i in range(5)}
    r = measure_label_agreement("run", confusion_labels(), [], scores)
    assert r.precision.value == pytest.approx(3 / 4)
    assert r.recall.value == pytest.approx(3 / 5)
    assert r.f1.value == pytest.approx(2 * 3 / (2 * 3 + 1 + 2))
    # judge flags 4/10, people 5/10; observed agreement 7/10, chance 0.5 -> kappa 0.4
    assert r.kappa.value == pytest.approx(0.4)
    assert (r.claims, r.items, r.precision.n, r.recall.n) == (10, 5, 10, 10)
    for f in (r.precision, r.recall, r.f1, r.kappa):
        assert f.ci_low is not None and f.ci_low <= f.value <= f.ci_high
    assert r.answer_accuracy.value is None and r.spearman.value is None and r.pairs == []


def test_answer_accuracy_and_spearman_with_ratings():
    scores = {"a": 0.1, "b": 0.4, "c": 0.6, "d": 0.9}
    answers = [claim(i, 0, True, ok, target="answer") for i, ok in zip(scores, (True, True, False, True))]
    ratings = [ItemLabel("run", i, "ann", r, "", 0.0) for i, r in zip(scores, (1, 2, 4, 5))]
    r = measure_label_agreement("run", answers, ratings, scores)
    assert r.answer_accuracy.value == pytest.approx(0.75) and r.answer_accuracy.n == 4
    assert r.spearman.value == pytest.approx(1.0) and r.ratings == 4
    assert r.claims == 0 and r.precision.value is None


def test_labels_of_failed_items_are_left_out():
    r = measure_label_agreement("run", [claim("gone", 0, False, True)], [], {"doc-1": 0.5})
    assert r.claims == 0 and r.items == 0


def test_two_reviewers_agree_with_each_other_beside_the_judge():
    labels = []
    for n in range(8):
        item = f"doc-{n % 4}"
        labels.append(claim(item, n, judge_says=n % 2 == 0, correct=n < 6, reviewer="ann"))
        labels.append(claim(item, n, judge_says=n % 2 == 0, correct=n < 6, reviewer="bob"))  # same views
    labels.append(claim("doc-0", 99, True, True, reviewer="ann"))  # ann only: not shared
    r = measure_label_agreement("run", labels, [], {f"doc-{i}": 0.5 for i in range(4)})
    assert r.reviewers == ["ann", "bob"]
    (pair,) = r.pairs
    assert (pair.a, pair.b, pair.shared) == ("ann", "bob", 8)
    assert pair.kappa.value == pytest.approx(1.0)
    assert pair.judge_kappa_a.value == pytest.approx(pair.judge_kappa_b.value)
    assert pair.judge_kappa_a.value < 1.0  # the judge was wrong on two of the eight
    text = render_label_agreement(r)
    assert "kappa, ann vs bob" in text and "kappa, judge vs ann" in text


def test_the_same_labels_give_the_same_intervals():
    scores = {f"doc-{i}": i / 5 for i in range(5)}
    assert measure_label_agreement("run", confusion_labels(), [], scores) == measure_label_agreement(
        "run", list(reversed(confusion_labels())), [], scores)


def test_kappa_edge_cases():
    assert kappa([]) is None
    assert kappa([(True, True), (True, True)]) is None  # chance agreement is total
    assert kappa([(True, False), (False, True)]) == pytest.approx(-1.0)


def test_review_order_puts_spread_then_the_gate_first_then_a_seeded_shuffle():
    items = [(f"doc-{i}", s, None) for i, s in enumerate((0.9, 0.52, 0.1, 0.3, 0.8, 0.7, 0.0))]
    items += [("sampled", 0.95, 0.4), ("failed", None, None)]
    order = review_order(items, gate=0.5)
    assert order[:2] == ["sampled", "doc-1"]
    assert sorted(order) == sorted(i for i, s, _ in items if s is not None)  # failed items have nothing to label
    assert order == review_order(list(reversed(items)), gate=0.5)  # input order does not matter
    shuffles = {tuple(review_order(items, gate=0.5, seed=s)[2:]) for s in range(5)}
    assert len(shuffles) > 1  # the rest really is shuffled, by the seed


def test_the_vectorised_spearman_resample_is_spearman_of_the_items_drawn():
    """Each resample's rho (weighted ranks) equals scipy's rho on the expanded sample of the items drawn."""
    import numpy as np
    from scipy.stats import spearmanr

    from sumjudge.analysis.labels import _rho, spearman

    rng = np.random.default_rng(3)
    xs = rng.choice([0.1, 0.5, 0.5, 0.9, 0.3], size=12)
    ys = rng.integers(1, 6, size=12)
    w = rng.integers(0, 3, size=(4, 12)).astype(float)
    rho = _rho(w, xs, ys)
    for r in range(4):
        n = w[r].astype(int)
        assert rho[r] == pytest.approx(spearmanr(np.repeat(xs, n), np.repeat(ys, n)).statistic)
    assert spearman(list(zip(xs, ys))) == pytest.approx(spearmanr(xs, ys).statistic)
    assert spearman([(0.1, 1), (0.2, 1), (0.3, 1)]) is None  # a constant side


def test_bootstrap_totals_resamples_whole_items_and_is_seeded():
    import numpy as np

    from sumjudge.figures.stats import bootstrap_totals, resample_weights

    w = resample_weights(np.random.default_rng(1), 7, 50)
    assert w.shape == (50, 7) and (w.sum(axis=1) == 7).all()  # each resample draws 7 items
    units = [[1, 1], [0, 1], [1, 1], [1, 1], [0, 1], [1, 1], [1, 1], [0, 1]]  # correct of total, per item
    share = lambda t: t[:, 0] / t[:, 1]  # noqa: E731
    ci = bootstrap_totals(units, share, seed=5)
    assert ci is not None and ci[0] < 5 / 8 < ci[1] and 0 <= ci[0] and ci[1] <= 1
    assert bootstrap_totals(units, share, seed=5) == ci
    assert bootstrap_totals(units[:1], share) is None  # one item says nothing about spread
