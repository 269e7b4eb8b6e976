"""`sumjudge score` never destroys a file it was given, and its gates count failed items."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.testing.judge_server import Fault, Reply

MODEL = "openai/test-model"


def write_rows(path: Path, n: int) -> Path:
    rows = [{"id": f"doc-{i}", "source": f"Source {i}: the council approved {i} homes.", "summary": f"Summary {i}."}
            for i in range(1, n + 1)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def run(*args: str):
    result = CliRunner().invoke(main, ["score", *args], catch_exceptions=False)
    return result.exit_code, result.output + (getattr(result, "stderr", "") or "")


def stored_runs(store: Path) -> list[tuple[str, str]]:
    if not store.exists():
        return []
    with sqlite3.connect(store) as db:
        return list(db.execute("SELECT id, status FROM runs"))


# -- item 2: an output that is an input, or another output, is refused before any call ----------


def test_out_naming_the_input_is_refused_and_the_input_kept(tmp_path: Path, server) -> None:
    data = write_rows(tmp_path / "d.jsonl", 3)
    before = data.read_bytes()
    code, output = run(str(data), "--model", MODEL, "--out", str(data), "--store", str(tmp_path / "runs.db"))
    assert code == 2
    assert "--out" in output and "data file" in output
    assert data.read_bytes() == before
    assert server.chat_requests() == []
    assert stored_runs(tmp_path / "runs.db") == []


@pytest.mark.parametrize("option", ["--out", "--report"])
def test_an_output_naming_the_run_store_is_refused_and_every_run_kept(tmp_path: Path, server, option: str) -> None:
    data = write_rows(tmp_path / "d.jsonl", 2)
    store = tmp_path / "runs.db"
    assert run(str(data), "--model", MODEL, "--store", str(store), "--quiet")[0] == 0
    calls = len(server.chat_requests())
    code, output = run(str(data), "--model", MODEL, "--store", str(store), "--fresh", option, str(store))
    assert code == 2
    assert "run store" in output
    assert len(stored_runs(store)) == 1  # the recorded run is still there, readable
    assert len(server.chat_requests()) == calls


def test_out_and_report_on_one_path_are_refused(tmp_path: Path, server) -> None:
    data = write_rows(tmp_path / "d.jsonl", 2)
    same = tmp_path / "x" / ".." / "result"
    code, output = run(str(data), "--model", MODEL, "--store", str(tmp_path / "runs.db"),
                       "--out", str(same), "--report", str(tmp_path / "result"))
    assert code == 2 and "--report" in output
    assert server.chat_requests() == []


def test_an_unwritable_out_fails_before_the_run_and_leaves_no_run_running(tmp_path: Path, server) -> None:
    data = write_rows(tmp_path / "d.jsonl", 2)
    blocker = tmp_path / "file.txt"
    blocker.write_text("a file, not a folder")
    store = tmp_path / "runs.db"
    code, output = run(str(data), "--model", MODEL, "--store", str(store), "--out", str(blocker / "out.jsonl"))
    assert code == 2
    assert "cannot write --out" in output
    assert server.chat_requests() == []
    assert all(status != "running" for _, status in stored_runs(store))


def test_an_existing_out_is_replaced_whole_only_when_the_run_ends(tmp_path: Path, server) -> None:
    data = write_rows(tmp_path / "d.jsonl", 3)
    out = tmp_path / "out.jsonl"
    out.write_text("old content\n")
    assert run(str(data), "--model", MODEL, "--store", str(tmp_path / "runs.db"), "--out", str(out), "--quiet")[0] == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in lines] == ["doc-1", "doc-2", "doc-3"]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # no temporary file left behind


# -- item 13: --out lines come in input order, whatever order the items finish in ---------------


def test_out_is_in_input_order_when_the_first_item_finishes_last(tmp_path: Path, server) -> None:
    data = write_rows(tmp_path / "d.jsonl", 6)
    server.script(Reply(delay=1.0), step="alignment")  # the first item's alignment answers last
    out = tmp_path / "out.jsonl"
    code, _ = run(str(data), "--model", MODEL, "--store", str(tmp_path / "runs.db"), "--out", str(out),
                  "--concurrency", "6", "--quiet")
    assert code == 0
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == [f"doc-{i}" for i in range(1, 7)]


# -- item 4: failed items count against the gates --------------------------------------------


def test_a_gate_fails_when_most_items_were_never_scored(tmp_path: Path, server) -> None:
    data = write_rows(tmp_path / "d.jsonl", 20)
    server.script(*[Fault.status(401, "Incorrect API key provided")] * 17, step="alignment")
    code, output = run(str(data), "--model", MODEL, "--store", str(tmp_path / "runs.db"), "--fail-under", "0.0",
                       "--concurrency", "1")
    assert code == 1
    assert "17 of 20 item(s) could not be scored" in output
    assert "(17 failed, not in the mean)" in output  # the end table puts the errors next to the mean


@pytest.mark.parametrize(("allowance", "expected"), [("17", 0), ("16", 1), ("90%", 0), ("0.5", 1)])
def test_allow_errors_tolerates_a_count_or_a_share(tmp_path: Path, server, allowance: str, expected: int) -> None:
    data = write_rows(tmp_path / "d.jsonl", 20)
    server.script(*[Fault.status(401, "Incorrect API key provided")] * 17, step="alignment")
    code, _ = run(str(data), "--model", MODEL, "--store", str(tmp_path / "runs.db"), "--concurrency", "1",
                  "--allow-errors", allowance, "--quiet")
    assert code == expected


def test_allow_errors_rejects_nonsense(tmp_path: Path, server) -> None:
    data = write_rows(tmp_path / "d.jsonl", 2)
    code, output = run(str(data), "--model", MODEL, "--store", str(tmp_path / "runs.db"), "--allow-errors", "many")
    assert code == 2 and "--allow-errors" in output
