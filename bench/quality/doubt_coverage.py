"""How often the corrected-rate interval covers the true rate, at the default 2,000 resamples.

    PYTHONPATH=src python bench/quality/doubt_coverage.py --runs 200

The simulation of ``tests/analysis/test_doubt_simulations.py`` (a scripted judge with sensitivity 0.60 and
specificity 0.85 on runs of 300 items x 5 claims, true rate 0.20, every claim of 80 items labelled
truthfully), run at the resamples sumjudge uses (the test uses 400, to stay fast). Prints how many
runs the corrected and the raw 95% intervals covered the true rate in; docs/doubt.md quotes it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))


def main() -> None:
    import numpy as np
    from test_doubt_simulations import TRUE_RATE, scripted_run

    from sumjudge.analysis.corrected import correct_rate

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=2000)
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    corrected = raw = 0
    started = time.perf_counter()
    for run in range(args.runs):
        counts, labels = scripted_run(rng)
        rate = correct_rate("claim", counts, labels, same_run=True, seed=run, n_resamples=args.resamples)
        assert rate.corrected is not None and rate.corrected.ci_low is not None and rate.raw.ci_low is not None
        corrected += rate.corrected.ci_low <= TRUE_RATE <= rate.corrected.ci_high  # type: ignore[operator]
        raw += rate.raw.ci_low <= TRUE_RATE <= rate.raw.ci_high  # type: ignore[operator]
    print(f"{args.resamples} resamples: the corrected interval covers {TRUE_RATE} in {corrected}/{args.runs} runs, "
          f"the raw one in {raw}/{args.runs} ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
