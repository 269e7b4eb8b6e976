"""`sumjudge score` as a CI gate: --pass-rate/--threshold, --junit and $GITHUB_STEP_SUMMARY, with the
offline judge and over real HTTP to the bundled judge server; exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.testing.judge_server import Fault, SummarizationBrain

from openai_endpoint import openai_endpoint

MODEL = "openai/test-model"
SOURCE = (
    "The city council approved 120 new homes on Monday. Construction will start in March. "
    "The mayor, Ana Ruiz, said the homes will be affordable."
)


def offline_rows(path: Path) -> Path:
    """Three faithful summaries (score 1) and one with a number the source never states."""
    rows = [{"id": f"good-{i}", "source": SOURCE, "summary": SOURCE} for i in range(1, 4)]
    rows.insert(1, {"id": "invented", "source": SOURCE, "summary": SOURCE.replace("120", "950")})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def run(tmp_path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        main, ["score", *args, "--store", str(tmp_path / "runs.db")], catch_exceptions=False
    )
    return result.exit_code, result.output + (getattr(result, "stderr", "") or "")


@pytest.fixture(autouse=True)
def no_step_summary(monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("SUMJUDGE_MODEL", raising=False)


# -- the pass-rate gate, with the offline judge ------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code"),
    [
        # 3 of 4 at or above 0.9: the share's 95% interval [0.30, 0.95] crosses 0.75 and 0.8 (inconclusive)
        (["--pass-rate", "0.75", "--threshold", "0.9"], 3),
        (["--pass-rate", "0.8", "--threshold", "0.9"], 3),
        (["--pass-rate", "0.8", "--threshold", "0.9", "--on-inconclusive", "fail"], 1),
        (["--pass-rate", "0.8", "--threshold", "0.9", "--on-inconclusive", "pass"], 0),
        (["--pass-rate", "0.75", "--threshold", "0.9", "--gate", "mean"], 0),  # the share alone: two outcomes
        (["--pass-rate", "0.8", "--threshold", "0.9", "--gate", "mean"], 1),
        (["--pass-rate", "75%", "--threshold", "0.9", "--gate", "mean"], 0),
        (["--pass-rate", "1", "--threshold", "0.5"], 0),  # the invented number still scores above 0.5
        (["--threshold", "0.9"], 1),  # a threshold alone: every item must reach it
        (["--threshold", "0.9", "--pass-rate", "0"], 0),
    ],
)
def test_pass_rate_gate_exit_codes(tmp_path, args, code):
    data = offline_rows(tmp_path / "d.jsonl")
    got, output = run(tmp_path, str(data), "--model", "offline/lexical", *args)
    assert got == code, output
    if code == 1 and "--on-inconclusive" not in args:
        assert "3 of 4 items (75%) scored at least 0.9" in output
    if code == 3 or "--on-inconclusive" in args:
        assert "crosses" in output and "more items" in output  # what would settle it


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--pass-rate", "0.5"], "--pass-rate needs --threshold"),
        (["--pass-rate", "1.5", "--threshold", "0.5"], "--pass-rate"),
        (["--pass-rate", "many", "--threshold", "0.5"], "--pass-rate"),
        (["--threshold", "1.5"], "--threshold must be in [0, 1]"),
        (["--threshold", "-0.1"], "--threshold must be in [0, 1]"),
    ],
)
def test_bad_gate_arguments_exit_2_before_any_judging(tmp_path, args, says):
    data = offline_rows(tmp_path / "d.jsonl")
    code, output = run(tmp_path, str(data), "--model", "offline/lexical", *args)
    assert code == 2 and says in output
    assert not (tmp_path / "runs.db").exists() or "no run" not in output


def test_the_threshold_follows_the_scale(tmp_path):
    data = offline_rows(tmp_path / "d.jsonl")
    code, output = run(tmp_path, str(data), "--model", "offline/lexical", "--scale", "10", "--threshold", "9")
    assert code == 1 and "3 of 4 items (75%) scored at least 9" in output


# -- JUnit XML and the step summary --------------------------------------------------------------


def test_junit_has_a_case_per_item_and_the_failure_quotes_the_claim(tmp_path, monkeypatch):
    data = offline_rows(tmp_path / "d.jsonl")
    junit = tmp_path / "reports" / "junit.xml"
    summary = tmp_path / "step-summary.md"
    summary.write_text("## an earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, _ = run(
        tmp_path, str(data), "--model", "offline/lexical", "--pass-rate", "0.9", "--threshold", "0.9",
        "--gate", "mean", "--junit", str(junit),  # the share alone (4 items: its interval would abstain)
    )
    assert code == 1
    root = ET.parse(junit).getroot()
    items, gates = root.findall("testsuite")
    cases = {c.get("name"): c for c in items.findall("testcase")}
    assert list(cases) == ["good-1", "invented", "good-2", "good-3"]
    failure = cases["invented"].find("failure")
    assert failure.get("message") == "score 0.50 is below the threshold 0.9"
    assert "950" in failure.text and "Unsupported claims" in failure.text
    assert all(cases[k].find("failure") is None for k in ("good-1", "good-2", "good-3"))
    gate_failure = gates.find("testcase").find("failure")
    assert "3 of 4 items (75%) scored at least 0.9" in gate_failure.get("message")

    text = summary.read_text(encoding="utf-8")
    assert text.startswith(f"## an earlier step\n### sumjudge: `{data}`: ❌ failed")
    assert "3 of 4 (75%)" in text
    lowest = text.split("**Lowest items**", 1)[1].splitlines()
    assert lowest[4].startswith("| invented | 0.50 |")


def test_a_passing_run_says_so_in_junit_and_the_summary(tmp_path, monkeypatch):
    data = offline_rows(tmp_path / "d.jsonl")
    summary = tmp_path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, _ = run(tmp_path, str(data), "--model", "offline/lexical", "--junit", str(tmp_path / "j.xml"))
    assert code == 0
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert root.get("failures") == "0" and root.get("errors") == "0"
    assert "✅ passed" in summary.read_text(encoding="utf-8")


# -- over the bundled judge server: failed items are errors, and count against the gates ----------


@pytest.fixture
def server(monkeypatch):
    with openai_endpoint(monkeypatch, SummarizationBrain(claims=4, unsupported=1)) as srv:  # every scored item: 0.75
        yield srv


def server_rows(path: Path, n: int) -> Path:
    rows = [{"id": f"doc-{i}", "source": f"Source {i}: the council approved {i} homes.", "summary": f"S {i}."}
            for i in range(1, n + 1)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.integration
def test_over_http_a_failed_item_is_a_junit_error_and_counts_against_the_pass_rate(tmp_path, server):
    data = server_rows(tmp_path / "d.jsonl", 4)
    server.script(Fault.status(400, "This model's maximum context length is exceeded"), step="alignment")
    junit = tmp_path / "junit.xml"
    code, output = run(
        tmp_path, str(data), "--model", MODEL, "--concurrency", "1", "--pass-rate", "0.8", "--threshold", "0.7",
        "--gate", "mean", "--junit", str(junit),  # the share alone (4 items: its interval would abstain)
    )
    assert code == 1
    assert "3 of 4 items (75%) scored at least 0.7" in output
    cases = {c.get("name"): c for c in ET.parse(junit).getroot().find("testsuite").findall("testcase")}
    error = cases["doc-1"].find("error")
    assert error is not None and "maximum context length" in error.get("message")
    assert all(cases[f"doc-{i}"].find("failure") is None for i in (2, 3, 4))
    assert [p.get("value") for p in cases["doc-2"].iter("property") if p.get("name") == "score"] == ["0.75"]


@pytest.mark.integration
def test_over_http_allowed_errors_leave_the_pass_rate_to_the_scored_items(tmp_path, server):
    data = server_rows(tmp_path / "d.jsonl", 4)
    server.script(Fault.status(400, "bad request"), step="alignment")
    code, output = run(
        tmp_path, str(data), "--model", MODEL, "--concurrency", "1", "--pass-rate", "0.8", "--threshold", "0.7",
        "--allow-errors", "1", "--gate", "mean",
    )
    assert code == 0, output


@pytest.mark.integration
def test_over_http_the_threshold_fails_every_item_below_it(tmp_path, server):
    data = server_rows(tmp_path / "d.jsonl", 3)
    junit = tmp_path / "junit.xml"
    code, output = run(tmp_path, str(data), "--model", MODEL, "--threshold", "0.8", "--junit", str(junit))
    assert code == 1 and "0 of 3 items (0%) scored at least 0.8" in output
    root = ET.parse(junit).getroot()
    assert root.find("testsuite").get("failures") == "3"
    failure = root.find("testsuite").find("testcase").find("failure")
    assert "Unsupported claims:" in failure.text and "The source does not say this." in failure.text
