"""Hostile input to `sumjudge` gets one clear line and exit 2, never a traceback."""

from __future__ import annotations

import itertools
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.testing.judge_server import Fault, JudgeServer

OFFLINE = "offline/lexical"
SOURCE = "The council approved 120 homes on Tuesday. Building starts in May."


def invoke(*args: str):
    result = CliRunner().invoke(main, list(args))
    text = result.output + (getattr(result, "stderr", "") or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), text
    return result.exit_code, text


def score(tmp_path: Path, data: Path, *args: str):
    return invoke("score", str(data), "--model", OFFLINE, "--store", str(tmp_path / "runs.db"), "--quiet", *args)


# -- item 5: undecodable and odd files -------------------------------------------------------------


def test_a_cp1252_csv_names_the_row_and_the_option_and_reads_with_it(tmp_path: Path) -> None:
    data = tmp_path / "sheet.csv"
    data.write_bytes("id,source,summary\n1,Caf\xe9 opened in 1932.,The caf\xe9 opened.\n".encode("cp1252"))
    code, text = score(tmp_path, data)
    assert code == 2
    assert "not readable as utf-8" in text and "--encoding" in text and "line 2" in text
    code, text = score(tmp_path, data, "--encoding", "cp1252")
    assert code == 0, text


def test_binary_input_is_a_clear_error(tmp_path: Path) -> None:
    data = tmp_path / "blob.jsonl"
    data.write_bytes(b'{"source": "a", "summary": "b"}\n\x89PNG\r\n\x1a\n\x00\x00\xff\xfe')
    code, text = score(tmp_path, data)
    assert code == 2 and "row 2" in text and "--encoding" in text


def test_deeply_nested_json_is_a_clear_error(tmp_path: Path) -> None:
    data = tmp_path / "deep.jsonl"
    data.write_text('{"source": ' + "[" * 100_000 + "]" * 100_000 + ', "summary": "x"}\n')
    code, text = score(tmp_path, data)
    assert code == 2 and "nested too deeply" in text and "row 1" in text
    array = tmp_path / "deep.json"
    array.write_text("[" + "[" * 100_000 + "]" * 100_000 + "]")
    code, text = score(tmp_path, array)
    assert code == 2 and "nested too deeply" in text


@pytest.mark.parametrize(("name", "sep", "extra"), [("d.csv", ";", ()), ("d.tsv", "\t", ()), ("d.txt", "|", ("--format", "csv", "--delimiter", "|"))])
def test_delimiters_are_sniffed_taken_from_tsv_or_given(tmp_path: Path, name: str, sep: str, extra: tuple) -> None:
    data = tmp_path / name
    data.write_text(f"id{sep}source{sep}summary\n1{sep}{SOURCE}{sep}The council approved 120 homes.\n")
    code, text = score(tmp_path, data, "--out", str(tmp_path / "out.jsonl"), *extra)
    assert code == 0, text
    (line,) = (tmp_path / "out.jsonl").read_text().splitlines()
    assert json.loads(line)["id"] == "1"


def test_a_missing_field_lists_the_columns_and_points_at_the_option(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"article": SOURCE, "summary": "x"}) + "\n")
    code, text = score(tmp_path, data)
    assert code == 2
    assert "'article'" in text and "--source-field" in text


def test_a_duplicated_column_or_key_is_an_error(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_text(f"source,summary,summary\n{SOURCE},one,two\n")
    code, text = score(tmp_path, data)
    assert code == 2 and "'summary' more than once" in text
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text('{"source": "a", "summary": "one", "summary": "two"}\n')
    code, text = score(tmp_path, jsonl)
    assert code == 2 and "occurs twice" in text


def test_an_unknown_encoding_is_named(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"source": SOURCE, "summary": "x"}) + "\n")
    code, text = score(tmp_path, data, "--encoding", "klingon")
    assert code == 2 and "unknown encoding 'klingon'" in text


# -- item 6: rich markup in user strings --------------------------------------------------------


def test_markup_in_a_file_name_neither_crashes_score_nor_runs_list(tmp_path: Path) -> None:
    (tmp_path / "a[").mkdir()
    data = tmp_path / "a[/b].jsonl"  # a folder 'a[' and a file 'b].jsonl': '[/b]' closes a tag that is not open
    data.write_text(json.dumps({"id": "[bold]x[/]", "source": SOURCE, "summary": "The council approved 120 homes."}) + "\n")
    result = CliRunner().invoke(main, ["score", str(data), "--model", OFFLINE, "--store", str(tmp_path / "runs.db")])
    assert result.exit_code == 0, result.output
    code, text = invoke("runs", "list", "--store", str(tmp_path / "runs.db"))
    assert code == 0 and "a[/b].jsonl" in text
    code, text = invoke("runs", "show", "latest", "--store", str(tmp_path / "runs.db"))
    assert code == 0 and "a[/b].jsonl" in text


# -- item 7: damaged and read-only stores, SIGTERM -----------------------------------------------


