"""How ``calibrate`` chooses what it writes: thresholds near the judge's own, parameters only where
cross-validation keeps them, folds that keep one source's summaries together."""

from __future__ import annotations

import numpy as np

from sumjudge.analysis.calibration_fit import (
    REACH, LightItem, Params, choose, fit_params, folds_of, judge_threshold, share,
)


def _item(n: int, p: float, group: str = "") -> LightItem:
    """One claim of probability ``p`` (supported at the judge's 0.5) and one firmly answered question."""
    return LightItem(f"i{n}", ((p, False, p >= 0.5, False),), ((0.9, False, True),), 1, group)


def test_the_judge_s_own_threshold_is_read_from_its_decisions() -> None:
    decisions = [(p, p >= 0.6) for p in (0.1, 0.3, 0.55, 0.58, 0.62, 0.7, 0.95)]
    assert judge_threshold(decisions) == 0.6
    assert judge_threshold([(None, True)]) == 0.5  # nothing to read: the usual 0.5


def test_a_fitted_threshold_stays_within_reach_of_the_judge_s_own() -> None:
    # the team fails every summary whose claim is under 0.93: only a threshold of 0.95 separates them,
    # but claims this sure differ more between sources than between faithful and wrong claims
    probs = [0.2, 0.4, 0.55, 0.6, 0.7, 0.8, 0.85, 0.9, 0.96, 0.97, 0.98, 0.99] * 3
    items = [_item(n, p) for n, p in enumerate(probs)]
    truth = np.array([p > 0.93 for p in probs])
    params = fit_params(items, truth, "probabilities", False)
    assert params.claim_threshold is not None
    assert params.claim_threshold <= 0.5 + REACH + 1e-9
    assert params.claim_threshold >= 0.65  # it still moves as far as it may, towards the labels


def test_parameters_the_labels_cannot_tell_from_the_bound_alone_are_not_written() -> None:
    # labels that follow the claim's probability at 0.7 in every source: the threshold is kept
    rng = np.random.default_rng(3)
    probs = rng.uniform(0.3, 1.0, 60)
    items = [_item(n, float(p), f"source{n % 12}") for n, p in enumerate(probs)]
    truth = probs >= 0.7
    params, bound = choose(items, truth, "probabilities", False)
    assert params.claim_threshold == 0.7
    assert all((share(i, params) >= bound) == t for i, t in zip(items, truth))
    # labels that have nothing to do with the probabilities: the judge's decisions are left as they are
    noise = rng.uniform(size=60) < 0.5
    params, _ = choose(items, noise, "probabilities", False)
    assert params == Params()


def test_folds_keep_the_summaries_of_one_source_together() -> None:
    items = [_item(n, 0.5, f"source{n % 7}") for n in range(35)]
    truth = np.array([n % 2 == 0 for n in range(35)])
    fold = folds_of(items, truth, 5)
    for g in range(7):
        assert len({int(fold[n]) for n in range(35) if n % 7 == g}) == 1
    assert len(set(fold.tolist())) == 5
    # too few sources for five folds: the items are dealt one by one, each fold with both labels
    few = [_item(n, 0.5, f"source{n % 3}") for n in range(30)]
    fold = folds_of(few, np.array([n % 2 == 0 for n in range(30)]), 5)
    assert all({n % 2 for n in range(30) if fold[n] == f} == {0, 1} for f in range(5))
