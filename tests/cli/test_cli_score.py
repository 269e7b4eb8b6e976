"""`sumjudge score` over real HTTP against the simulated judge server: inputs, outputs, exit codes,
failures, 429 storms, the cache, and `sumjudge runs`."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.testing.judge_server import Fault, JudgeServer, SummarizationBrain

pytestmark = pytest.mark.integration

MODEL = "openai/test-model"


def rows(n: int) -> list[dict]:
    return [
        {"id": f"doc-{i}", "source": f"Source {i}: the council approved {i} homes.", "summary": f"Summary {i}."}
        for i in range(1, n + 1)
    ]


def write_jsonl(path: Path, items: list) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in items), encoding="utf-8")
    return path


def score(tmp_path: Path, *args: str, input: str | None = None):
    runner = CliRunner()
    return runner.invoke(
        main, ["score", *args, "--store", str(tmp_path / "runs.db")], input=input, catch_exceptions=False
    )


def out_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# -- bad input: exit 2, naming the row and field, before any judge call ----------------------------


@pytest.mark.parametrize(
    ("content", "suffix", "expected"),
    [
        ('{"source": "s", "summary": "a"}\n{"source": "s"}\n', ".jsonl", "row 2: missing field 'summary'"),
        ('{"source": "s", "summary": "a"}\n{"source": "s", "summary": 42}\n', ".jsonl",
         "row 2: field 'summary' must be a string, got a number"),
        ('{"source": "s", "summary": "a"}\n{"source": "s", "summary": "b"\n', ".jsonl", "row 2: not valid JSON"),
        ('{"source": "s", "summary": "a"}\n\n{"source": null, "summary": "b"}\n', ".jsonl",
         "row 2 (line 3): field 'source' must be a string, got null"),
        ('[{"source": "s", "summary": "a"}, ["s", "a"]]', ".json", "row 2: expected an object with fields, got a list"),
        ("source,summary\ns,a\ns\n", ".csv", "row 2: missing field 'summary'"),
        ('{"id": "x", "source": "s", "summary": "a"}\n{"id": "x", "source": "t", "summary": "b"}\n', ".jsonl",
         "row 2: duplicate id 'x'"),
    ],
)
def test_bad_rows_exit_2_naming_row_and_field_before_any_call(tmp_path, server, content, suffix, expected):
    data = tmp_path / f"data{suffix}"
    # Good rows first: the bad one comes late, and still nothing is judged.
    data.write_text(content, encoding="utf-8")
    result = score(tmp_path, str(data), "--model", MODEL, "--out", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2, result.output
    assert expected in result.stderr
    assert server.chat_calls == 0
    assert not (tmp_path / "out.jsonl").exists()


def test_usage_errors_exit_2(tmp_path, server):
    data = write_jsonl(tmp_path / "d.jsonl", rows(2))
    assert score(tmp_path, str(tmp_path / "missing.jsonl")).exit_code == 2
    assert score(tmp_path, str(data), "--max-questions", "0").exit_code == 2
    bad_model = score(tmp_path, str(data), "--model", "nosuch/model")
    assert bad_model.exit_code == 2 and "unknown provider 'nosuch'" in bad_model.stderr
    odd = tmp_path / "d.txt"
    odd.write_text("x")
    assert "--format" in score(tmp_path, str(odd)).stderr
    assert server.chat_calls == 0


# -- a good run ------------------------------------------------------------------------------------


def test_a_run_writes_one_line_per_item_with_scores_verdicts_and_usage(tmp_path, server):
    server.brain = SummarizationBrain(claims=3, unsupported=1, questions=4, unanswered=0)
    data = write_jsonl(tmp_path / "d.jsonl", rows(6))
    out = tmp_path / "out.jsonl"
    result = score(tmp_path, str(data), "--model", MODEL, "--out", str(out), "--concurrency", "3")
    assert result.exit_code == 0, result.stderr
    lines = out_lines(out)
    assert sorted(line["id"] for line in lines) == [f"doc-{i}" for i in range(1, 7)]
    first = lines[0]
    assert set(first) == {"id", "score", "alignment_score", "coverage_score", "reason", "verdicts", "usage", "error",
                          "source_sha256", "judge", "options"}
    assert first["judge"] == MODEL and first["options"]["max_questions"] == 10
    source = next(r["source"] for r in rows(6) if r["id"] == first["id"])
    assert first["source_sha256"] == hashlib.sha256(source.encode()).hexdigest()  # what `compare` checks
    assert first["score"] == 0.67 and first["alignment_score"] == pytest.approx(2 / 3)
    assert first["coverage_score"] == 1.0 and first["error"] is None
    assert [c["supported"] for c in first["verdicts"]["alignment"]] == [False, True, True]
    assert len(first["verdicts"]["questions"]) == 4 and len(first["verdicts"]["coverage"]) == 4
    assert first["usage"]["calls"] == 3 and first["usage"]["total_tokens"] > 0
    assert server.chat_calls == 6 * 3
    # The end table is on standard error; standard output stays clean.
    assert "mean" in result.stderr and "0.670" in result.stderr and "p10" in result.stderr
    assert result.stdout == ""
    # Not a terminal: no live progress in the log, only the end table.
    assert "items/s" not in result.stderr


def test_fail_under_exits_1_when_the_mean_is_below(tmp_path, server):
    server.brain = SummarizationBrain(claims=2, unsupported=1)  # every score 0.5
    data = write_jsonl(tmp_path / "d.jsonl", rows(3))
    below = score(tmp_path, str(data), "--model", MODEL, "--fail-under", "0.6", "--quiet")
    assert below.exit_code == 1
    # --quiet: no progress or table, but a failing exit code says why
    # every score 0.5: the interval is [0.5, 0.5], wholly below the bar (a fail, not inconclusive)
    assert below.stderr == "sumjudge: gate failed: mean score 0.5, 95% interval [0.5, 0.5] < 0.6\n"
    calls = server.chat_calls
    # The same command again resumes the finished run: same verdict, no new calls.
    assert score(tmp_path, str(data), "--model", MODEL, "--fail-under", "0.5", "--quiet").exit_code == 0
    assert server.chat_calls == calls


def test_stdin_csv_and_custom_fields(tmp_path, server):
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["key", "document", "text"])
    for r in rows(3):
        writer.writerow([r["id"], r["source"], r["summary"]])
    result = score(tmp_path, "-", "--model", MODEL, "--out", "-", "--quiet", "--id-field", "key",
                   "--source-field", "document", "--summary-field", "text", input=buf.getvalue())
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert sorted(line["id"] for line in lines) == ["doc-1", "doc-2", "doc-3"]
    # JSON array on stdin, no ids: rows are numbered.
    arr = json.dumps([{"source": "a b c.", "summary": "a."}, {"source": "d e f.", "summary": "d."}])
    result = score(tmp_path, "-", "--model", MODEL, "--out", "-", "--quiet", input=arr)
    assert sorted(json.loads(line)["id"] for line in result.stdout.splitlines()) == ["1", "2"]


# -- failures and rate limits ----------------------------------------------------------------------


def test_a_failing_item_is_recorded_and_the_others_go_on_then_retried_on_rerun(tmp_path, server):
    server.script(Fault.status(400, "this request is refused"), step="alignment")
    data = write_jsonl(tmp_path / "d.jsonl", rows(4))
    out = tmp_path / "out.jsonl"
    result = score(tmp_path, str(data), "--model", MODEL, "--out", str(out), "--concurrency", "1")
    assert result.exit_code == 1, result.stderr  # a failed item fails the run unless --allow-errors
    assert "1 of 4 item(s) could not be scored" in result.stderr
    lines = out_lines(out)
    failed = [line for line in lines if line["error"]]
    assert len(lines) == 4 and len(failed) == 1
    assert "this request is refused" in failed[0]["error"] and failed[0]["score"] is None
    assert "1 item(s) failed" in result.stderr

    again = score(tmp_path, str(data), "--model", MODEL, "--out", str(out), "--quiet")
    assert again.exit_code == 0
    lines = out_lines(out)
    assert sorted(line["id"] for line in lines) == [f"doc-{i}" for i in range(1, 5)]
    assert all(line["error"] is None for line in lines)


def test_every_item_failing_exits_1(tmp_path, server):
    server.brain = lambda request: Fault.status(401, "bad key")
    data = write_jsonl(tmp_path / "d.jsonl", rows(2))
    result = score(tmp_path, str(data), "--model", MODEL, "--out", str(tmp_path / "o.jsonl"))
    assert result.exit_code == 1
    assert all(line["error"] for line in out_lines(tmp_path / "o.jsonl"))


def test_a_429_storm_slows_the_run_without_failing_it(tmp_path, monkeypatch):
    # The server takes 2 requests at a time and answers 429 (Retry-After: 0.05 s) to the rest.
    with JudgeServer(max_in_flight=2, retry_after=0.05, latency=0.02) as srv:
        monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        data = write_jsonl(tmp_path / "d.jsonl", rows(12))
        out = tmp_path / "out.jsonl"
        result = score(tmp_path, str(data), "--model", MODEL, "--out", str(out), "--concurrency", "8")
        assert result.exit_code == 0, result.stderr
        lines = out_lines(out)
        assert len(lines) == 12 and all(line["error"] is None for line in lines)
        assert srv.rate_limited > 0


# -- the cache -------------------------------------------------------------------------------------


def test_cache_makes_a_fresh_rerun_cost_no_calls_with_the_same_verdicts(tmp_path, server):
    data = write_jsonl(tmp_path / "d.jsonl", rows(3))
    cache = str(tmp_path / "cache.db")
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert score(tmp_path, str(data), "--model", MODEL, "--cache-path", cache, "--out", str(first), "-q").exit_code == 0
    calls = server.chat_calls
    assert calls == 9
    result = score(tmp_path, str(data), "--model", MODEL, "--cache-path", cache, "--fresh", "--out", str(second), "-q")
    assert result.exit_code == 0
    assert server.chat_calls == calls

    def key(lines):
        return sorted((line["id"], line["score"], json.dumps(line["verdicts"])) for line in lines)

    assert key(out_lines(first)) == key(out_lines(second))


# -- runs list / show / export ---------------------------------------------------------------------


def test_runs_list_show_and_export(tmp_path, server):
    data = write_jsonl(tmp_path / "d.jsonl", rows(3))
    assert score(tmp_path, str(data), "--model", MODEL, "-q").exit_code == 0
    store = ["--store", str(tmp_path / "runs.db")]
    runner = CliRunner()

    listed = runner.invoke(main, ["runs", "list", "--json", *store])
    assert listed.exit_code == 0
    (run,) = [json.loads(line) for line in listed.stdout.splitlines()]
    assert run["model"] == MODEL and run["ok"] == 3 and run["total_items"] == 3 and run["status"] == "finished"
    assert run["id"] in runner.invoke(main, ["runs", "list", *store]).stdout

    shown = runner.invoke(main, ["runs", "show", run["id"][:12], *store])
    assert shown.exit_code == 0 and "3 of 3 done" in shown.stdout and "mean" in shown.stdout
    as_json = json.loads(runner.invoke(main, ["runs", "show", "latest", "--json", *store]).stdout)
    assert as_json["stats"]["count"] == 3 and as_json["stats"]["total_tokens"] > 0

    exported = runner.invoke(main, ["runs", "export", run["id"], "--format", "jsonl", *store])
    assert [json.loads(line)["id"] for line in exported.stdout.splitlines()] == ["doc-1", "doc-2", "doc-3"]
    table = list(csv.DictReader(io.StringIO(runner.invoke(main, ["runs", "export", run["id"], "--format", "csv", *store]).stdout)))
    assert [r["id"] for r in table] == ["doc-1", "doc-2", "doc-3"]
    assert table[0]["claims"] == "3" and table[0]["score"] == "1.0"

    missing = runner.invoke(main, ["runs", "show", "nope", *store])
    assert missing.exit_code == 2 and "no run 'nope'" in missing.stderr


def test_report_option_writes_the_page(tmp_path, server):
    data = write_jsonl(tmp_path / "d.jsonl", rows(4))
    report = tmp_path / "r" / "report.html"
    assert score(tmp_path, str(data), "--model", MODEL, "--report", str(report), "-q").exit_code == 0
    html = report.read_text(encoding="utf-8")
    assert html.count('<tbody class="item"') == 4 and "openai/test-model" in html


def test_agreement_is_a_command_whose_options_reach_the_protocol(monkeypatch, tmp_path):
    from sumjudge.analysis import agreement as protocol

    data = tmp_path / "labels.jsonl"
    data.write_text(json.dumps({"doc_id": "d", "source": "A b c.", "summary": "A b.", "rating": 3}) + "\n")
    seen: dict[str, object] = {}

    async def measure(rows, **kwargs):
        seen.update(kwargs, rows=len(rows))
        return protocol.AgreementReport(human_field=kwargs["human_field"], model=kwargs["model"])

    monkeypatch.setattr(protocol, "measure_agreement", measure)
    result = CliRunner().invoke(
        main, ["agreement", str(data), "--human-field", "rating", "--model", "x/y", "--metric", "rouge-2", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert seen["model"] == "x/y" and seen["metrics"] == ["rouge-2"] and seen["rows"] == 1
    assert json.loads(result.stdout)["human_field"] == "rating"

    helped = CliRunner().invoke(main, ["agreement", "--help"])
    assert helped.exit_code == 0 and "--human-field" in helped.stdout
    assert CliRunner().invoke(main, ["agreement", str(data), "--human-field", "nope"]).exit_code == 2
    assert CliRunner().invoke(main, ["agreement", str(data), "--human-field", "rating", "--no-judge"]).exit_code == 2


def test_cached_prompt_tokens_in_the_end_table_and_the_report(tmp_path, server) -> None:
    """16 summaries of one source: the server's prefix cache serves the source after the first call."""
    source = " ".join(f"Paragraph {i}: the council approved {i * 7} homes on the east bank of the river." for i in range(120))
    data = write_jsonl(tmp_path / "d.jsonl", [{"id": f"s{i}", "source": source, "summary": f"Summary {i}."} for i in range(16)])
    report = tmp_path / "r.html"
    result = score(tmp_path, str(data), "--model", MODEL, "-c", "1", "--report", str(report))
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if "cached prompt tokens" in x)
    cached = int(re.findall(r"[\d,]+", line)[-1].replace(",", ""))
    assert cached > 0 and cached == server.usage["cached_tokens"]
    assert f">{cached:,}<" in report.read_text(encoding="utf-8")


