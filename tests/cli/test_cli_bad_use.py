"""Hostile use of every command: no command writes over what the
user has, no message carries a credential, bad input is one line and exit 2, nothing is silently wrong."""

from __future__ import annotations

import json
import sqlite3
import traceback
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.testing.judge_server import Fault, JudgeServer

OFFLINE = "offline/lexical"
SOURCE = "The council approved 120 homes on Tuesday. Building starts in May. The mayor praised the plan."
SUMMARIES = [
    "The council approved 120 homes on Tuesday.",
    "The council approved 120 homes. Building starts in May.",
    "The mayor praised the plan.",
    "The council rejected 500 homes on Friday.",
    "Building starts in May.",
    "The council approved 120 homes on Tuesday. Building starts in May. The mayor praised the plan.",
]


def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None):
    result = CliRunner().invoke(main, list(args), input=input, env=env)
    text = result.output + (getattr(result, "stderr", "") or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), text
    assert "Traceback" not in text, text
    return result.exit_code, text


def data_file(tmp_path: Path, rows: list[dict] | None = None, name: str = "d.jsonl") -> Path:
    rows = rows or [{"id": f"doc-{i}", "source": SOURCE, "summary": s} for i, s in enumerate(SUMMARIES)]
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def score(tmp_path: Path, data: Path, *args: str, env: dict[str, str] | None = None):
    return invoke("score", str(data), "--model", OFFLINE, "--store", str(tmp_path / "runs.db"), "--quiet", *args,
                  env=env)


def run_ids(store: Path) -> list[str]:
    with sqlite3.connect(store) as db:
        return [r[0] for r in db.execute("SELECT id FROM runs ORDER BY created_at")]


# -- point 2: no command writes over an input, a store, a cache or their sidecars -------------------


def test_compare_report_on_the_store_or_on_a_compared_file_is_refused(tmp_path: Path) -> None:
    store = tmp_path / "runs.db"
    data = data_file(tmp_path)
    assert score(tmp_path, data, "--out", str(tmp_path / "a.jsonl"))[0] == 0
    assert score(tmp_path, data, "--fresh", "--out", str(tmp_path / "b.jsonl"))[0] == 0
    a, b = run_ids(store)
    before = store.read_bytes()
    code, text = invoke("compare", a, b, "--store", str(store), "--report", str(store))
    assert code == 2 and "run store" in text
    assert store.read_bytes() == before and run_ids(store) == [a, b]
    kept = (tmp_path / "b.jsonl").read_text()
    code, text = invoke("compare", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--store", str(store),
                        "--report", str(tmp_path / "b.jsonl"))
    assert code == 2 and "run B" in text
    assert (tmp_path / "b.jsonl").read_text() == kept


def test_runs_export_onto_the_store_is_refused_and_replaces_other_files_whole(tmp_path: Path) -> None:
    store = tmp_path / "runs.db"
    assert score(tmp_path, data_file(tmp_path))[0] == 0
    before = store.read_bytes()
    for target in (store, Path(str(store) + "-wal")):
        code, text = invoke("runs", "export", "latest", "--store", str(store), "-o", str(target))
        assert code == 2 and "run store" in text, text
    assert store.read_bytes() == before
    out = tmp_path / "export.jsonl"
    out.write_text("x" * 100_000)
    assert invoke("runs", "export", "latest", "--store", str(store), "-o", str(out))[0] == 0
    assert len(out.read_text().splitlines()) == len(SUMMARIES)
    assert not list(tmp_path.glob(".export.jsonl.*"))  # written beside, then renamed


def test_no_output_is_written_over_the_data_file_of_another_run_in_the_store(tmp_path: Path) -> None:
    store = tmp_path / "runs.db"
    first = data_file(tmp_path, name="d.jsonl")
    other = data_file(tmp_path, [{"id": "x", "source": SOURCE, "summary": SUMMARIES[0]}], name="e.jsonl")
    assert score(tmp_path, first)[0] == 0
    assert score(tmp_path, other)[0] == 0
    kept = first.read_bytes()
    code, text = invoke("runs", "export", "latest", "--store", str(store), "-o", str(first))
    assert code == 2 and "the data file of run" in text and "Choose another path" in text, text
    code, text = score(tmp_path, other, "--out", str(first))
    assert code == 2 and "the data file of run" in text, text
    code, text = score(tmp_path, other, "--report", str(first))
    assert code == 2 and "the data file of run" in text, text
    assert first.read_bytes() == kept
    assert invoke("runs", "export", "latest", "--store", str(store), "-o", str(tmp_path / "x.jsonl"))[0] == 0


