"""A `score --batch` killed (SIGKILL) in any state of a job finishes on the next command: no item lost
or judged twice, no job created twice, and the results those of live calls."""

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

N = 6


def command(data, store, out):
    return [sys.executable, "-m", "sumjudge.cli", "score", str(data), "--model", "openai/test-model", "--store",
            str(store), "--out", str(out), "--batch", "--poll-interval", "0.05"]


def wait_for(condition, proc, what):
    deadline = time.monotonic() + 60
    while not condition():
        assert proc.poll() is None, f"the run ended before {what}: {proc.stderr.read().decode()}"
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def live_results(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("live")
    data, out = write_data(tmp / "data.jsonl", N, sources=N // 2), tmp / "out.jsonl"
    with JudgeServer(TextBrain()) as server:
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}
        cmd = command(data, tmp / "runs.db", out)[:-3]  # without --batch
        subprocess.run(cmd, env=env, check=True, capture_output=True, timeout=120)
    return results(out)


# (what the server does to stop the job there, what the client has been seen doing there)
STATES = {
    "uploading": (lambda d: d.block("upload"), lambda d: d.count("upload") >= 1),
    "creating": (lambda d: d.block("create"), lambda d: d.count("create") >= 1),
    "validating": (lambda d: d.hold("validating"), lambda d: d.count("poll:validating") >= 2),
    "in_progress": (lambda d: d.hold("in_progress"), lambda d: d.count("poll:in_progress") >= 2),
    "finalizing": (lambda d: d.hold("finalizing"), lambda d: d.count("poll:finalizing") >= 2),
    "downloading": (lambda d: d.block("download"), lambda d: d.count("download") >= 1),
}


@pytest.mark.parametrize("state", list(STATES))
def test_a_run_killed_in_each_state_finishes_on_the_next_command(tmp_path, live_results, state):
    data, store, out = write_data(tmp_path / "data.jsonl", N, sources=N // 2), tmp_path / "runs.db", tmp_path / "o.jsonl"
    stop, reached = STATES[state]
    with JudgeServer(TextBrain()) as server:
        desk = server.batches
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}
        stop(desk)
        proc = subprocess.Popen(command(data, store, out), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_for(lambda: reached(desk), proc, f"reached {state}")
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.stderr.close()
        desk.release()  # a blocked upload or creation now completes at the provider, unrecorded
        if state == "creating":
            deadline = time.monotonic() + 30
            while not desk.jobs and time.monotonic() < deadline:
                time.sleep(0.02)

        again = subprocess.run(command(data, store, out), env=env, capture_output=True, text=True, timeout=120)
        assert again.returncode == 0, again.stderr

        created = [j for j in desk.jobs.values()]
        answered = [r for r in desk.line_requests]
    assert results(out) == live_results  # every item, once, with the live verdicts
    # one job per round, whatever the state of the kill: the second command waited on the first's job,
    # or adopted the job it created unrecorded (creating), or forgot the upload that made none (uploading)
    assert len(created) == 2
    steps = [json.loads(r.text) for r in answered]
    assert len(steps) == N + N // 2 + N  # each request answered once: alignment, questions, coverage
    assert "batch round 2" in again.stderr


def test_an_anthropic_run_killed_while_its_message_batch_runs_finishes_on_the_next_command(tmp_path):
    from sumjudge.testing.anthropic_server import AnthropicServer

    data, store, out = write_data(tmp_path / "data.jsonl", N, sources=N // 2), tmp_path / "runs.db", tmp_path / "o.jsonl"
    cmd = [*command(data, store, out)]
    cmd[cmd.index("openai/test-model")] = "anthropic/claude-test"
    with AnthropicServer(TextBrain()) as server:
        env = {**os.environ, "ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k"}
        live = subprocess.run([*cmd[:-3], "--store", str(tmp_path / "live.db"), "--out", str(tmp_path / "live.jsonl")],
                              env=env, capture_output=True, text=True, timeout=120)
        assert live.returncode == 0, live.stderr
        desk = server.batches
        desk.hold("in_progress")
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_for(lambda: desk.count("poll:in_progress") >= 2, proc, "polled the job")
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.stderr.close()
        desk.release()
        again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        assert again.returncode == 0, again.stderr
        assert len(desk.jobs) == 2 and len(desk.line_requests) == N + N // 2 + N
    assert results(out) == results(tmp_path / "live.jsonl")
