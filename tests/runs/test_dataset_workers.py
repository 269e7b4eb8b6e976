"""`sumjudge score --workers N`: a CPU-bound judge's batch on several processes gives the same records as
one process, records a failing item and goes on, and a killed or terminated multi-worker run resumes
with nothing lost and no process left behind."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cpu_judges import MARK, breaks_on_mark
from sumjudge.summarization.spec import ScorerSpec
from sumjudge.data.datasets import Dataset
from sumjudge.runs.dataset import RunOutputs, Meter, run_dataset_sync
from sumjudge.runs.workers import chunks_by_source, worker_count

pytestmark = pytest.mark.slow

OPTIONS = {"max_questions": 10, "scale": 1.0}
PLACES = ("bridge", "library", "harbour", "museum", "station", "market", "school", "garden")


def source_of(i: int, sentences: int = 6) -> str:
    return " ".join(
        f"In {1900 + i + k}, the {PLACES[(i + k) % len(PLACES)]} of Town{i} was rebuilt for {i * 10 + k} "
        f"million dollars by the firm of Ada Lind{k}." for k in range(sentences)
    )


def summaries_of(i: int) -> list[str]:
    sentences = source_of(i).split(". ")
    return [
        sentences[0] + ".",
        f"{sentences[1]} and {sentences[3]}.",
        sentences[2].replace(f"{i * 10 + 2} million", f"{i * 10 + 7} million") + ".",
    ]


def write_items(path: Path, n_sources: int, *, broken: set[int] = frozenset(), sentences: int = 6) -> Path:
    """Three summaries per source, the sources interleaved (a source's items are not next to each other)."""
    rows = []
    for k in range(3):
        for i in range(n_sources):
            number = len(rows)
            summary = summaries_of(i)[k] + (f" {MARK}." if number in broken else "")
            rows.append({"id": f"doc-{number:04d}", "source": source_of(i, sentences), "summary": summary})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def run(data: Path, tmp: Path, name: str, workers: int, **kwargs) -> tuple[bytes, Meter]:
    out, meter = tmp / f"{name}.jsonl", Meter()
    with Dataset(str(data)) as ds:
        info = ds.validate()
        result = run_dataset_sync(ds, info, spec=ScorerSpec.make("offline/lexical", OPTIONS), store_path=tmp / f"{name}.db",
                                outputs=RunOutputs(out=str(out), step_summary=False), meter=meter,
                                workers=workers, **kwargs)
    assert not result.interrupted
    return out.read_bytes(), meter


def test_two_workers_write_the_same_out_as_one(tmp_path):
    data = write_items(tmp_path / "d.jsonl", 40)
    one, meter_one = run(data, tmp_path, "one", workers=1)
    two, meter_two = run(data, tmp_path, "two", workers=2)
    assert one == two
    lines = [json.loads(line) for line in two.decode().splitlines()]
    assert [r["id"] for r in lines] == [f"doc-{i:04d}" for i in range(120)]  # input order
    assert all(r["error"] is None for r in lines)
    assert len({r["score"] for r in lines}) > 1
    # each source's questions made once in both: the worker grouped a source's items together
    assert meter_two.done == 120 and meter_two.calls == meter_one.calls


def test_a_failure_in_a_worker_is_recorded_for_its_item_and_the_others_go_on(tmp_path):
    broken = {3, 50, 51, 119}
    data = write_items(tmp_path / "d.jsonl", 40, broken=broken)
    two, meter = run(data, tmp_path, "two", workers=2, judge_factory=breaks_on_mark)
    lines = [json.loads(line) for line in two.decode().splitlines()]
    failed = {i for i, r in enumerate(lines) if r["error"] is not None}
    assert failed == broken
    assert all("the judge broke on this summary" in lines[i]["error"] for i in broken)
    assert all(lines[i]["score"] is not None for i in range(120) if i not in broken)
    assert meter.errors == len(broken) and meter.failed_calls >= len(broken)
    # and the items that did not fail are scored as one process scores them
    one, _ = run(data, tmp_path, "one", workers=1, judge_factory=breaks_on_mark)
    assert one == two


def test_a_judge_that_waits_on_a_server_keeps_one_process():
    assert worker_count(4, cpu_bound=False, pending=10_000) == 1
    assert worker_count(3, cpu_bound=True, pending=10) == 3  # asked for: given
    assert worker_count(None, cpu_bound=True, pending=150) == 1  # default: one per 100 pending items at most
    assert 1 <= worker_count(None, cpu_bound=True, pending=10_000) <= (os.cpu_count() or 1)


def test_tasks_keep_a_sources_items_together_and_hold_every_row_once():
    rows = [(n, f"s{n % 7}") for n in range(100)] + [(100 + n, "big") for n in range(150)]
    tasks = list(chunks_by_source(rows, lambda r: r[1], chunk=16, per_source=64, window=512))
    assert sorted(r for t in tasks for r in t) == sorted(rows)
    for name in {f"s{k}" for k in range(7)}:
        assert sum(any(r[1] == name for r in t) for t in tasks) == 1  # one task per small source
    assert sum(any(r[1] == "big" for r in t) for t in tasks) == 3  # 150 items: split in 64s
    assert max(len(t) for t in tasks) <= 64


class StopAfter:
    """Batch events that stop the run, as Ctrl-C would, once ``n`` items are committed."""

    def __init__(self, n: int) -> None:
        self.n, self.seen = n, 0

    def started(self, run: Any, *, resumed: bool, already_done: int, total: int) -> None:
        pass

    def item_done(self, outcome: Any) -> None:
        self.seen += 1
        if self.seen == self.n:
            raise KeyboardInterrupt

    def scoring_ended(self) -> None:
        pass


def test_a_run_stopped_between_two_records_resumes_to_the_out_of_an_uninterrupted_one(tmp_path):
    # A source's first item makes its questions (one judge call more in its usage). Stopped after a
    # task's second record, a run that committed item by item kept two of the first source's three
    # items: resumed, the third made the questions again and its line said "calls": 3, not 2.
    data = write_items(tmp_path / "d.jsonl", 40)
    single, _ = run(data, tmp_path, "single", workers=1)
    out, store = tmp_path / "stopped.jsonl", tmp_path / "stopped.db"
    with Dataset(str(data)) as ds:
        info = ds.validate()
        stopped = run_dataset_sync(ds, info, spec=ScorerSpec.make("offline/lexical", OPTIONS), store_path=store,
                                 outputs=RunOutputs(out=str(out), step_summary=False), workers=2,
                                 events=StopAfter(2))
        assert stopped.interrupted
        saved = stopped.stats.count
        assert 0 < saved < 120 and saved % 3 == 0  # whole tasks: every source's items, or none
        resumed = run_dataset_sync(ds, info, spec=ScorerSpec.make("offline/lexical", OPTIONS), store_path=store,
                                 outputs=RunOutputs(out=str(out), step_summary=False), workers=2)
    assert not resumed.interrupted
    assert out.read_bytes() == single


# -- a killed run ---------------------------------------------------------------------------------


def finished(db: Path) -> int:
    if not db.exists():
        return 0
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return int(con.execute("SELECT COUNT(*) FROM items WHERE status = 'ok'").fetchone()[0])
    except sqlite3.OperationalError:  # tables not created yet
        return 0
    finally:
        con.close()


def descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = {int(c) for c in (task / "children").read_text().split()}
            except OSError:
                continue
            todo.extend(children - found)
            found |= children
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _sigint_as_in_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from /proc")
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "sigkill"])
def test_a_killed_multi_worker_run_resumes_with_nothing_lost_and_no_process_left(tmp_path, how):
    # long sources: the tasks waiting for a worker fill the pipe to it (a stop must not hang on that)
    data = write_items(tmp_path / "d.jsonl", 50, sentences=40)
    store, out = tmp_path / "runs.db", tmp_path / "out.jsonl"
    cmd = [sys.executable, "-m", "sumjudge.cli", "score", str(data), "--model", "offline/lexical", "--workers", "2",
           "--store", str(store), "--out", str(out), "--quiet"]
    # its own process group, as a command typed in a terminal: Ctrl-C reaches every process in it; and
    # SIGINT as a terminal leaves it: a test run started in the background by a non-interactive shell
    # (`make test &`) inherits SIGINT ignored, and the command would rightly ignore the Ctrl-C too
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_sigint_as_in_a_terminal)
    try:
        deadline = time.monotonic() + 300
        while finished(store) < 32:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "the run made no progress"
            time.sleep(0.05)
        workers = descendants(proc.pid)
        assert len(workers) >= 2  # the workers (and the forkserver)
        if how == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGTERM if how == "sigterm" else signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        if proc.stderr:
            proc.stderr.close()
    assert proc.returncode == {"ctrl-c": 130, "sigterm": 143, "sigkill": -signal.SIGKILL}[how]
    deadline = time.monotonic() + 30
    while any(alive(p) for p in workers):
        assert time.monotonic() < deadline, f"processes left behind: {[p for p in workers if alive(p)]}"
        time.sleep(0.1)
    saved = finished(store)
    assert 32 <= saved < 150
    if how != "sigkill":  # --out is written with what was saved
        assert len(out.read_text().splitlines()) == saved

    again = subprocess.run(cmd, capture_output=True, timeout=600)
    assert again.returncode == 0, again.stderr.decode()
    single = tmp_path / "single.jsonl"
    fresh = subprocess.run([*cmd[:-7], "--workers", "1", "--store", str(tmp_path / "single.db"), "--out", str(single),
                            "--quiet"], capture_output=True, timeout=600)
    assert fresh.returncode == 0, fresh.stderr.decode()
    assert out.read_bytes() == single.read_bytes()
