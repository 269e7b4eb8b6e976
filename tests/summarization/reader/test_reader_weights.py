"""The reader's packaged model: parts joined once into the user's cache, atomically, the digest checked
before every load (a small fake set of parts; the real model's runs are in test_reader_judge.py)."""

from __future__ import annotations

import hashlib
import io
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from sumjudge.errors import ConfigurationError, MissingDependencyError
from sumjudge.judges import llama_models
from sumjudge.judges.local_settings import LocalSettings
from sumjudge.judges.gguf_parts import PartedModel, cache_dir, joined_model, verify_model
from sumjudge.judges.registry import resolve_judge
from sumjudge.summarization.reader import is_reader_name

CHUNKS = [b"GGUF" + bytes(range(256)) * 40, bytes(reversed(range(256))) * 33, b"tail of the model"]
WHOLE = b"".join(CHUNKS)


def fake_model(digest: str | None = None, size: int | None = None) -> PartedModel:
    return PartedModel(
        label="Fake-1B",
        dist_prefix="fake-model-part",
        parts=len(CHUNKS),
        filename="fake.gguf",
        size=len(WHOLE) if size is None else size,
        sha256=digest or hashlib.sha256(WHOLE).hexdigest(),
        install="pip install 'sumjudge[reader]'",
    )


@pytest.fixture
def parts(tmp_path: Path):
    """A finder for installed parts, as importlib.metadata would list them (one .bin per distribution)."""
    files: dict[str, list[Path]] = {}
    for i, chunk in enumerate(CHUNKS, start=1):
        p = tmp_path / "site" / f"fake_model_part{i}" / "data" / f"part{i:02d}.bin"
        p.parent.mkdir(parents=True)
        p.write_bytes(chunk)
        files[f"fake-model-part{i}"] = [p]
    return lambda dist: files.get(dist, [])


def test_parts_join_in_part_order_into_a_file_that_passes_its_check(tmp_path: Path, parts) -> None:
    path = joined_model(fake_model(), parts, tmp_path / "cache")
    assert path.read_bytes() == WHOLE
    verify_model(fake_model(), path)  # no error
    assert [p.name for p in path.parent.iterdir()] == ["fake.gguf"]  # no temporary file left


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_joining_says_what_it_joins_from_which_wheels_and_how_far_it_is(tmp_path: Path, parts) -> None:
    log = io.StringIO()  # not a terminal: one line at the start, one at the end
    joined_model(fake_model(), parts, tmp_path / "cache", stream=log)
    first, last = log.getvalue().splitlines()
    assert "joining the Fake-1B model" in first and "fake-model-part1 ... fake-model-part3" in first
    assert str(tmp_path / "cache" / "fake.gguf") in first and "sha256" in first
    assert last.startswith("sumjudge: joined Fake-1B in ")
    joined_model(fake_model(), parts, tmp_path / "cache", stream=log)  # already joined: nothing said
    assert len(log.getvalue().splitlines()) == 2
    tty = _Terminal()  # a terminal: the line is rewritten as the bytes go
    joined_model(fake_model(), parts, tmp_path / "tty", stream=tty)
    assert "\rsumjudge: joining Fake-1B: 100% of" in tty.getvalue() and tty.getvalue().endswith("\n")


def test_a_failed_join_says_it_failed(tmp_path: Path, parts) -> None:
    log = io.StringIO()
    with pytest.raises(ConfigurationError):
        joined_model(fake_model(digest="0" * 64), parts, tmp_path / "cache", stream=log)
    assert log.getvalue().splitlines()[-1] == "sumjudge: joining Fake-1B failed"


def test_the_cache_is_under_xdg_cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "sumjudge" / "models"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path.home() / ".cache" / "sumjudge" / "models"


def test_parts_that_join_to_another_digest_leave_no_file(tmp_path: Path, parts) -> None:
    with pytest.raises(ConfigurationError, match="reinstall"):
        joined_model(fake_model(digest="0" * 64), parts, tmp_path / "cache")
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_missing_part_names_the_distribution_and_the_install_line(tmp_path: Path, parts) -> None:
    def without_second(dist: str) -> list[Path]:
        return [] if dist == "fake-model-part2" else parts(dist)

    with pytest.raises(MissingDependencyError, match=r"fake-model-part2.*pip install 'sumjudge\[reader\]'"):
        joined_model(fake_model(), without_second, tmp_path / "cache")


def test_a_partial_or_altered_file_in_the_cache_is_refused(tmp_path: Path, parts) -> None:
    path = joined_model(fake_model(), parts, tmp_path / "cache")
    path.write_bytes(WHOLE[:-5])  # cut short
    with pytest.raises(ConfigurationError, match="partial"):
        verify_model(fake_model(), path)
    path.write_bytes(WHOLE[:-1] + b"X")  # same size, one byte changed
    with pytest.raises(ConfigurationError, match="sha256"):
        verify_model(fake_model(), path)


def test_a_refused_file_is_never_handed_to_llama_cpp(tmp_path: Path, parts, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[str] = []
    monkeypatch.setattr(llama_models, "import_llama_cpp", lambda: SimpleNamespace(Llama=lambda **kw: loaded.append(kw["model_path"])))
    model = fake_model()
    path = joined_model(model, parts, tmp_path / "cache")
    path.write_bytes(WHOLE[:100])
    cache = llama_models._ModelCache()
    with pytest.raises(ConfigurationError, match="not the Fake-1B model"):
        cache.get(path, LocalSettings(), lambda p: verify_model(model, p))
    assert loaded == []
    path.unlink()
    path = joined_model(model, parts, tmp_path / "cache")  # deleted: joined again from the parts
    cache.get(path, LocalSettings(), lambda p: verify_model(model, p))
    assert loaded == [str(path)]


def test_concurrent_joins_each_find_a_whole_file(tmp_path: Path, parts) -> None:
    start = threading.Barrier(6)
    got: list[bytes] = []
    errors: list[BaseException] = []

    def join() -> None:
        try:
            start.wait()
            path = joined_model(fake_model(), parts, tmp_path / "cache")
            verify_model(fake_model(), path)
            got.append(path.read_bytes())
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=join) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert got == [WHOLE] * 6
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["fake.gguf"]


def test_reader_names_go_to_the_reader_and_others_stay_with_the_local_judge() -> None:
    assert all(is_reader_name(n) for n in ("reader", "reader-0.5b", "Reader-1.5b", "reader:/m/x.gguf"))
    assert not any(is_reader_name(n) for n in ("smollm2", "/models/reader-x.gguf", "readers"))


def test_an_unknown_reader_or_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="unknown reader"):
        resolve_judge("local/reader-7b")
    with pytest.raises(ConfigurationError, match="not a .gguf file"):
        resolve_judge(f"local/reader:{tmp_path / 'nothing.gguf'}")
