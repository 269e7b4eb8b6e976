"""``local/reader``: a judge that reads, on this machine (see :mod:`.judge`)."""

from __future__ import annotations

from .judge import ReaderJudge, create_reader_judge
from .models import PACKAGED, QWEN_0_5B, QWEN_1_5B
from .settings import ReaderSettings

__all__ = ["PACKAGED", "QWEN_0_5B", "QWEN_1_5B", "ReaderJudge", "ReaderSettings", "create_reader_judge"]