@pytest.mark.parametrize("option", ["--out", "--report", "--junit"])
@pytest.mark.parametrize("sidecar", ["-wal", "-shm", "-journal"])
def test_score_outputs_on_a_sqlite_sidecar_of_the_store_or_cache_are_refused(
    tmp_path: Path, option: str, sidecar: str
) -> None:
    cache = tmp_path / "cache.db"
    data = data_file(tmp_path)
    for target in (str(cache) + sidecar, str(tmp_path / "runs.db") + sidecar):
        code, text = score(tmp_path, data, "--cache-path", str(cache), option, target)
        assert code == 2 and "SQLite" in text and "Choose another path" in text, text


def test_a_job_summary_naming_the_data_file_or_the_store_is_not_appended(tmp_path: Path) -> None:
    data = data_file(tmp_path)
    kept = data.read_text()
    for protected, what in ((data, "data file"), (tmp_path / "runs.db-wal", "run store")):
        code, text = invoke("score", str(data), "--model", OFFLINE, "--store", str(tmp_path / "runs.db"),
                            "--out", str(tmp_path / "out.jsonl"), env={"GITHUB_STEP_SUMMARY": str(protected)})
        assert code == 0, text
        text = " ".join(text.split())  # the console wraps long lines
        assert "job summary was not written" in text and what in text
        assert (tmp_path / "out.jsonl").is_file()
    assert data.read_text() == kept
    summary = tmp_path / "summary.md"
    code, text = invoke("score", str(data), "--model", OFFLINE, "--store", str(tmp_path / "runs.db"), "--fresh",
                        env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert code == 0 and "### sumjudge" in summary.read_text()


# -- point 3: no credential leaves the process --------------------------------------------------------


@pytest.mark.integration
def test_check_hides_a_url_password_and_a_key_the_server_echoes_in_its_401(tmp_path: Path) -> None:
    key = "sk-test-abcdefgh12345678"
    other = "sk-proj-ZZZZyyyyXXXX9999"  # key-shaped, known to nobody here: hidden by its shape
    with JudgeServer() as server:
        host = server.base_url.replace("http://", "")
        server.brain = lambda request: Fault.status(
            401, f"Incorrect API key provided: {key} (also tried {other}) at http://bob:hunter2pw@{host}",
            "invalid_api_key",
        )
        code, text = invoke(
            "check", "--model", "vllm/test-model", "--source", SOURCE, "--summary", SUMMARIES[0],
            "--timeout", "5",  # (a key beside user:password in the URL is refused: the key is the env's)
            env={"VLLM_BASE_URL": f"http://bob:hunter2pw@{host}", "OPENAI_API_KEY": key},
        )
    assert code == 1 and "401" in text and "the judge failed" in text, text
    for secret in (key, other, "hunter2pw"):
        assert secret not in text


@pytest.mark.integration
def test_a_library_users_exception_and_its_traceback_hide_a_configured_key_and_url_password() -> None:
    from sumjudge import ModelConfig, create_summarization_scorer
    from sumjudge.errors import JudgeError

    key = "plain-configured-secret-42"  # not key-shaped, not in the environment: the judge knows it
    with JudgeServer() as server:
        host = server.base_url.replace("http://", "")
        server.brain = lambda request: Fault.status(401, f"bad key {key} for http://bob:hunter2pw@{host}")
        # a key beside user:password in the URL is refused: the configured secret is a header here
        config = ModelConfig(id="vllm/test-model", base_url=f"http://bob:hunter2pw@{host}/v1",
                             headers={"X-Gateway-Key": key}, timeout=5)
        scorer = create_summarization_scorer(model=config)
        with pytest.raises(JudgeError) as caught:
            scorer.run_sync(input=SOURCE, output=SUMMARIES[0])
    shown = "".join(traceback.format_exception(caught.value)) + repr(scorer.judge)
    assert "401" in shown
    assert key not in shown and "hunter2pw" not in shown


@pytest.mark.integration
def test_the_pytest_plugins_junit_xml_hides_the_password_and_the_echoed_key(pytester, monkeypatch) -> None:
    key = "sk-test-abcdefgh12345678"
    with JudgeServer() as server:
        host = server.base_url.replace("http://", "")
        server.brain = lambda request: Fault.status(401, f"Incorrect API key provided: {key}")
        monkeypatch.setenv("VLLM_BASE_URL", f"http://bob:hunter2pw@{host}")  # no key beside it
        monkeypatch.setenv("OPENAI_API_KEY", key)
        pytester.makepyfile(test_judged=f"""
from sumjudge.testing import assert_summary

def test_one():
    assert_summary({SOURCE!r}, {SUMMARIES[0]!r}, model="vllm/test-model")
""")
        result = pytester.runpytest_subprocess("-o", "asyncio_default_fixture_loop_scope=function",
                                               "--junitxml", "junit.xml", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    xml = (pytester.path / "junit.xml").read_text()
    terminal = result.stdout.str() + result.stderr.str()
    assert "401" in xml and ET.fromstring(xml) is not None
    for secret in (key, "hunter2pw"):
        assert secret not in xml and secret not in terminal


# -- point 4: one line, exit 2, never a traceback ---------------------------------------------------


@pytest.mark.parametrize("command", ["score", "estimate"])
def test_an_unpaired_surrogate_in_a_text_field_names_the_row_and_the_field(tmp_path: Path, command: str) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"source": SOURCE, "summary": "ok"}) + "\n"
                    + '{"source": "fine", "summary": "broken \\ud800 here"}\n')
    args = ["--model", OFFLINE] + (["--store", str(tmp_path / "runs.db")] if command == "score" else [])
    code, text = invoke(command, str(data), *args)
    assert code == 2 and "row 2" in text and "'summary'" in text and "surrogate" in text, text


