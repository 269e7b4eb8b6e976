"""Intervals and paired tests: seeded, order-free, and sane on tiny or constant data."""

from __future__ import annotations

import random

import pytest

from sumjudge.figures.stats import (
    BCA_MAX_N,
    mean_interval,
    paired_comparison,
    signed_rank_test,
    verdict,
    win_tie_loss,
)


def scores(n: int, seed: int = 1) -> list[float]:
    r = random.Random(seed)
    return [round(r.random(), 2) for _ in range(n)]


def test_the_interval_holds_the_mean_and_is_reproducible_whatever_the_item_order():
    xs = scores(80)
    first = mean_interval(xs)
    assert first.ci_low < first.mean < first.ci_high
    assert first.method == "BCa"
    shuffled = list(xs)
    random.Random(7).shuffle(shuffled)
    assert mean_interval(shuffled) == first  # same items, same interval
    assert mean_interval(xs, seed=1) != first  # the seed is what makes it repeatable


def test_the_interval_narrows_as_items_grow_and_covers_the_true_mean():
    small = mean_interval(scores(20))
    big = mean_interval(scores(2000))
    assert (big.ci_high - big.ci_low) < (small.ci_high - small.ci_low) / 5
    # Uniform[0, 1) scores: the true mean 0.5 lies inside a 95% interval on 2,000 items.
    assert big.ci_low < 0.5 < big.ci_high


def test_large_runs_use_the_percentile_interval():
    est = mean_interval(scores(BCA_MAX_N + 1))
    assert est.method == "percentile"
    assert est.ci_low < est.mean < est.ci_high


def test_tiny_and_constant_samples_do_not_crash():
    none = mean_interval([])
    assert (none.n, none.mean, none.ci_low, none.ci_high) == (0, None, None, None)
    one = mean_interval([0.4])
    assert (one.mean, one.ci_low, one.ci_high, one.method) == (0.4, None, None, "none")
    same = mean_interval([0.7] * 12)
    assert (same.ci_low, same.ci_high, same.method) == (pytest.approx(0.7), pytest.approx(0.7), "constant")
    two = mean_interval([0.0, 1.0])
    assert two.ci_low <= 0.5 <= two.ci_high


def test_missing_or_non_finite_values_are_refused():
    with pytest.raises(ValueError, match="missing"):
        mean_interval([0.5, None])
    with pytest.raises(ValueError, match="finite"):
        mean_interval([0.5, float("nan")])


def test_wins_ties_losses_count_b_against_a():
    assert win_tie_loss([0.5, 0.5, 0.5, 0.2], [0.7, 0.5, 0.1, 0.2 + 1e-12]) == (1, 2, 1)


def test_a_clear_improvement_is_better_and_its_reverse_worse():
    a = scores(60)
    b = [min(1.0, x + 0.15) for x in a]
    up = paired_comparison(a, b)
    assert up.diff > 0 and up.ci_low > 0 and up.p_value < 0.001
    assert (up.wins, up.losses) == (60 - up.ties, 0)
    assert verdict(up, 0.05) == "better"
    down = paired_comparison(b, a)
    assert down.diff == pytest.approx(-up.diff) and down.ci_high < 0
    assert verdict(down, 0.05) == "worse"


def test_noise_around_no_change_is_no_difference():
    r = random.Random(3)
    a = scores(60)
    b = [x + r.choice([-0.1, 0.1]) for x in a]
    res = paired_comparison(a, b)
    assert res.ci_low < 0 < res.ci_high
    assert res.p_value > 0.05
    assert verdict(res, 0.05) == "no difference"


def test_identical_runs_and_degenerate_pairs():
    same = paired_comparison([0.2, 0.5, 0.9], [0.2, 0.5, 0.9])
    assert (same.diff, same.ci_low, same.ci_high, same.p_value, same.ties) == (0.0, 0.0, 0.0, 1.0, 3)
    assert verdict(same, 0.05) == "no difference"
    empty = paired_comparison([], [])
    assert (empty.n_pairs, empty.diff, empty.p_value) == (0, None, None)
    assert verdict(empty, 0.05) == "no difference"
    one = paired_comparison([0.1], [0.9])
    assert one.diff == pytest.approx(0.8) and one.ci_low is None
    assert verdict(one, 0.05) == "no difference"  # one pair cannot be significant
    with pytest.raises(ValueError, match="same length"):
        paired_comparison([0.1, 0.2], [0.3])
    with pytest.raises(ValueError, match="alpha"):
        verdict(one, 0)


def test_the_signed_rank_test_drops_zero_differences_and_says_which_way():
    p, direction = signed_rank_test([0.0] * 50 + [0.1] * 12)
    assert p < 0.01 and direction == "higher"
    assert signed_rank_test([0.0, 0.0]) == (1.0, "same")
    assert signed_rank_test([]) == (None, "same")
    assert signed_rank_test([-0.2, -0.1, -0.3, -0.4, -0.2, -0.1, -0.5, 0.05])[1] == "lower"


def test_the_exact_signed_rank_p_value_matches_scipy_with_and_without_ties():
    from scipy.stats import wilcoxon

    r = random.Random(0)
    for _ in range(5):
        d = [r.gauss(0.2, 1) for _ in range(r.randint(3, 25))]
        assert signed_rank_test(d)[0] == pytest.approx(wilcoxon(d, method="exact").pvalue)
    # With ties scipy enumerates every sign permutation (n <= 13); so does the exact method here.
    tied = [0.1, 0.1, -0.2, 0.3, 0.3, 0.3, -0.1, 0.2, 0.2, 0.4]
    assert signed_rank_test(tied)[0] == pytest.approx(wilcoxon(tied).pvalue)
    assert signed_rank_test([0.05] * 9 + [-0.05] * 3)[0] == pytest.approx(0.14599609375)