def make_store(tmp_path: Path) -> Path:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"source": SOURCE, "summary": "The council approved 120 homes."}) + "\n")
    assert score(tmp_path, data)[0] == 0
    return tmp_path / "runs.db"


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_store_is_one_line_naming_the_file(tmp_path: Path, damage: str) -> None:
    store = make_store(tmp_path)
    with sqlite3.connect(store) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw = store.read_bytes()
    store.write_bytes(b"this is not a database at all" * 100 if damage == "garbage" else raw[: len(raw) // 3])
    for args in (("runs", "list"), ("runs", "show", "latest"), ("runs", "export", "latest")):
        code, text = invoke(*args, "--store", str(store))
        assert code == 2, (args, text)
        assert str(store) in text and "Traceback" not in text
    data = tmp_path / "d.jsonl"
    code, text = score(tmp_path, data)
    assert code == 2 and str(store) in text


def test_reading_commands_never_write_to_the_store(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    with sqlite3.connect(store) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for side in (Path(str(store) + "-wal"), Path(str(store) + "-shm")):
        side.unlink(missing_ok=True)
    before = (store.read_bytes(), store.stat().st_mtime_ns)
    for args in (("runs", "list"), ("runs", "show", "latest"), ("runs", "export", "latest")):
        assert invoke(*args, "--store", str(store))[0] == 0
    assert (store.read_bytes(), store.stat().st_mtime_ns) == before


def test_the_store_and_cache_are_created_owner_only(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"source": SOURCE, "summary": "The council approved 120 homes."}) + "\n")
    cache = tmp_path / "c" / "cache.db"
    assert score(tmp_path, data, "--cache-path", str(cache))[0] == 0
    for path in (tmp_path / "runs.db", cache):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def _score_process(tmp_path: Path, server: JudgeServer, n: int) -> tuple[list[str], dict[str, str]]:
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"id": f"d{i}", "source": f"{SOURCE} Item {i}.", "summary": "Homes."}) + "\n"
                            for i in range(n)))
    env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}
    cmd = [sys.executable, "-m", "sumjudge.cli", "score", str(data), "--model", "openai/test-model",
           "--concurrency", "2", "--store", str(tmp_path / "runs.db")]
    return cmd, env


def _wait_for_items(store: Path, at_least: int, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, "the run made no progress"
        if store.exists():
            try:
                with sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5) as db:
                    if db.execute("SELECT COUNT(*) FROM items").fetchone()[0] >= at_least:
                        return
            except sqlite3.OperationalError:
                pass
        time.sleep(0.05)


@pytest.mark.integration
def test_sigterm_saves_the_run_like_ctrl_c(tmp_path: Path) -> None:
    with JudgeServer(latency=0.1) as server:
        cmd, env = _score_process(tmp_path, server, 30)
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            _wait_for_items(tmp_path / "runs.db", 2, proc)
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert proc.returncode == 143, err
        assert "interrupted" in err and "Run the same command again to resume" in err
        with sqlite3.connect(tmp_path / "runs.db") as db:
            assert db.execute("SELECT status FROM runs").fetchone()[0] == "interrupted"
        again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        assert again.returncode == 0, again.stderr
        assert "resuming run" in again.stderr


# -- item 8: two identical commands on one store ------------------------------------------------


@pytest.mark.integration
@pytest.mark.slow
def test_a_second_identical_command_says_who_holds_the_run(tmp_path: Path) -> None:
    with JudgeServer() as server:
        # the first command is held after its first items (6 calls, 2 items at a time: at least one
        # item whole) until the second has answered, however slowly either process starts
        release, answered, inner = threading.Event(), itertools.count(), server.brain

        def held(request):
            if next(answered) >= 6:
                release.wait(120)
            return inner(request)

        server.brain = held
        cmd, env = _score_process(tmp_path, server, 20)
        first = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            _wait_for_items(tmp_path / "runs.db", 1, first)
            second = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
            release.set()
            assert second.returncode == 2
            assert f"process {first.pid}" in second.stderr and "--fresh" in second.stderr
            _, err = first.communicate(timeout=120)
            assert first.returncode == 0, err
        finally:
            release.set()
            if first.poll() is None:
                first.kill()
        calls = len(server.chat_requests())
    assert calls == 20 * 3  # every item judged once, not twice


def test_a_lock_left_by_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    import socket

    with sqlite3.connect(store) as db:
        run_id = db.execute("SELECT id FROM runs").fetchone()[0]
        db.execute("INSERT OR REPLACE INTO run_locks VALUES (?, ?, ?, ?)",
                   (run_id, int(dead.stdout), socket.gethostname(), time.time()))
    code, text = score(tmp_path, tmp_path / "d.jsonl")
    assert code == 0, text


# -- item 9: credentials never reach a record ---------------------------------------------------


@pytest.mark.integration
def test_credentials_in_a_base_url_or_key_are_redacted_from_errors(tmp_path: Path, monkeypatch) -> None:
    with JudgeServer() as server:
        host = server.base_url.replace("http://", "")
        monkeypatch.setenv("VLLM_BASE_URL", f"http://alice:s3cr3t-pw@{host}")  # a key beside it: refused
        monkeypatch.setenv("OPENAI_API_KEY", "sk-live-abcdef123456")
        server.brain = lambda request: Fault.status(
            400, f"bad request to http://alice:s3cr3t-pw@{host} with key sk-live-abcdef123456"
        )
        data = tmp_path / "d.jsonl"
        data.write_text(json.dumps({"source": SOURCE, "summary": "x"}) + "\n")
        out = tmp_path / "out.jsonl"
        code, text = invoke("score", str(data), "--model", "vllm/test-model", "--store", str(tmp_path / "runs.db"),
                            "--out", str(out), "--timeout", "5")
    assert code == 1
    recorded = out.read_text() + (tmp_path / "runs.db").read_bytes().decode("utf-8", "replace") + text
    assert "HTTP 400" in out.read_text()
    assert "s3cr3t-pw" not in recorded and "sk-live-abcdef123456" not in recorded