@pytest.mark.parametrize("command", ["score", "estimate", "compare"])
def test_a_5000_digit_id_is_one_line(tmp_path: Path, command: str) -> None:
    huge = "9" * 5000
    if command == "compare":
        data = tmp_path / "a.jsonl"
        data.write_text('{"id": ' + huge + ', "score": 1, "alignment_score": 1, "coverage_score": 1, "reason": "r"}\n')
        code, text = invoke("compare", str(data), str(data), "--store", str(tmp_path / "runs.db"))
    else:
        data = tmp_path / "d.jsonl"
        data.write_text('{"id": ' + huge + ', "source": "a b", "summary": "a"}\n')
        args = ["--store", str(tmp_path / "runs.db")] if command == "score" else []
        code, text = invoke(command, str(data), "--model", OFFLINE, *args)
    assert code == 2 and "5000 digits" in text and "row 1" in text.replace(":1", " row 1"), text


def _scramble(store: Path) -> None:
    data = bytearray(store.read_bytes())
    for offset in range(4096 * 2, len(data), 4096):  # every page after the schema's
        data[offset : offset + 100] = b"\xff" * 100
    store.write_bytes(data)


def test_a_scrambled_store_is_one_line_in_runs_list_show_export_and_compare(tmp_path: Path) -> None:
    rows = [{"id": str(i), "source": SOURCE * 20, "summary": SUMMARIES[i % 6]} for i in range(40)]
    data = data_file(tmp_path, rows)
    assert score(tmp_path, data)[0] == 0
    store = tmp_path / "runs.db"
    with sqlite3.connect(store) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    _scramble(store)
    for args in (["runs", "list"], ["runs", "show", "latest"], ["runs", "export", "latest"],
                 ["compare", "latest", "latest"]):
        code, text = invoke(*args, "--store", str(store))
        assert code == 2 and "malformed" in text and str(store) in text, (args, text)


def test_store_rows_that_are_not_json_are_one_line_naming_the_run_or_item(tmp_path: Path) -> None:
    assert score(tmp_path, data_file(tmp_path))[0] == 0
    store = tmp_path / "runs.db"
    with sqlite3.connect(store) as db:
        db.execute("UPDATE items SET record = '{not json' WHERE item_id = 'doc-2'")
    for args in (["runs", "export", "latest"], ["compare", "latest", "latest"]):
        code, text = invoke(*args, "--store", str(store))
        assert code == 2 and "'doc-2'" in text and "damaged record" in text, (args, text)
    code, text = invoke("runs", "show", "latest", "--store", str(store))  # SQLite's json_extract meets it first
    assert code == 2 and "malformed JSON" in text and "damaged" in text, text
    with sqlite3.connect(store) as db:
        db.execute("UPDATE runs SET options = 'nope'")
    code, text = invoke("runs", "list", "--store", str(store))
    assert code == 2 and "damaged record" in text, text


