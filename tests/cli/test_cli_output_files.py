"""Hostile use: outputs aimed at devices, FIFOs and sockets are written
into as they are or refused, never renamed over; a full disk, a file-size limit or a read-only file
system is one line naming the file and the cause, with no temporary file left and the store intact; a
store on such a file system is said to be there, never "damaged"; ``runs export -o`` refuses the run's
data file, its reply cache and another store; a store of another schema is one line naming both versions."""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from probe_rows import ROWS

from cli_invoke import invoke

OFFLINE = "offline/lexical"
SOURCE = "The council approved 120 homes on Tuesday. Building starts in May. The mayor praised the plan."
SUMMARIES = ["The council approved 120 homes on Tuesday.", "Building starts in May.", "The mayor praised the plan."]


def data_file(tmp_path: Path, rows: int = 3, name: str = "d.jsonl", pad: int = 0) -> Path:
    path = tmp_path / name
    lines = [json.dumps({"id": f"doc-{i}", "source": SOURCE + " x" * pad, "summary": SUMMARIES[i % 3]})
             for i in range(rows)]
    path.write_text("".join(line + "\n" for line in lines))
    return path


def score(tmp_path: Path, data: Path, *args: str, store: Path | None = None) -> tuple[int, str]:
    return invoke("score", str(data), "--model", OFFLINE, "--store", str(store or tmp_path / "runs.db"), "--quiet",
                  *args)


def temporary_files(folder: Path) -> list[Path]:
    return sorted(folder.glob(".*.tmp"))


# -- point 1: a device, a FIFO or a socket is never replaced by a regular file -----------------------


class FifoReader:
    """A FIFO with a reader thread that keeps what was written into it (the bounded join unblocks it)."""

    def __init__(self, path: Path) -> None:
        os.mkfifo(path)
        self.path, self.data = path, b""
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with open(self.path, "rb") as fh:
            self.data = fh.read()

    def finish(self) -> bytes:
        # A reader still blocked in open() (the command never opened the FIFO) is released by opening the
        # write end once. ENXIO means no reader holds the FIFO at that instant: either the reader already
        # saw the command's end of file and is returning, or it has not reached open() yet; the join decides
        # which, and the open is tried again only while the thread lives.
        for _ in range(600):
            if not self.thread.is_alive():
                break
            try:
                os.close(os.open(self.path, os.O_WRONLY | os.O_NONBLOCK))
            except OSError as error:
                if error.errno != errno.ENXIO:
                    raise
            self.thread.join(timeout=0.1)
        assert not self.thread.is_alive()
        return self.data


def _two_runs(tmp_path: Path) -> tuple[str, str]:
    data = data_file(tmp_path)
    assert score(tmp_path, data)[0] == 0
    assert score(tmp_path, data, "--fresh")[0] == 0
    with sqlite3.connect(tmp_path / "runs.db") as db:
        a, b = [r[0] for r in db.execute("SELECT id FROM runs ORDER BY created_at")]
    return a, b


COMMANDS = {
    "score --out": lambda tmp, target: score(tmp, data_file(tmp), "--out", str(target)),
    "score --report": lambda tmp, target: score(tmp, data_file(tmp), "--report", str(target)),
    "score --junit": lambda tmp, target: score(tmp, data_file(tmp), "--junit", str(target)),
    "runs export -o": lambda tmp, target: (
        score(tmp, data_file(tmp)), invoke("runs", "export", "latest", "--store", str(tmp / "runs.db"), "-o", str(target))
    )[1],
    "compare --report": lambda tmp, target: invoke(
        "compare", *_two_runs(tmp), "--store", str(tmp / "runs.db"), "--report", str(target)),
    "probe --report": lambda tmp, target: invoke(
        "probe", str(_probe_rows(tmp)), "--model", OFFLINE, "--store", str(tmp / "runs.db"), "--per-kind", "1",
        "--quiet", "--report", str(target)),
}
EXPECTED = {"score --out": b'"id": "doc-0"', "score --report": b"<html", "score --junit": b"<testsuite",
            "runs export -o": b'"id": "doc-0"', "compare --report": b"<html", "probe --report": b"<html"}


