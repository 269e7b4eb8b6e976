"""The doubt figures checked as statistics are checked: by simulation, seeded, with known truth.

- Corrected rates: a scripted judge with known miss and false-alarm rates calls claims of simulated
  runs, people label some of them truthfully; the Rogan-Gladen interval must cover the true rate in
  at least 90% of 200 runs, where the raw interval (the judge's own share) visibly does not.
- Gates: simulated runs with a known true mean, held to a bar by :func:`sumjudge.figures.decide.decide` on
  the mean's interval: a run whose true mean is below the bar must not pass more often than the
  level allows, and inconclusive comes at the rate the interval's width implies.
"""

from __future__ import annotations

import math

import numpy as np

from sumjudge.analysis.corrected import correct_rate, rogan_gladen
from sumjudge.figures.decide import decide, items_needed, minimum_detectable, z_quantile
from sumjudge.store.labels import VerdictLabel

TRUE_RATE = 0.20  # the share of claims that are truly unsupported
SE, SP = 0.60, 0.85  # the scripted judge catches 60% of unsupported claims, clears 85% of supported ones
ITEMS, CLAIMS, LABELLED = 300, 5, 80  # 1,500 claims a run; people label every claim of 80 items (400 labels)
RUNS = 200


def scripted_run(rng: np.random.Generator) -> tuple[dict[str, tuple[int, int]], list[VerdictLabel]]:
    """One simulated run: the judge's calls per item, and people's (truthful) labels on the first items."""
    truth = rng.random((ITEMS, CLAIMS)) < TRUE_RATE
    caught = rng.random((ITEMS, CLAIMS)) < SE
    false_alarm = rng.random((ITEMS, CLAIMS)) > SP
    judge_unsupported = np.where(truth, caught, false_alarm)
    counts = {f"i{i:03d}": (int(judge_unsupported[i].sum()), CLAIMS) for i in range(ITEMS)}
    labels = [
        VerdictLabel(run_id="r", item_id=f"i{i:03d}", reviewer="ann", target="claim", index=k, text="c",
                     judge_says=not bool(judge_unsupported[i, k]),
                     correct=bool(judge_unsupported[i, k]) == bool(truth[i, k]), labelled_at=0.0)
        for i in range(LABELLED) for k in range(CLAIMS)
    ]
    return counts, labels


def test_rogan_gladen_inverts_the_judge_errors_exactly():
    raw = TRUE_RATE * SE + (1 - TRUE_RATE) * (1 - SP)  # what the judge reports on average: 0.24
    assert abs(float(rogan_gladen(raw, SE, SP)) - TRUE_RATE) < 1e-12
    assert math.isnan(float(rogan_gladen(0.3, 0.5, 0.5)))  # a coin: nothing to invert
    assert float(rogan_gladen(0.01, 0.9, 0.9)) == 0.0  # clipped into [0, 1]


def test_the_corrected_interval_covers_the_true_rate_and_the_raw_one_does_not():
    rng = np.random.default_rng(7)
    corrected_hits = raw_hits = 0
    for run in range(RUNS):
        counts, labels = scripted_run(rng)
        rate = correct_rate("claim", counts, labels, same_run=True, seed=run, n_resamples=400)
        assert rate.corrected is not None, rate.note
        c, r = rate.corrected, rate.raw
        corrected_hits += c.ci_low <= TRUE_RATE <= c.ci_high
        raw_hits += r.ci_low <= TRUE_RATE <= r.ci_high
    print(f"corrected covers {corrected_hits}/{RUNS}, raw {raw_hits}/{RUNS}")
    assert corrected_hits / RUNS >= 0.90, corrected_hits
    assert raw_hits / RUNS <= 0.25, raw_hits  # the judge's own share sits near 0.24, its interval +-0.02


def test_labels_from_another_run_correct_it_too_with_independent_draws():
    rng = np.random.default_rng(11)
    hits = 0
    for run in range(60):
        counts, _ = scripted_run(rng)
        _, labels = scripted_run(rng)  # labels of another run of the same judge on data of the same kind
        rate = correct_rate("claim", counts, labels, same_run=False, seed=run, n_resamples=400)
        assert rate.corrected is not None
        hits += rate.corrected.ci_low <= TRUE_RATE <= rate.corrected.ci_high
    assert hits / 60 >= 0.85, hits


def test_too_few_labels_is_a_plain_line_never_a_number():
    rng = np.random.default_rng(3)
    counts, labels = scripted_run(rng)
    rate = correct_rate("claim", counts, labels[:60], same_run=True, n_resamples=200)  # ~12 unsupported
    assert rate.corrected is None
    assert rate.note is not None and "too few labels" in rate.note and "30 of each are needed" in rate.note
    assert rate.raw.value is not None  # the raw figure still stands, marked as raw