def test_compare_refuses_a_nan_score(tmp_path: Path) -> None:
    line = {"id": "a", "score": 0.5, "alignment_score": 0.5, "coverage_score": 0.5, "reason": "r"}
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(json.dumps(line) + "\n")
    b.write_text(json.dumps({**line, "score": float("nan")}) + "\n")
    code, text = invoke("compare", str(a), str(b), "--store", str(tmp_path / "runs.db"))
    assert code == 2 and "score is nan" in text, text


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0"])
def test_check_refuses_a_timeout_that_is_not_a_positive_finite_number(value: str) -> None:
    code, text = invoke("check", "--model", OFFLINE, "--source", SOURCE, "--summary", SUMMARIES[0],
                        "--timeout", value)
    assert code == 2 and "--timeout" in text and "finite" in text, text


def test_a_parquet_file_with_two_summary_columns_exits_2_as_csv_does(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.Table.from_arrays(
        [pa.array(["1"]), pa.array([SOURCE]), pa.array(["first"]), pa.array(["second"])],
        names=["id", "source", "summary", "summary"],
    )
    pq.write_table(table, tmp_path / "d.parquet")
    csv_file = tmp_path / "d.csv"
    csv_file.write_text(f"id,source,summary,summary\n1,{SOURCE},first,second\n")
    for data in (tmp_path / "d.parquet", csv_file):
        code, text = score(tmp_path, data)
        assert code == 2 and "'summary' more than once" in text, text


# -- point 5: nothing silently wrong ------------------------------------------------------------------


@pytest.mark.parametrize("value", ["report.txt", "docs/report", "notes.md"])
def test_check_with_a_missing_file_names_it_instead_of_judging_the_words(tmp_path: Path, value: str) -> None:
    code, text = invoke("check", "--model", OFFLINE, "--source", str(tmp_path / value), "--summary", "x y")
    assert code == 2 and "no such file" in text and value in text, text
    code, text = invoke("check", "--model", OFFLINE, "--source", SOURCE, "--summary", value)
    assert code == 2 and "no such file" in text, text
    # words with spaces are text; one word is text too when it is not path-shaped
    code, text = invoke("check", "--model", OFFLINE, "--source", SOURCE, "--summary", "Approved.")
    assert code == 0, text


def _two_out_files(tmp_path: Path, b_summaries: list[str]) -> tuple[Path, Path]:
    rows_a = [{"id": f"doc-{i}", "source": SOURCE, "summary": s} for i, s in enumerate(SUMMARIES)]
    rows_b = [{"id": f"doc-{i}", "source": SOURCE, "summary": s} for i, s in enumerate(b_summaries)]
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert score(tmp_path, data_file(tmp_path, rows_a, "da.jsonl"), "--out", str(a))[0] == 0
    assert score(tmp_path, data_file(tmp_path, rows_b, "db.jsonl"), "--out", str(b))[0] == 0
    return a, b


def test_compare_moved_0_does_not_say_no_item_changed(tmp_path: Path) -> None:
    a, b = _two_out_files(tmp_path, list(reversed(SUMMARIES)))
    page = tmp_path / "cmp.html"
    code, text = invoke("compare", str(a), str(b), "--store", str(tmp_path / "runs.db"), "--report", str(page),
                        "--moved", "0")
    assert code == 0, text
    html = page.read_text()
    assert "no item changed its score" not in html and "changed their score; none listed" in html
    assert "changed their score; none listed (--moved 0)" in text


def test_compare_marks_an_interval_that_contradicts_the_verdict_and_says_the_test_decides(tmp_path: Path) -> None:
    line = {"alignment_score": 1.0, "coverage_score": 1.0, "reason": "r"}
    drops = [0.5, 0.25, 0.4, 0.1]  # 4 items moved down, 6 tied: Wilcoxon exact p = 0.125
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(json.dumps({"id": str(i), "score": 1.0, **line}) + "\n" for i in range(10)))
    b.write_text("".join(json.dumps({"id": str(i), "score": 1.0 - (drops[i] if i < 4 else 0), **line}) + "\n"
                         for i in range(10)))
    page = tmp_path / "cmp.html"
    code, text = invoke("compare", str(a), str(b), "--store", str(tmp_path / "runs.db"), "--report", str(page))
    assert code == 0, text
    score_row = next(line for line in text.splitlines() if line.startswith("score "))
    # the test finds no difference, and the interval is not inside +-0: inconclusive (no longer "no difference")
    assert "inconclusive" in score_row and "]*" in score_row  # the interval (all below 0) is marked
    assert "leaves out 0, but the verdict (inconclusive) is the Wilcoxon signed-rank test's (p = 0.125" in text
    assert "which decides" in page.read_text()


