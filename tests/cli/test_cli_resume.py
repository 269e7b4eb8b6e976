"""A run killed with SIGKILL loses nothing that finished: the same command resumes it."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest

from killed_runs import finished_ids, kill_once_finished
from sumjudge.testing.judge_server import JudgeServer

pytestmark = [pytest.mark.integration, pytest.mark.slow]

N = 16
CONCURRENCY = 2
MARK = re.compile(r"ITEM-(\d{3})")


def items_asked_about(server: JudgeServer, start: int = 0) -> set[str]:
    """Which items the judge was asked about (every prompt carries its item's mark)."""
    seen: set[str] = set()
    for request in server.chat_requests()[start:]:
        seen.update(f"doc-{m}" for m in MARK.findall(request.prompt))
    return seen


def test_a_killed_run_resumes_and_judges_again_only_what_was_in_flight(tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text(
        "".join(
            json.dumps({"id": f"doc-{i:03d}", "source": f"ITEM-{i:03d} source text.", "summary": f"ITEM-{i:03d} summary."})
            + "\n"
            for i in range(1, N + 1)
        ),
        encoding="utf-8",
    )
    store, out = tmp_path / "runs.db", tmp_path / "out.jsonl"
    with JudgeServer(latency=0.15) as server:
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}
        cmd = [sys.executable, "-m", "sumjudge.cli", "score", str(data), "--model", "openai/test-model",
               "--concurrency", str(CONCURRENCY), "--store", str(store), "--out", str(out)]
        proc = kill_once_finished(cmd, env, store, 4)
        assert proc.returncode == -signal.SIGKILL

        done_at_kill = finished_ids(store)
        started_before = items_asked_about(server)
        in_flight = started_before - done_at_kill
        assert 4 <= len(done_at_kill) < N
        assert len(in_flight) <= CONCURRENCY

        mark = len(server.chat_requests())
        again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        assert again.returncode == 0, again.stderr
        judged_again = items_asked_about(server, mark)
        requests_again = len(server.chat_requests()) - mark

    everything = {f"doc-{i:03d}" for i in range(1, N + 1)}
    # Nothing that finished is judged again; everything that did not is judged now.
    assert judged_again == everything - done_at_kill
    assert requests_again == 3 * len(everything - done_at_kill)  # alignment, questions, coverage each
    # Of the items the killed run had started, only those in flight at the kill are judged twice.
    assert judged_again & started_before == in_flight
    # Every item appears exactly once in --out, with a score.
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(line["id"] for line in lines) == sorted(everything)
    assert all(line["error"] is None and line["score"] is not None for line in lines)
    assert f"{len(done_at_kill)} of {N} items already finished" in again.stderr