# -- gates on simulated runs with a known true mean -------------------------------------------------

BAR, N, SD = 0.70, 60, 0.20


def _run_interval(rng: np.random.Generator, true_mean: float) -> tuple[float, tuple[float, float]]:
    """A run of N item scores with a known true mean, and its 95% interval (the normal interval:
    what the bootstrap the gates read approximates; fast enough for hundreds of runs)."""
    xs = rng.normal(true_mean, SD, N)  # unclipped: the true mean and spread stay exactly as set
    m, s = float(xs.mean()), float(xs.std(ddof=1))
    half = z_quantile(0.975) * s / math.sqrt(N)
    return m, (m - half, m + half)


def _outcomes(true_mean: float, seed: int, runs: int = 400) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    seen = {"pass": 0, "fail": 0, "inconclusive": 0}
    for _ in range(runs):
        m, ci = _run_interval(rng, true_mean)
        seen[decide("--fail-under", "mean score", m, ci, BAR, n=N).outcome] += 1
    return {k: v / runs for k, v in seen.items()}


def test_a_run_truly_below_the_bar_never_passes_beyond_the_level():
    for true_mean in (0.69, 0.68, 0.65):
        seen = _outcomes(true_mean, seed=int(true_mean * 100))
        assert seen["pass"] <= 0.025 + 0.02, (true_mean, seen)  # one-sided 2.5%, with simulation slack


def test_the_mean_gate_passes_on_noise_where_the_interval_gate_abstains():
    rng = np.random.default_rng(5)
    wrong = 0
    for _ in range(400):
        m, _ = _run_interval(rng, 0.69)  # truly below the bar
        wrong += m >= BAR  # the two-outcome gate on the mean alone
    assert wrong / 400 > 0.2  # it passes a run below the bar about a third of the time


def test_inconclusive_comes_at_the_rate_the_interval_implies():
    for true_mean in (0.70, 0.74, 0.78):
        seen = _outcomes(true_mean, seed=int(true_mean * 1000))
        # P(pass) = P(mean - z s / sqrt(n) >= bar) = Phi(delta sqrt(n) / sd - z); fail is negligible above the bar
        expected_pass = 1 - _phi(z_quantile(0.975) - (true_mean - BAR) * math.sqrt(N) / SD)
        expected_inconclusive = 1 - expected_pass - (0.025 if true_mean == BAR else 0.0)
        assert abs(seen["inconclusive"] - expected_inconclusive) < 0.08, (true_mean, seen, expected_inconclusive)


def _phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def test_items_needed_and_the_minimum_detectable_difference_agree_with_each_other():
    n = items_needed(0.2, 0.05)  # ((1.96 + 0.84) * 0.2 / 0.05)^2 = 125.6
    assert n == 126
    mdd = minimum_detectable(0.2, n)
    assert mdd is not None and 0.05 < mdd < 0.052  # Student quantiles: a hair above the normal's 0.05
    # and the rate an mdd-sized difference is detected at is 80%, by simulation of the paired t-test
    rng = np.random.default_rng(9)
    from scipy.stats import ttest_1samp

    draws = rng.normal(mdd, 0.2, (400, n))
    detected = int((ttest_1samp(draws, 0, axis=1).pvalue < 0.05).sum())
    assert abs(detected / 400 - 0.80) < 0.06


def test_the_bootstrap_interval_the_gates_read_keeps_the_level_too():
    """The same checks on the interval ``--fail-under`` really reads (the BCa bootstrap over items),
    on skewed item scores (Beta(7, 3): mean 0.70, sd 0.14), fewer resamples to stay fast."""
    from sumjudge.figures.stats import mean_interval

    rng = np.random.default_rng(21)
    at_bar = {"pass": 0, "fail": 0, "inconclusive": 0}
    wrong_pass = 0
    runs = 150
    for _ in range(runs):
        est = mean_interval(list(rng.beta(7, 3, 60)), n_resamples=999)
        ci = (est.ci_low, est.ci_high)
        at_bar[decide("--fail-under", "mean score", est.mean, ci, 0.70, n=60).outcome] += 1  # truly at the bar
        wrong_pass += decide("--fail-under", "mean score", est.mean, ci, 0.72, n=60).outcome == "pass"  # below it
    assert at_bar["inconclusive"] / runs >= 0.88, at_bar  # about 95%: each side's error about 2.5%
    assert at_bar["pass"] / runs <= 0.06 and at_bar["fail"] / runs <= 0.06, at_bar
    assert wrong_pass / runs <= 0.03, wrong_pass
