"""How llama.cpp is asked to load a GGUF file: read into its own buffers unless the user maps it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from sumjudge.errors import ConfigurationError
from sumjudge.judges import llama_models
from sumjudge.judges.local_settings import LocalSettings


def _loads(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(llama_models, "import_llama_cpp", lambda: SimpleNamespace(Llama=lambda **kw: calls.append(kw) or object()))
    return calls


def test_the_file_is_read_not_mapped_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A mapped file stays resident beside the weights llama.cpp repacks for the CPU (0.6 GB more for the reader).
    calls = _loads(monkeypatch)
    llama_models._ModelCache().get(tmp_path / "m.gguf", LocalSettings())
    assert calls[0]["use_mmap"] is False


def test_use_mmap_1_maps_the_file_and_is_another_loaded_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _loads(monkeypatch)
    cache = llama_models._ModelCache()
    read = cache.get(tmp_path / "m.gguf", LocalSettings())
    mapped = cache.get(tmp_path / "m.gguf", LocalSettings.from_extra({"use_mmap": "1"}))
    assert [c["use_mmap"] for c in calls] == [False, True]
    assert mapped is not read
    assert cache.get(tmp_path / "m.gguf", LocalSettings.from_extra({"use_mmap": 1})) is mapped


@pytest.mark.parametrize("value", ["2", "-1", "yes"])
def test_use_mmap_other_than_0_or_1_is_refused_before_any_load(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _loads(monkeypatch)
    with pytest.raises(ConfigurationError, match="use_mmap|integers"):
        LocalSettings.from_extra({"use_mmap": value})
    assert calls == []
