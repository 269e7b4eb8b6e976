"""Hostile use: ``--timeout`` bounds a whole reply, not each read. A server
on 127.0.0.1 that sends one byte at a time (the body, or the headers too) ends the call in a timeout
error, over both of the OpenAI SDK's transports (aiohttp and httpx) and Anthropic's, and a batch records
the item as failed. No timed assertions: the error kind, and that the call ended within a bounded wait
far longer than the timeout and far shorter than the trickled reply."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge import ModelConfig
from sumjudge.cli import main
from sumjudge.errors import JudgeUnavailableError
from sumjudge.judges.base import JudgeRequest
from sumjudge.judges.registry import resolve_judge
from sumjudge.summarization.verdicts import QuestionsOutput
from sumjudge.testing.anthropic_server import AnthropicServer
from sumjudge.testing.faults import Fault
from sumjudge.testing.judge_server import JudgeServer

pytestmark = pytest.mark.integration

EVERY = 0.2  # seconds per byte: a reply of ~700 bytes would take over two minutes
BOUND = 60.0  # the wait that says "it ended": well past the 1 s timeout, well short of the trickle


def questions_request() -> JudgeRequest[QuestionsOutput]:
    from sumjudge.judges.base import ChatMessage

    return JudgeRequest(step="questions", messages=[ChatMessage(role="user", content="Ask about: the cat sat.")],
                        output_type=QuestionsOutput)


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
@pytest.mark.parametrize("headers", [False, True], ids=["body", "headers"])
async def test_a_slow_loris_reply_ends_in_a_timeout_over_both_transports(monkeypatch, transport: str,
                                                                          headers: bool) -> None:
    if transport == "httpx":
        monkeypatch.setitem(sys.modules, "aiohttp", None)  # the SDK's default transport then
    with JudgeServer() as server:
        server.script(Fault.slow_loris(EVERY, headers=headers))
        judge = resolve_judge(ModelConfig(id="vllm/test-model", base_url=server.base_url, timeout=1, max_retries=0))
        import openai

        wanted = openai.DefaultAioHttpClient if transport == "aiohttp" else openai.DefaultAsyncHttpxClient
        assert judge._http_client_class is wanted
        with pytest.raises(JudgeUnavailableError) as caught:
            await asyncio.wait_for(judge.generate(questions_request()), BOUND)
    assert "timeout" in str(caught.value)


async def test_a_slow_loris_reply_ends_in_a_timeout_for_anthropic() -> None:
    with AnthropicServer() as server:
        server.script(Fault.slow_loris(EVERY, headers=True))
        judge = resolve_judge(ModelConfig(id="anthropic/claude-test", base_url=server.url, api_key="k", timeout=1,
                                          max_retries=0))
        with pytest.raises(JudgeUnavailableError) as caught:
            await asyncio.wait_for(judge.generate(questions_request()), BOUND)
    assert "timeout" in str(caught.value)


def test_score_records_the_item_as_failed_after_a_slow_loris_reply(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": "The cat sat on the mat.", "summary": "The cat sat."}) + "\n")
    with JudgeServer() as server:
        server.brain = lambda request: Fault.slow_loris(EVERY)  # every attempt, retries included
        result = CliRunner().invoke(main, ["score", str(data), "--model", "vllm/test-model", "--store",
                                           str(tmp_path / "runs.db"), "--timeout", "1", "--quiet"],
                                    env={"VLLM_BASE_URL": server.base_url})
    assert result.exit_code == 1, result.output
    with sqlite3.connect(tmp_path / "runs.db") as db:
        status, error = db.execute("SELECT status, error FROM items").fetchone()
    assert status == "error" and "timeout" in error
