"""`--gate lower-bound` holds --fail-under against the interval's lower end; `--min-item-score`
against the worst item. Over a real run with the offline judge, then the gate functions alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.errors import ConfigurationError
from sumjudge.runs.gates import Gates, check_gates
from sumjudge.store.database import RunStats


def data(tmp: Path) -> Path:
    rows = []
    for i in range(10):
        source = f"The council of Town{i} approved {100 + i} million dollars. Mayor Lind{i} opened {i + 3} schools."
        summary = source if i % 4 else f"Pirates seized {900 + i} ships near Zanzibar{i}."
        rows.append({"id": f"d{i}", "source": source, "summary": summary})
    path = tmp / "d.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def score(tmp: Path, *args: str):
    res = CliRunner().invoke(main, ["score", str(data(tmp)), "--model", "offline/lexical", "--store",
                                    str(tmp / "runs.db"), *args], catch_exceptions=False)
    return res.exit_code, res.output


def figures(tmp: Path) -> dict:
    res = CliRunner().invoke(main, ["runs", "show", "latest", "--store", str(tmp / "runs.db"), "--json"])
    return json.loads(res.stdout)["stats"]


def test_lower_bound_fails_a_mean_that_only_luck_puts_above_the_bar(tmp_path):
    assert score(tmp_path)[0] == 0
    f = figures(tmp_path)
    low, mean = f["mean_ci_low"], f["mean"]
    assert low < mean
    between = round((low + mean) / 2, 4)
    assert score(tmp_path, "--fail-under", str(between), "--gate", "mean")[0] == 0  # the mean clears it
    code, output = score(tmp_path, "--fail-under", str(between))  # the default: the interval crosses the bar
    assert code == 3 and f"crosses {between:g}" in output and "would decide" in output
    code, output = score(tmp_path, "--fail-under", str(between), "--gate", "lower-bound")
    assert code == 1
    assert f"crosses {between:g}" in output and "counted as fail by --gate lower-bound" in output
    assert score(tmp_path, "--fail-under", str(round(low - 0.01, 4)), "--gate", "lower-bound")[0] == 0


def test_min_item_score_fails_on_the_worst_item(tmp_path):
    assert score(tmp_path)[0] == 0
    worst = figures(tmp_path)["min"]
    code, output = score(tmp_path, "--min-item-score", str(worst + 0.01))
    assert code == 1 and f"the lowest item score, {worst:.3f}, is below --min-item-score" in output
    assert score(tmp_path, "--min-item-score", str(worst))[0] == 0


def test_a_bad_gate_is_a_usage_error(tmp_path):
    code, output = score(tmp_path, "--gate", "median")
    assert code == 2 and "--gate" in output
    with pytest.raises(ConfigurationError, match="--gate takes interval, mean, lower-bound"):
        Gates(gate="median")  # type: ignore[arg-type]


def stats(scores: list[float], errors: int = 0) -> RunStats:
    return RunStats.from_sorted_scores(sorted(scores), mean_alignment=None, mean_coverage=None, tokens=0, calls=0,
                                       errors=errors)


def test_the_gates_alone():
    one = stats([0.9])
    assert check_gates(one, 1, Gates(fail_under=0.5)) == []
    (why,) = check_gates(one, 1, Gates(fail_under=0.5, gate="lower-bound"))
    assert "has no interval" in why  # one item gives no interval: not a pass by default
    steady = stats([0.8] * 6)
    assert check_gates(steady, 6, Gates(fail_under=0.8, gate="lower-bound", min_item_score=0.8)) == []
    mixed = stats([0.2, 0.9, 0.9, 0.9])
    assert check_gates(mixed, 4, Gates(min_item_score=0.3)) == [
        "the lowest item score, 0.200, is below --min-item-score 0.3"]
    # Failed items still count against the run, whatever the interval says.
    assert any("could not be scored" in w for w in check_gates(stats([0.9] * 5, errors=1), 6,
                                                                 Gates(fail_under=0.1, gate="lower-bound")))
