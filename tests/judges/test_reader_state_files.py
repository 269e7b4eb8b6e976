"""Read sources kept on disk (``sumjudge.judges.state_files``): whole files only, bounded, keyed by
the model and the head; the real model's use of them is in tests/test_reader_judge.py."""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path

import pytest

from sumjudge.judges.state_files import HEADER_BYTES, StateFiles, states_dir


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
    files = StateFiles("m", 3 * (150 + HEADER_BYTES), tmp_path)
    for i in range(3):
        files.put((i,), bytes(150))
        old = time.time() - 100 + i
        os.utime(files.path((i,)), (old, old))
    assert files.get((0,)) is not None  # used: now the most recent
    files.put((3,), bytes(150))
    assert files.bytes() <= 3 * (150 + HEADER_BYTES)
    assert files.get((1,)) is None and files.get((0,)) is not None and files.get((3,)) is not None
    StateFiles("m", 100, tmp_path).put((9,), bytes(150))  # larger than the whole bound: not kept
    assert not StateFiles("m", 100, tmp_path).path((9,)).exists()
    off = StateFiles("m", 0, tmp_path / "off")
    off.put((1,), b"x")
    assert off.get((1,)) is None and not (tmp_path / "off").exists()


def test_the_folder_is_beside_the_models_in_the_users_cache(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert states_dir() == tmp_path / "sumjudge" / "states"


def test_a_file_of_another_head_copied_over_is_discarded_not_restored(tmp_path: Path) -> None:
    files = StateFiles("m", 10_000, tmp_path)
    files.put((1, 2, 3), b"state of 1 2 3")
    files.put((4, 5), b"state of 4 5")
    files.path((1, 2, 3)).write_bytes(files.path((4, 5)).read_bytes())  # copied over, or a digest clash
    assert files.get((1, 2, 3)) is None and not files.path((1, 2, 3)).exists()
    assert files.get((4, 5)) == b"state of 4 5"


def test_a_fifo_at_a_state_path_is_removed_never_waited_on(tmp_path: Path) -> None:
    import threading

    files = StateFiles("m", 10_000, tmp_path)
    os.mkfifo(files.path((1,)))
    got: list[object] = []
    reader = threading.Thread(target=lambda: got.append(files.get((1,))), daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert got == [None] and not files.path((1,)).exists()
    files.put((1,), b"read again")
    assert files.get((1,)) == b"read again"


def test_a_part_file_left_by_a_killed_writer_is_counted_then_removed(tmp_path: Path) -> None:
    left = tmp_path / ".abc123.part"
    left.write_bytes(bytes(500))
    old = time.time() - 3600
    os.utime(left, (old, old))
    live = tmp_path / ".def456.part"  # a writer at work in another process
    live.write_bytes(bytes(50))
    files = StateFiles("m", 10_000, tmp_path)
    assert files.bytes() == 550
    assert files.get((1,)) is None  # the folder's first use sweeps it
    assert not left.exists() and live.exists() and files.bytes() == 50


needs_llama = pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                                 reason="llama_cpp is not importable: pip install 'sumjudge[reader]'")


@needs_llama
@pytest.mark.in_subprocess(what="llama.cpp")
def test_a_kept_state_that_does_not_fit_its_head_is_discarded_and_the_head_read_again(tmp_path: Path) -> None:
    """Another head's state under this head's key (a digest clash, a file written wrong) was restored,
    and every later question of the source failed with ``llama_decode returned -1``, for ever."""
    from sumjudge.judges.llama_models import smollm2_path
    from sumjudge.judges.local_settings import LocalSettings
    from sumjudge.judges.next_token import YesNoModel

    class Recording(StateFiles):
        def __init__(self) -> None:
            super().__init__("smollm2", 2**30, tmp_path)
            self.written: list[tuple[tuple[int, ...], bytes]] = []

        def put(self, tokens: tuple[int, ...], state: bytes) -> None:
            self.written.append((tokens, state))
            super().put(tokens, state)

    files = Recording()
    settings = LocalSettings(n_ctx=1024, n_threads=1, state_cache_mb=0)
    system, tail = "Answer yes or no.", ["\nClaim: it costs 12 million dollars. Is the claim supported?"]
    head = "Source: The library will cost 12 million dollars and will open in May next year, the council said.\n"
    first = YesNoModel(smollm2_path(), settings, files=files)
    read = first.ask_after(system, head, tail)[0]
    first.ask_after(system, "Source: The bridge opened.\n", tail)
    (mine, _), (_, other) = files.written
    files.put(mine, other)  # the short head's state, kept under the long head's key
    later = YesNoModel(smollm2_path(), settings, files=files)
    later._model().llama.n_tokens = 0  # as the next process finds it: nothing in the context
    again = later.ask_after(system, head, tail)[0]
    assert again.p_yes == pytest.approx(read.p_yes, abs=1e-4) and again.evaluated > len(mine) // 2  # read again
    assert later.ask_after(system, head, tail)[0].p_yes == pytest.approx(read.p_yes, abs=1e-4)
