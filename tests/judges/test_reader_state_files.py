"""Read sources kept on disk (``sumjudge.judges.state_files``): whole files only, bounded, keyed by
the model and the head; the real model's use of them is in tests/test_reader_judge.py."""

from __future__ import annotations

import os
import time
from pathlib import Path

from sumjudge.judges.state_files import StateFiles, states_dir


def test_a_state_comes_back_as_it_was_put_and_only_for_the_same_model_and_head(tmp_path: Path) -> None:
    files = StateFiles("model A", 10_000, tmp_path)
    files.put((1, 2, 3), b"state of 1 2 3")
    assert files.get((1, 2, 3)) == b"state of 1 2 3"
    assert files.get((1, 2)) is None
    assert StateFiles("model B", 10_000, tmp_path).get((1, 2, 3)) is None
    assert StateFiles(lambda: "model A", 10_000, tmp_path).get((1, 2, 3)) == b"state of 1 2 3"  # identity said late
    assert [p.suffix for p in tmp_path.iterdir()] == [".state"]  # no temporary file left


def test_a_damaged_or_cut_file_is_dropped_not_used(tmp_path: Path) -> None:
    files = StateFiles("m", 10_000, tmp_path)
    files.put((1,), b"x" * 100)
    path = files.path((1,))
    path.write_bytes(path.read_bytes()[:-1])  # cut short
    assert files.get((1,)) is None and not path.exists()
    files.put((1,), b"x" * 100)
    blob = bytearray(path.read_bytes())
    blob[-1] ^= 1  # one bit changed
    path.write_bytes(bytes(blob))
    assert files.get((1,)) is None and not path.exists()


def test_the_folder_stays_within_its_bytes_least_recently_used_out(tmp_path: Path) -> None:
    files = StateFiles("m", 3 * 200, tmp_path)
    for i in range(3):
        files.put((i,), bytes(150))
        old = time.time() - 100 + i
        os.utime(files.path((i,)), (old, old))
    assert files.get((0,)) is not None  # used: now the most recent
    files.put((3,), bytes(150))
    assert files.bytes() <= 600
    assert files.get((1,)) is None and files.get((0,)) is not None and files.get((3,)) is not None
    StateFiles("m", 100, tmp_path).put((9,), bytes(150))  # larger than the whole bound: not kept
    assert not StateFiles("m", 100, tmp_path).path((9,)).exists()
    off = StateFiles("m", 0, tmp_path / "off")
    off.put((1,), b"x")
    assert off.get((1,)) is None and not (tmp_path / "off").exists()


def test_the_folder_is_beside_the_models_in_the_users_cache(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert states_dir() == tmp_path / "sumjudge" / "states"
