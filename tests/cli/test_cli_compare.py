"""`sumjudge compare A B` end to end: runs scored by the offline judge, compared from the store and
from --out files; verdicts, --json, --fail-if-worse, --report, and the exit-2 errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sumjudge.cli import main

N = 12


def sources() -> list[str]:
    return [
        f"The council of Town{i} approved a budget of {100 + i} million dollars on Monday. "
        f"Mayor Lindqvist{i} said the money pays for {i + 3} new schools. Work starts in March."
        for i in range(N)
    ]


def write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def faithful(tmp: Path) -> Path:
    return write(tmp / "faithful.jsonl", [{"id": f"doc-{i}", "source": s, "summary": s.split(". ")[0] + "."}
                                          for i, s in enumerate(sources())])


def invented(tmp: Path) -> Path:
    return write(tmp / "invented.jsonl", [
        {"id": f"doc-{i}", "source": s, "summary": f"Pirates seized {900 + i} ships near Zanzibar{i}."}
        for i, s in enumerate(sources())
    ])


def run(tmp: Path, *args: str):
    return CliRunner().invoke(main, [*args, "--store", str(tmp / "runs.db")], catch_exceptions=False)


def scored(tmp: Path, data: Path, *extra: str) -> tuple[str, Path]:
    out = tmp / (data.stem + "".join(extra).replace("-", "") + ".out.jsonl")
    res = run(tmp, "score", str(data), "--out", str(out), "--quiet", "--model", "offline/lexical", *extra)
    assert res.exit_code == 0, res.output
    listed = run(tmp, "runs", "list", "--json")
    return json.loads(listed.stdout.splitlines()[0])["id"], out


def test_a_worse_run_is_worse_and_fails_ci_with_fail_if_worse(tmp_path):
    good, good_out = scored(tmp_path, faithful(tmp_path))
    bad, bad_out = scored(tmp_path, invented(tmp_path))
    res = run(tmp_path, "compare", good, bad)
    assert res.exit_code == 0, res.output
    assert f"A: {good}" in res.stdout and f"{N} paired items" in res.stdout
    score_line = next(line for line in res.stdout.splitlines() if line.startswith("score"))
    assert score_line.endswith("worse")
    assert f"0/0/{N}" in score_line  # every item lost
    assert "moved most:" in res.stdout
    assert run(tmp_path, "compare", good, bad, "--fail-if-worse").exit_code == 1
    # a margin as wide as the scale could never fail: refused, not taken silently
    wide = run(tmp_path, "compare", good, bad, "--fail-if-worse", "--margin", "2")
    assert wide.exit_code == 2 and "--margin 2" in wide.output and "could never fail" in wide.output
    # The other way round B is better, which --fail-if-worse lets through.
    assert run(tmp_path, "compare", bad, good, "--fail-if-worse").exit_code == 0
    # From the --out files, the same figures.
    from_files = run(tmp_path, "compare", str(good_out), str(bad_out), "--json")
    from_store = run(tmp_path, "compare", good, bad, "--json")
    f, s = json.loads(from_files.stdout), json.loads(from_store.stdout)
    assert (f["verdict"], f["n_pairs"], f["diff"], f["ci_low"], f["p_value"]) == (
        s["verdict"], s["n_pairs"], s["diff"], s["ci_low"], s["p_value"])
    assert s["verdict"] == "worse" and s["losses"] == N and s["sources_checked"] == N
    assert s["alignment"]["verdict"] == "worse" and s["a"] == good and f["a"] == str(good_out)


def test_alpha_and_the_report(tmp_path):
    good, _ = scored(tmp_path, faithful(tmp_path))
    bad, _ = scored(tmp_path, invented(tmp_path))
    page = tmp_path / "cmp" / "compare.html"
    res = run(tmp_path, "compare", good, bad, "--report", str(page))
    assert res.exit_code == 0 and f"comparison page written to {page}" in res.stdout
    html = page.read_text(encoding="utf-8")
    assert html.count('class="pt"') == N and "B is worse than A" in html
    # 12 pairs all one way: exact p = 2 / 2**12 = 0.00049, not below 0.0001.
    # not significant, and the interval is far from inside +-0: inconclusive (it was "no difference")
    assert json.loads(run(tmp_path, "compare", good, bad, "--json", "--alpha", "0.0001").stdout)["verdict"] == "inconclusive"
    assert run(tmp_path, "compare", good, bad, "--alpha", "1").exit_code == 2


def test_runs_over_different_sources_are_refused_naming_the_item(tmp_path):
    good, _ = scored(tmp_path, faithful(tmp_path))
    rows = [{"id": f"doc-{i}", "source": s, "summary": "A summary."} for i, s in enumerate(sources())]
    rows[4]["source"] = "Another article altogether."
    other, _ = scored(tmp_path, write(tmp_path / "other.jsonl", rows))
    res = run(tmp_path, "compare", good, other)
    assert res.exit_code == 2
    assert "item 'doc-4' has a different source" in res.output


def test_runs_over_unrelated_data_and_different_scorers_and_empty_runs_are_refused(tmp_path):
    good, good_out = scored(tmp_path, faithful(tmp_path))
    unrelated, _ = scored(tmp_path, write(tmp_path / "u.jsonl", [{"id": f"x{i}", "source": "S.", "summary": "S."}
                                                              for i in range(3)]))
    res = run(tmp_path, "compare", good, unrelated)
    assert res.exit_code == 2 and "share no item id" in res.output and "'x0'" in res.output
    fewer, _ = scored(tmp_path, faithful(tmp_path), "--max-questions", "3")
    res = run(tmp_path, "compare", good, fewer)
    assert res.exit_code == 2 and "max_questions: A 10, B 3" in res.output
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    res = run(tmp_path, "compare", str(good_out), str(empty))
    assert res.exit_code == 2 and "run B (" in res.output and "has no items" in res.output
    res = run(tmp_path, "compare", good, "no-such-run")
    assert res.exit_code == 2 and "no run 'no-such-run'" in res.output


def test_without_a_store_a_missing_file_is_named(tmp_path):
    res = CliRunner().invoke(main, ["compare", "a.jsonl", "b.jsonl", "--store", str(tmp_path / "none.db")])
    assert res.exit_code == 2
    assert "A: 'a.jsonl' is not a file, and there is no run store" in res.output


def test_result_lines_with_figures_out_of_range_or_not_numbers_are_refused_in_one_line(tmp_path):
    _, a = scored(tmp_path, faithful(tmp_path))
    lines = [json.loads(x) for x in a.read_text(encoding="utf-8").splitlines()]
    for name, value, says in (("coverage_score", 1e308, "outside 0 to 1"), ("score", 5.0, "outside 0 to 1 (the scale)"),
                              ("score", True, "not a number"), ("score", "0.9", "not a number"),
                              ("alignment_score", -0.5, "outside 0 to 1")):
        bad = write(tmp_path / "bad.jsonl", [{**lines[0], name: value}, *lines[1:]])
        res = CliRunner().invoke(main, ["compare", str(a), str(bad), "--store", str(tmp_path / "runs.db")])
        assert res.exit_code == 2 and says in res.output and "Traceback" not in res.output, (name, value, res.output)
        assert len(res.output.strip().splitlines()) == 1, res.output
    scaled = write(tmp_path / "scaled.jsonl", [{**x, "score": x["score"] * 5, "options": {**x["options"], "scale": 5}}
                                               for x in lines])
    res = CliRunner().invoke(main, ["compare", str(scaled), str(scaled), "--store", str(tmp_path / "runs.db")])
    assert res.exit_code == 0, res.output


def test_a_figure_of_401_digits_is_refused_in_one_line_not_a_traceback(tmp_path):
    _, a = scored(tmp_path, faithful(tmp_path))
    lines = [json.loads(x) for x in a.read_text(encoding="utf-8").splitlines()]
    huge = int("9" * 401)
    for bad_line, says in (({**lines[0], "score": huge}, "score is an integer of 401 digits"),
                           ({**lines[0], "coverage_score": huge}, "coverage_score is an integer of 401 digits"),
                           ({**lines[0], "options": {**lines[0]["options"], "scale": huge}},
                            "options.scale is an integer of 401 digits")):
        bad = write(tmp_path / "bad.jsonl", [bad_line, *lines[1:]])
        res = CliRunner().invoke(main, ["compare", str(a), str(bad), "--store", str(tmp_path / "runs.db")])
        assert res.exit_code == 2 and says in res.output and "Traceback" not in res.output, res.output
        assert len(res.output.strip().splitlines()) == 1, res.output