def test_a_failed_gate_says_why_even_when_quiet(tmp_path: Path) -> None:
    code, text = score(tmp_path, data_file(tmp_path), "--fail-under", "0.99")
    assert code == 1 and text.strip().startswith("sumjudge: gate failed: mean score"), text


def test_compare_refuses_out_files_scored_with_different_options(tmp_path: Path) -> None:
    rows = [{"id": f"doc-{i}", "source": SOURCE, "summary": s} for i, s in enumerate(SUMMARIES)]
    data = data_file(tmp_path, rows)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert score(tmp_path, data, "--out", str(a))[0] == 0
    assert score(tmp_path, data, "--out", str(b), "--max-questions", "2")[0] == 0
    code, text = invoke("compare", str(a), str(b), "--store", str(tmp_path / "runs.db"))
    assert code == 2 and "different scorer options" in text and "max_questions" in text, text
    # lines written before the judge and options were recorded still compare
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps({k: v for k, v in json.loads(line).items() if k not in ("judge", "options")})
                           + "\n" for line in a.read_text().splitlines()))
    assert invoke("compare", str(old), str(a), "--store", str(tmp_path / "runs.db"))[0] == 0


# -- check takes score's --scale, --samples, --cache ----------------------------------------------------


def test_check_takes_scale_samples_and_cache_as_score_does(tmp_path: Path) -> None:
    args = ["check", "--model", OFFLINE, "--source", SOURCE, "--summary", SUMMARIES[1], "--json"]
    code, text = invoke(*args)
    plain = json.loads(text)
    code, text = invoke(*args, "--scale", "10")
    assert code == 0 and json.loads(text)["score"] == pytest.approx(plain["score"] * 10, abs=0.05)  # rounded to 2 places
    code, text = invoke(*args, "--samples", "3", "--reducer", "median")
    sampled = json.loads(text)
    assert code == 0 and len(sampled["samples"]) == 3 and sampled["reducer"] == "median"
    cache = tmp_path / "replies.db"
    code, text = invoke(*args, "--cache-path", str(cache))
    assert code == 0 and cache.is_file()
    code, text = invoke("check", "--help")
    for option in ("--scale", "--samples", "--reducer", "--cache", "--cache-path"):
        assert option in text


@pytest.mark.parametrize(
    ("text", "hidden", "kept"),
    [
        ("GET http://bob:hunter2pw@host/v1 failed", "hunter2pw", "http://***@host/v1"),
        ("Incorrect API key provided: sk-proj-ZZZZyyyyXXXX9999.", "sk-proj-ZZZZyyyyXXXX9999", "provided: ***."),
        ("Authorization: Bearer abcdefghijkl0123", "abcdefghijkl0123", "Bearer ***"),
        ("GET /v1/models?key=AIzaSyA0123456789abcdef&alt=json", "AIzaSyA0123456789abcdef", "alt=json"),
        ("uses sk-learn and hf_dataset_loader for the task", "", "sk-learn and hf_dataset_loader"),
    ],
)
def test_the_one_redactor_hides_credentials_and_keeps_words(text: str, hidden: str, kept: str, monkeypatch) -> None:
    from sumjudge.errors import InputError
    from sumjudge.guards.redact import redact

    monkeypatch.setenv("SOME_SERVICE_TOKEN", "plain-env-token-value")
    assert "plain-env-token-value" not in redact("token plain-env-token-value here")
    shown = redact(text)
    assert kept in shown and (not hidden or hidden not in shown)
    assert str(InputError(text)) == shown  # every SumjudgeError message goes through it