def _probe_rows(tmp: Path) -> Path:
    path = tmp / "rows.jsonl"
    path.write_text("".join(json.dumps(r.model_dump()) + "\n" for r in ROWS if r.id != "arabic"), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_output_aimed_at_a_fifo_is_written_into_it_and_the_fifo_stays(tmp_path: Path, command: str) -> None:
    fifo = FifoReader(tmp_path / "pipe")
    code, text = COMMANDS[command](tmp_path, fifo.path)
    written = fifo.finish()
    assert stat.S_ISFIFO(os.stat(fifo.path).st_mode), f"{command} replaced the FIFO with a regular file"
    assert code in (0, 1), text  # probe: its gates decide
    assert EXPECTED[command] in written
    assert temporary_files(tmp_path) == []


def test_dev_null_and_dev_stdout_are_written_in_place_never_replaced(tmp_path: Path) -> None:
    # Only the decision is tested on the real /dev: a build without the fix would replace the machine's
    # /dev/null (as root) if this test wrote there. The writes go to a device node made in tmp_path below.
    from sumjudge.data.files import AtomicFile

    for target in ("/dev/null", "/dev/stdout"):
        before = os.lstat(target)
        opened = AtomicFile(target, option="--out")
        try:
            assert opened.in_place and opened.tmp == Path(target)
        finally:
            opened.discard()
        after = os.lstat(target)
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert not list(Path("/dev").glob(".*.tmp"))


def test_a_socket_is_refused_with_one_line_and_stays_a_socket(tmp_path: Path) -> None:
    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    try:
        code, text = score(tmp_path, data_file(tmp_path), "--out", str(path))
        assert code == 2 and "socket" in text and len(set(text.strip().splitlines())) == 1, text
        assert stat.S_ISSOCK(os.stat(path).st_mode)
        assert not (tmp_path / "runs.db").exists()  # refused before the run began
    finally:
        server.close()


# -- point 2: a full disk, a file-size limit, a read-only file system ---------------------------------


def _mounted(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip("mounting a tmpfs is not permitted here")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@pytest.fixture
def tiny_fs(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs (as root, where mounting is permitted; else the test is skipped)."""
    yield from _mounted(tmp_path / "tiny", "64k")


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs: room for a run store (its WAL and shared-memory files), then filled by the test."""
    yield from _mounted(tmp_path / "small", "1m")


def _intact(store: Path, items: int) -> None:
    with sqlite3.connect(store) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*) FROM items").fetchone()[0] == items


def test_a_full_disk_during_out_is_one_line_naming_the_file_and_enospc(tmp_path: Path, tiny_fs: Path) -> None:
    data = data_file(tmp_path, rows=40, pad=400)  # about 150 KiB of --out lines: more than the 64 KiB there
    out = tiny_fs / "out.jsonl"
    code, text = score(tmp_path, data, "--out", str(out))
    assert code == 2, text
    assert "--out" in text and str(out) in text and "ENOSPC" in text, text
    assert temporary_files(tiny_fs) == [] and not out.exists()
    _intact(tmp_path / "runs.db", 40)


def test_a_full_disk_under_the_report_keeps_an_old_report(tmp_path: Path, tiny_fs: Path) -> None:
    data = data_file(tmp_path, rows=40, pad=400)
    report = tiny_fs / "r.html"
    report.write_text("old report")
    code, text = score(tmp_path, data, "--report", str(report))
    assert code == 2 and "--report" in text and "ENOSPC" in text, text
    assert report.read_text() == "old report" and temporary_files(tiny_fs) == []


def test_a_read_only_file_system_is_named_with_erofs(tmp_path: Path, tiny_fs: Path) -> None:
    assert subprocess.run(["mount", "-o", "remount,ro", str(tiny_fs)]).returncode == 0
    code, text = score(tmp_path, data_file(tmp_path), "--out", str(tiny_fs / "out.jsonl"))
    assert code == 2 and "EROFS" in text and "--out" in text, text


def test_a_store_on_a_full_file_system_says_so_and_never_damaged(tmp_path: Path, small_fs: Path) -> None:
    tiny_fs = small_fs
    store = tiny_fs / "runs.db"
    assert score(tmp_path, data_file(tmp_path), store=store)[0] == 0
    with sqlite3.connect(store) as db:
        kept = db.execute("SELECT COUNT(*) FROM items").fetchone()[0]
    filler = tiny_fs / "filler"
    fd = os.open(filler, os.O_CREAT | os.O_WRONLY)
    try:  # fill what is left of the 1 MiB
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    code, text = score(tmp_path, data_file(tmp_path, rows=30, pad=200, name="e.jsonl"), store=store)
    assert code == 2, text
    assert "full" in text and "damaged" not in text and "lost" not in text, text
    filler.unlink()
    _intact(store, kept)


def test_a_store_on_a_read_only_file_system_says_so(tmp_path: Path, small_fs: Path) -> None:
    tiny_fs = small_fs
    store = tiny_fs / "runs.db"
    assert score(tmp_path, data_file(tmp_path), store=store)[0] == 0
    assert subprocess.run(["mount", "-o", "remount,ro", str(tiny_fs)]).returncode == 0
    code, text = score(tmp_path, data_file(tmp_path), "--fresh", store=store)
    assert code == 2 and "read-only" in text and "damaged" not in text and "lost" not in text, text
    assert invoke("runs", "list", "--store", str(store))[0] == 0  # still read as it is


def _limited(limit: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write then fails with EFBIG instead of killing
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_file_size_limit_is_one_line_naming_efbig(tmp_path: Path) -> None:
    data = data_file(tmp_path, rows=40, pad=400)
    store = tmp_path / "runs.db"
    assert score(tmp_path, data)[0] == 0
    out = tmp_path / "out.jsonl"
    out.write_text("old lines\n")
    command = [sys.executable, "-m", "sumjudge.cli", "runs", "export", "latest", "--store", str(store), "-o", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, preexec_fn=lambda: _limited(32 * 1024), timeout=120)
    assert done.returncode == 2, done.stderr
    assert "EFBIG" in done.stderr and str(out) in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert out.read_text() == "old lines\n" and temporary_files(tmp_path) == []
    _intact(store, 40)


# -- point 3: runs export -o onto the run's data file, a --cache-path cache, another store ------------


def test_runs_export_refuses_the_runs_data_file_its_cache_and_another_store(tmp_path: Path) -> None:
    data = data_file(tmp_path)
    cache = tmp_path / "replies.db"
    store = tmp_path / "runs.db"
    assert score(tmp_path, data, "--cache-path", str(cache))[0] == 0
    other = tmp_path / "other.db"
    assert score(tmp_path, data, store=other)[0] == 0
    for target, said in ((data, "data file"), (cache, "cache"), (other, "SQLite")):
        before = target.read_bytes()
        code, text = invoke("runs", "export", "latest", "--store", str(store), "-o", str(target))
        assert code == 2 and said in text, text
        assert target.read_bytes() == before
    assert invoke("runs", "export", "latest", "--store", str(store), "-o", str(tmp_path / "x.jsonl"))[0] == 0


def test_runs_export_refuses_the_data_file_from_another_folder(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "work").mkdir()
    data = data_file(tmp_path / "work")
    monkeypatch.chdir(tmp_path / "work")
    assert invoke("score", "d.jsonl", "--model", OFFLINE, "--store", str(tmp_path / "runs.db"), "--quiet")[0] == 0
    monkeypatch.chdir(tmp_path)
    before = data.read_bytes()
    code, text = invoke("runs", "export", "latest", "--store", "runs.db", "-o", "work/d.jsonl")
    assert code == 2 and "data file" in text and data.read_bytes() == before


# -- point 4: a store of a newer or different schema ---------------------------------------------------


def test_a_store_of_a_newer_schema_is_one_line_naming_both_versions(tmp_path: Path) -> None:
    store = tmp_path / "runs.db"
    assert score(tmp_path, data_file(tmp_path))[0] == 0
    with sqlite3.connect(store) as db:
        db.execute("PRAGMA user_version = 7")
    before = store.read_bytes()
    for args in (("runs", "list", "--store", str(store)), ("score", str(data_file(tmp_path)), "--model", OFFLINE,
                                                           "--store", str(store), "--quiet", "--fresh")):
        code, text = invoke(*args)
        assert code == 2 and "schema version 7" in text and "schema version 1" in text, text
        assert len(set(text.strip().splitlines())) == 1
    assert store.read_bytes() == before


def test_a_store_with_a_renamed_column_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    store = tmp_path / "runs.db"
    assert score(tmp_path, data_file(tmp_path))[0] == 0
    with sqlite3.connect(store) as db:
        db.execute("ALTER TABLE items RENAME COLUMN score TO total")
    for args in (("runs", "export", "latest", "--store", str(store)), ("runs", "show", "latest", "--store", str(store)),
                 ("score", str(data_file(tmp_path)), "--model", OFFLINE, "--store", str(store), "--quiet")):
        code, text = invoke(*args)
        assert code == 2 and "different schema" in text and "total" in text and "schema version" in text, text


def test_a_new_store_records_its_schema_version(tmp_path: Path) -> None:
    assert score(tmp_path, data_file(tmp_path))[0] == 0
    with sqlite3.connect(tmp_path / "runs.db") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1


def _node(path: Path, kind: int, major: int, minor: int) -> Path:
    try:
        os.mknod(path, kind | 0o666, os.makedev(major, minor))
    except (PermissionError, OSError):
        pytest.skip("making device nodes is not permitted here")
    return path


def test_a_character_device_in_any_folder_is_written_into_and_stays(tmp_path: Path) -> None:
    null = _node(tmp_path / "null", stat.S_IFCHR, 1, 3)  # the kernel's /dev/null, under another name
    for option in ("--out", "--report", "--junit"):
        code, text = score(tmp_path, data_file(tmp_path), option, str(null))
        assert code == 0, text
        assert stat.S_ISCHR(os.stat(null).st_mode), f"{option} replaced the device with a regular file"
    assert temporary_files(tmp_path) == []


def test_a_block_device_is_refused_with_one_line(tmp_path: Path) -> None:
    block = _node(tmp_path / "disk", stat.S_IFBLK, 7, 0)
    code, text = score(tmp_path, data_file(tmp_path), "--out", str(block))
    assert code == 2 and "block device" in text and len(set(text.strip().splitlines())) == 1, text
    assert stat.S_ISBLK(os.stat(block).st_mode) and not (tmp_path / "runs.db").exists()


def test_temporary_files_a_killed_run_left_are_removed_by_the_next_write_and_a_live_ones_kept(tmp_path: Path) -> None:
    data = data_file(tmp_path)
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(done.stdout)
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        left = [tmp_path / f".out.jsonl.{dead}.abc123.tmp", tmp_path / f".r.html.{dead}.def456.tmp"]
        kept = tmp_path / f".out.jsonl.{live.pid}.ghi789.tmp"
        for path in (*left, kept):
            path.write_bytes(b"")
        code, text = score(tmp_path, data, "--out", str(tmp_path / "out.jsonl"), "--report", str(tmp_path / "r.html"))
        assert code == 0, text
        assert not any(p.exists() for p in left) and kept.exists()
        assert temporary_files(tmp_path) == [kept]
    finally:
        live.kill()
        live.wait()
