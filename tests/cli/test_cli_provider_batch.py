"""The command line of provider batches: `score --batch` prints each job's state and the billed cost,
`runs show` gives the cost at the batch price, `estimate --batch` both prices, and `runs cancel` stops a
run's jobs at the provider (the next `score` sends what they left in new jobs)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from batch_helpers import TextBrain, results, write_data
from sumjudge.testing.judge_server import JudgeServer

pytestmark = [pytest.mark.integration, pytest.mark.slow]

N = 4
MODEL = "openai/gpt-4o-mini"  # a model genai-prices knows, served by the bundled server


def sumjudge(*args, env):
    return subprocess.run([sys.executable, "-m", "sumjudge.cli", *args], env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def served(monkeypatch):
    with JudgeServer(TextBrain()) as server:
        yield server, {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}


def test_score_batch_prints_job_states_and_the_billed_cost_and_runs_show_keeps_it(tmp_path, served):
    server, env = served
    data, store = write_data(tmp_path / "d.jsonl", N), tmp_path / "runs.db"
    report = tmp_path / "report.html"
    done = sumjudge("score", str(data), "--model", MODEL, "--store", str(store), "--batch", "--poll-interval", "0.05",
                    "--report", str(report), env=env)
    assert done.returncode == 0, done.stderr
    assert "batch round 1, job batch_" in done.stderr and "batch round 2, job batch_" in done.stderr
    assert "uploading 8 requests" in done.stderr and "completed" in done.stderr
    assert "2 job(s) in 2 round(s), 12 of 12 requests answered" in done.stderr
    assert "at the batch price (live calls: $" in done.stderr
    html = report.read_text(encoding="utf-8")
    assert 'data-figure="billed at the batch price">$' in html and "2 in 2 round(s)" in html

    shown = sumjudge("runs", "show", "latest", "--store", str(store), "--json", env=env)
    batch = json.loads(shown.stdout)["batch"]
    assert (batch["jobs"], batch["rounds"], batch["succeeded"]) == (2, 2, 12)
    text = sumjudge("runs", "show", "latest", "--store", str(store), env=env).stdout
    assert "at the batch price" in text


def test_score_batch_on_a_command_that_ran_live_says_it_resumes_the_live_run(tmp_path, served):
    server, env = served
    data, store = write_data(tmp_path / "d.jsonl", N), tmp_path / "runs.db"
    live = sumjudge("score", str(data), "--model", MODEL, "--store", str(store), "--quiet", env=env)
    assert live.returncode == 0, live.stderr
    run_id = json.loads(sumjudge("runs", "show", "latest", "--store", str(store), "--json", env=env).stdout)["id"]

    done = sumjudge("score", str(data), "--model", MODEL, "--store", str(store), "--batch", "--poll-interval", "0.05",
                    "--quiet", env=env)
    assert done.returncode == 0, done.stderr
    assert f"resuming live run {run_id}: {N} of {N} finished; --fresh to run it as a batch" in done.stderr
    assert not server.batches.jobs  # nothing was left to send


def test_score_batch_refuses_a_judge_without_batch_jobs(tmp_path, served):
    _, env = served
    data = write_data(tmp_path / "d.jsonl", N)
    done = sumjudge("score", str(data), "--model", "offline/lexical", "--store", str(tmp_path / "r.db"), "--batch",
                    env=env)
    assert done.returncode == 2 and "--batch needs a judge with provider batch jobs" in done.stderr


def test_estimate_batch_shows_both_prices(tmp_path, served):
    _, env = served
    data = write_data(tmp_path / "d.jsonl", N)
    figures = json.loads(sumjudge("estimate", str(data), "--model", MODEL, "--batch", "--json", env=env).stdout)
    assert figures["price_usd"] > 0 and figures["price_batch_usd"] == pytest.approx(figures["price_usd"] / 2)
    text = sumjudge("estimate", str(data), "--model", MODEL, "--batch", env=env).stdout
    assert "price with --batch" in text


def test_runs_cancel_cancels_the_jobs_in_flight_and_score_then_finishes(tmp_path, served):
    server, env = served
    desk = server.batches
    data, store, out = write_data(tmp_path / "d.jsonl", N), tmp_path / "runs.db", tmp_path / "out.jsonl"
    cmd = [sys.executable, "-m", "sumjudge.cli", "score", str(data), "--model", MODEL, "--store", str(store),
           "--out", str(out), "--batch", "--poll-interval", "0.05"]
    desk.hold("in_progress")
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while desk.count("poll:in_progress") < 2:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)  # stopped like Ctrl-C: the job stays at the provider
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    (job,) = desk.jobs.values()

    cancelled = sumjudge("runs", "cancel", "latest", "--store", str(store), env=env)
    assert cancelled.returncode == 0, cancelled.stderr
    assert f"job {job.id} (round 1): cancelling" in cancelled.stdout
    assert job.state == "cancelling"
    desk.release()

    again = sumjudge(*cmd[3:], env=env)
    assert again.returncode == 0, again.stderr
    assert job.state == "cancelled" and len(desk.jobs) == 3  # the cancelled job's requests went into a new one
    assert [r["error"] for r in results(out)] == [None] * N
    assert "no batch job in flight" in sumjudge("runs", "cancel", "latest", "--store", str(store), env=env).stdout
