"""The bundled Chat Completions server set as the OpenAI endpoint (``OPENAI_BASE_URL``, a dummy
``OPENAI_API_KEY``) while a block runs: what conftest's ``server`` fixture does, for the files whose
own ``server`` needs another brain."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from sumjudge.testing.judge_server import Brain, JudgeServer


@contextmanager
def openai_endpoint(monkeypatch: pytest.MonkeyPatch, brain: Brain | None = None) -> Iterator[JudgeServer]:
    """A :class:`JudgeServer` answering with ``brain`` (its default brain when ``None``), set as the
    endpoint of ``openai/...`` judges until the block ends."""
    with JudgeServer(brain) as srv:
        monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        yield srv
