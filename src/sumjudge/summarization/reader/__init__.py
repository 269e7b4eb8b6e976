"""``local/reader``: a judge that reads, on this machine (see :mod:`.judge`)."""

from __future__ import annotations

from ...judges.registry import JudgeFamily
from .judge import ReaderJudge, create_reader_judge
from .models import PACKAGED, QWEN_0_5B, QWEN_1_5B
from .served import SERVER_OPTIONS, create_served_reader
from .settings import OPTIONS, ReaderSettings


def is_reader_name(name: str) -> bool:
    """``reader``, ``reader-<size>`` or ``reader:<path>``: the ``local/`` names the reader answers to."""
    key = name.strip().lower()
    return key == "reader" or key.startswith("reader:") or (
        key.startswith("reader-") and "/" not in key and not key.endswith(".gguf")
    )


FAMILY = JudgeFamily(
    provider="local", accepts=is_reader_name, create=lambda name, config: create_reader_judge(name, config),
    options=lambda: OPTIONS, method="reader", on_server=create_served_reader, server_options=lambda: SERVER_OPTIONS,
)
"""``local/reader``, ``local/reader-0.5b`` and ``local/reader:/path.gguf``, registered in the package's
entry points (group ``sumjudge.judges``); and the same method on an OpenAI-compatible server,
``reader+<provider>/<model>`` (:mod:`.served`)."""

__all__ = [
    "FAMILY", "PACKAGED", "QWEN_0_5B", "QWEN_1_5B", "ReaderJudge", "ReaderSettings", "create_reader_judge", "create_served_reader",
    "is_reader_name",
]