def test_an_empty_source_is_warned_about_per_row_and_counted_in_the_end_table(tmp_path, monkeypatch):
    """A blank source cell scores 0 (nothing to judge against): each such row is named on standard error,
    and the end table counts them."""
    monkeypatch.setenv("COLUMNS", "200")
    items = rows(3)
    items[1]["source"], items[2]["source"] = "", "  \n "
    data = write_jsonl(tmp_path / "d.jsonl", items)
    res = score(tmp_path, str(data), "--model", "offline/lexical")
    assert res.exit_code == 0, res.output
    assert "row 2 (id 'doc-2'): the source is empty; the item scores 0" in res.stderr
    assert "row 3 (id 'doc-3'): the source is empty" in res.stderr and "row 1 (id" not in res.stderr
    assert re.search(r"empty sources\s*│\s*2\s*│", res.stderr)
    quiet = score(tmp_path, str(data), "--model", "offline/lexical", "--quiet", "--fresh")
    assert quiet.stderr.count("the source is empty") == 2  # warned under --quiet too


def test_runs_show_worst_and_best_list_the_items_with_score_axes_and_the_reports_reason(tmp_path, monkeypatch):
    """`runs show RUN --worst N` / `--best N`: from the store, the report's reason text."""
    import html

    monkeypatch.setenv("COLUMNS", "400")
    items = rows(4)
    for item in items[:2]:
        item["summary"] = item["source"]  # faithful: the best two
    items[2]["summary"] = "Source 3: the council approved 950 homes."  # an invented number
    data = write_jsonl(tmp_path / "d.jsonl", items)
    report = tmp_path / "r.html"
    assert score(tmp_path, str(data), "--model", "offline/lexical", "--report", str(report)).exit_code == 0
    store = str(tmp_path / "runs.db")
    with __import__("sumjudge.store.database", fromlist=["RunStore"]).RunStore(store, readonly=True) as s:
        run = s.get_run("latest")
        by_score = sorted(s.iter_items(run.id), key=lambda i: (i.outcome.score, i.row_number))
        top = sorted(s.iter_items(run.id), key=lambda i: (-i.outcome.score, i.row_number))
    res = CliRunner().invoke(main, ["runs", "show", "latest", "--store", store, "--worst", "2", "--best", "1"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    worst = lines[lines.index("worst 2 (score, alignment, coverage, the reason):") + 1:][:2]
    best = lines[lines.index("best 1 (score, alignment, coverage, the reason):") + 1:][:1]
    page = report.read_text(encoding="utf-8")
    assert top[0].outcome.score > by_score[0].outcome.score
    for line, item in zip(worst + best, [*by_score[:2], top[0]]):
        r = item.outcome
        assert line.startswith(f"  {r.score:.3f}  alignment {r.alignment_score:.3f}  coverage {r.coverage_score:.3f}  "
                               f"{item.item_id} (row {item.row_number}): ")
        assert line.endswith(r.reason) and html.escape(r.reason) in page  # the report's text
    doc = json.loads(CliRunner().invoke(main, ["runs", "show", "latest", "--store", store, "--json", "--worst", "1"]).output)
    assert [i["id"] for i in doc["worst"]] == [by_score[0].item_id] and doc["worst"][0]["reason"] == by_score[0].outcome.reason


def test_runs_export_csv_writes_formulas_from_the_data_as_text(tmp_path):
    rows = [{"id": '=HYPERLINK("http://x.example","click")', "source": "The council approved 120 homes.",
             "summary": "The council approved 120 homes."},
            {"id": "@SUM(A1:A9)", "source": "The council approved 120 homes.", "summary": "-1 homes were approved."}]
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    store = ["--store", str(tmp_path / "runs.db")]
    runner = CliRunner()
    assert runner.invoke(main, ["score", str(data), "--model", "offline/lexical", "--quiet", *store]).exit_code in (0, 1)
    table = list(csv.reader(io.StringIO(runner.invoke(main, ["runs", "export", "latest", "--format", "csv", *store]).stdout)))
    cells = [cell for row in table[1:] for cell in row]
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells), cells
    assert table[1][0] == "'" + rows[0]["id"] and table[2][0] == "'@SUM(A1:A9)"
