"""``sumjudge probe`` against judges over real HTTP (the bundled test server): a blind judge is caught,
a judge that misses only figures is caught on ``number`` and ``date`` alone, two judges are paired,
and a killed probe resumes."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from killed_runs import finished_ids, kill_once_finished
from probe_rows import ROWS
from sumjudge.summarization.spec import ScorerSpec
from sumjudge.testing.brains import SummarizationBrain
from sumjudge.testing.judge_server import JudgeServer

pytestmark = pytest.mark.integration

ENGLISH = [r for r in ROWS if r.id != "arabic"]


def write_rows(path: Path, rows=ENGLISH) -> Path:
    path.write_text("".join(json.dumps(r.model_dump()) + "\n" for r in rows), encoding="utf-8")
    return path


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sumjudge.cli", "probe", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=300)


def _fenced(prompt: str, name: str) -> str:
    m = re.search(rf"<<<{name} ([0-9a-f]{{16}})>>>\n(.*?)\n<<<END {name} \1>>>", prompt, re.S)
    assert m, f"no {name} in the prompt"
    return m.group(2)


def _norm(sentence: str) -> str:
    return " ".join(re.findall(r"\w+", re.sub(r"\d", "#", sentence.lower())))


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


class FigureBlindOracle:
    """Knows the faithful summaries: a sentence is supported when it is one of theirs, except that it
    cannot read figures (every digit looks the same to it); questions ask for each faithful sentence."""

    def __init__(self, rows) -> None:
        self.truth = {r.source: [_norm(s) for s in _sentences(r.summary)] for r in rows}

    def __call__(self, request: Any) -> Any:
        prompt = request.prompt
        if request.step == "alignment":
            known = set(self.truth[_fenced(prompt, "SOURCE")])
            return {"alignment": [{"claim": s, "reason": "compared", "supported": _norm(s) in known}
                                  for s in _sentences(_fenced(prompt, "SUMMARY"))]}
        if request.step == "questions":
            return {"questions": [f"Does it say {s}?" for s in self.truth[_fenced(prompt, "SOURCE")]]}
        summary = {_norm(s) for s in _sentences(_fenced(prompt, "SUMMARY"))}
        asked = [json.loads(m) for m in re.findall(r'^\d+\. (".*")$', _fenced(prompt, "QUESTIONS"), re.M)]
        return {"coverage": [{"question": q, "reason": "looked", "answered": q[len("Does it say "):-1] in summary}
                             for q in asked]}


def test_a_blind_judge_is_caught_near_zero_and_fails_the_gate(tmp_path):
    data = write_rows(tmp_path / "rows.jsonl")
    with JudgeServer(SummarizationBrain()) as server:  # "supported" and "yes" to everything
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}
        proc = run_cli(str(data), "--model", "openai/blind", "--store", str(tmp_path / "runs.db"), "--json",
                       "--min-detection", "0.5", "--report", str(tmp_path / "probe.html"), env=env)
    # a few probes a kind: 0 caught leaves a Wilson interval that may still reach 0.5, so gates abstain
    # (exit 3) unless the interval lies below the bar; none passes
    assert proc.returncode in (1, 3), proc.stderr
    doc = json.loads(proc.stdout)
    assert set(doc) >= {"judge", "items", "kinds", "controls", "gates", "passed"} and doc["passed"] is False
    alignment = [k for k in doc["kinds"] if k["axis"] == "alignment"]
    assert len(alignment) == 8 and all(k["probes"] > 0 and k["detected"] == 0 for k in alignment)
    assert all(k["ci_high"] < 0.8 for k in alignment)
    assert all(not g["passed"] and g["outcome"] in ("fail", "inconclusive") for g in doc["gates"])
    assert doc["outcome"] == ("fail" if proc.returncode == 1 else "inconclusive")
    assert {c["kind"] for c in doc["controls"]} == {"reorder", "rescore", "format"}
    assert all(c["flagged"] == 0 for c in doc["controls"])
    assert doc["items"] == len(ENGLISH) + sum(k["probes"] for k in doc["kinds"] + doc["controls"])
    page = (tmp_path / "probe.html").read_text(encoding="utf-8")
    assert "Content-Security-Policy" in page and "<svg" in page and 'class="change"' in page and "missed" in page


def test_a_judge_that_cannot_read_figures_is_caught_on_number_and_date_alone(tmp_path):
    rows = [r for r in ENGLISH if r.id != "final"]  # its date change is a weekday, which this judge reads
    data = write_rows(tmp_path / "rows.jsonl", rows)
    with JudgeServer(FigureBlindOracle(rows)) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}
        proc = run_cli(str(data), "--model", "openai/figure-blind", "--store", str(tmp_path / "runs.db"), "--json",
                       "--min-detection", "0.9", "--max-false-alarm", "0", env=env)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    failed = {g["kind"] for g in doc["gates"] if g["outcome"] == "fail"}
    assert failed == {"number", "date"}  # caught 0 times: the whole interval is below 0.9
    # a kind caught every time on a few probes cannot show 0.9 yet; a control never flagged meets a bar of 0
    assert all(g["outcome"] == "inconclusive" for g in doc["gates"] if g["name"] == "min-detection" and g["kind"] not in failed)
    assert all(g["outcome"] == "pass" for g in doc["gates"] if g["name"] == "max-false-alarm")
    rates = {k["kind"]: k["rate"] for k in doc["kinds"]}
    assert rates["number"] == rates["date"] == 0
    assert all(rate == 1 for kind, rate in rates.items() if kind not in ("number", "date") and rate is not None), rates
    localized = {k["kind"]: (k["localized"], k["detected"]) for k in doc["kinds"] if k["axis"] == "alignment"}
    assert all(loc == det for loc, det in localized.values())


def test_two_judges_side_by_side_are_paired_per_kind(tmp_path):
    data = write_rows(tmp_path / "rows.jsonl", ENGLISH)
    with JudgeServer(SummarizationBrain()) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}
        proc = run_cli(str(data), "--model", "openai/blind", "--model", "offline/lexical", "--kinds", "added_claim,rescore",
                       "--store", str(tmp_path / "runs.db"), "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert [j["judge"]["model"] for j in doc["judges"]] == ["openai/blind", "offline/lexical"]
    added = next(p for p in doc["paired"] if p["kind"] == "added_claim")
    probes = next(k["probes"] for k in doc["judges"][0]["kinds"] if k["kind"] == "added_claim")
    assert added["pairs"] == probes >= 3 and added["only_a"] == 0
    assert added["only_b"] == next(k["detected"] for k in doc["judges"][1]["kinds"] if k["kind"] == "added_claim")


def test_bad_input_exits_2(tmp_path):
    data = write_rows(tmp_path / "rows.jsonl")
    assert run_cli(str(data), "--kinds", "colour").returncode == 2
    assert run_cli(str(data), "--min-detection", "1.5").returncode == 2
    assert run_cli().returncode == 2
    (tmp_path / "bad.jsonl").write_text('{"source": "s"}\n', encoding="utf-8")
    proc = run_cli(str(tmp_path / "bad.jsonl"))
    assert proc.returncode == 2 and "summary" in proc.stderr


def test_pairs_made_by_people_give_the_table_per_error_type(tmp_path):
    src = "Keefe posed for the Saturday Evening Post cover on May 29, 1943 in Arlington."
    ref = "Keefe posed for the cover on May 29, 1943 ."
    pairs = [
        {"pair_id": 1, "source": src, "reference_summary": ref, "edited_summary": "Keefe posed for the cover on June 14, 1946 .",
         "error_type": "Extrinsic Circumstance Error"},
        {"pair_id": 2, "source": src, "reference_summary": ref, "edited_summary": "Rockwell posed for the cover on May 29, 1943 .",
         "error_type": "Intrinsic Entity Error"},
    ]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in pairs), encoding="utf-8")
    proc = run_cli("--pairs", str(path), "--id-field", "pair_id", "--store", str(tmp_path / "runs.db"), "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert sorted(k["kind"] for k in doc["kinds"]) == ["Extrinsic Circumstance Error", "Intrinsic Entity Error"]
    assert doc["items"] == 3 and all(k["probes"] == 1 for k in doc["kinds"])


@pytest.mark.slow
def test_a_killed_probe_resumes_and_scores_only_what_was_left(tmp_path):
    data = write_rows(tmp_path / "rows.jsonl")
    store = tmp_path / "runs.db"
    with JudgeServer(SummarizationBrain(), latency=0.1) as server:
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}
        cmd = [sys.executable, "-m", "sumjudge.cli", "probe", str(data), "--model", "openai/test-model",
               "--concurrency", "2", "--store", str(store), "--json"]
        kill_once_finished(cmd, env, store, 6, within=120)
        done_at_kill = finished_ids(store)
        asked_before = len(server.chat_requests("alignment"))
        assert asked_before < 40  # it was stopped well before the end
        again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
        asked_after = len(server.chat_requests("alignment")) - asked_before
    assert again.returncode == 0, again.stderr
    assert f"{len(done_at_kill)} of" in again.stderr or "resuming run" in again.stderr
    doc = json.loads(again.stdout)
    total = doc["items"]
    assert finished_ids(store) >= done_at_kill and len(finished_ids(store)) == total
    assert asked_after == total - len(done_at_kill)  # nothing that finished was judged again


def test_estimate_counts_the_evaluations_a_probe_makes(tmp_path):
    data = write_rows(tmp_path / "rows.jsonl")
    est = subprocess.run([sys.executable, "-m", "sumjudge.cli", "estimate", str(data), "--probe", "number,rescore",
                          "--per-kind", "2", "--model", "openai/gpt-4o-mini", "--json"],  # a judge that calls (the offline one calls nothing)
                         capture_output=True, text=True, timeout=120)
    assert est.returncode == 0, est.stderr
    proc = run_cli(str(data), "--kinds", "number,rescore", "--per-kind", "2", "--store", str(tmp_path / "runs.db"), "--json")
    assert proc.returncode == 0, proc.stderr
    items = json.loads(proc.stdout)["items"]
    assert json.loads(est.stdout)["items"] == items >= 5  # the originals used and two variants per kind
    assert json.loads(est.stdout)["calls_by_step"]["alignment"] == items


def test_the_library_function_scores_the_plan_into_the_store_and_resumes_it(tmp_path):
    from sumjudge.runs import make_plan, run_probe_sync

    plan = make_plan(ENGLISH, kinds=["number", "rescore"], seed=0)
    options = {"max_questions": 10, "scale": 1.0}
    first = run_probe_sync(plan, data_name="rows", spec=ScorerSpec.make("offline/lexical", options), store_path=tmp_path / "r.db")
    again = run_probe_sync(plan, data_name="rows", spec=ScorerSpec.make("offline/lexical", options), store_path=tmp_path / "r.db")
    assert first.table is not None and again.table is not None
    assert again.run.id == first.run.id and again.table == first.table
    assert set(first.outcomes) == {r.id for r in plan.originals} | {v.id for v in plan.variants}
    rescore = first.table.controls[0]
    assert (rescore.kind, rescore.flagged, rescore.probes) == ("rescore", 0, len(ENGLISH))  # a deterministic judge agrees with itself


def _kinds(proc: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    doc = json.loads(proc.stdout)
    return [{k: row.get(k) for k in ("kind", "probes", "detected", "flagged", "localized")}
            for row in doc["kinds"] + doc["controls"]]


def test_a_probe_through_provider_batch_jobs_finds_what_live_calls_find(tmp_path):
    """`probe --batch` sends its originals and variants as batch jobs and makes the same table."""
    data = write_rows(tmp_path / "rows.jsonl")
    with JudgeServer(SummarizationBrain()) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}
        live = run_cli(str(data), "--model", "openai/m", "--store", str(tmp_path / "live.db"), "--json", env=env)
        batch = run_cli(str(data), "--model", "openai/m", "--store", str(tmp_path / "batch.db"), "--json",
                        "--batch", "--poll-interval", "0.05", env=env)
    assert live.returncode == batch.returncode == 0, batch.stderr
    assert _kinds(batch) == _kinds(live)
    with sqlite3.connect(tmp_path / "batch.db") as db:
        assert db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name LIKE '%job%'").fetchone()[0] > 0


def test_a_probe_on_two_worker_processes_makes_the_table_of_one(tmp_path):
    """`probe --workers`: the offline judge's probe on two processes gives the one-process table."""
    data = write_rows(tmp_path / "rows.jsonl")
    one = run_cli(str(data), "--store", str(tmp_path / "one.db"), "--json", "--workers", "1")
    two = run_cli(str(data), "--store", str(tmp_path / "two.db"), "--json", "--workers", "2")
    assert one.returncode == two.returncode and one.returncode in (0, 1), two.stderr
    assert _kinds(two) == _kinds(one)
