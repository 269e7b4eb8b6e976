"""pytest fixtures for the simulated judge server.

Import them into a test module (or a conftest) and pytest picks them up::

    from sumjudge.testing.fixtures import judge_server  # noqa: F401

    def test_something(judge_server):
        judge_server.script(Fault.rate_limit(retry_after=0))
        ModelConfig(id="openai/test-model", base_url=judge_server.base_url, api_key="test")
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .judge_server import JudgeServer


@pytest.fixture
def judge_server() -> Iterator[JudgeServer]:
    """A fresh :class:`JudgeServer` on a free port of 127.0.0.1, with the summarization brain."""
    with JudgeServer() as server:
        yield server
