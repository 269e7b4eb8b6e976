"""The judge cites and writes its reason before its verdict: the schemas it is sent list ``quote``, ``reason`` before
``supported`` / ``answered`` (providers generate keys in schema order), over real HTTP too."""

from __future__ import annotations

from sumjudge import create_summarization_scorer
from sumjudge.summarization.verdicts import AlignmentOutput, CoverageOutput
from sumjudge.testing.judge_server import JudgeServer


def _verdict_keys(schema: dict, name: str) -> list[str]:
    if "$defs" in schema:
        return list(schema["$defs"][name]["properties"])
    step = next(iter(schema["properties"]))  # a provider's schema has its definitions inlined
    return list(schema["properties"][step]["items"]["properties"])


def test_the_verdict_schemas_ask_for_the_reason_first():
    assert _verdict_keys(AlignmentOutput.model_json_schema(), "AlignmentVerdict") == ["claim", "quote", "reason", "supported"]
    assert _verdict_keys(CoverageOutput.model_json_schema(), "CoverageVerdict") == ["question", "quote", "reason", "answered"]


def test_the_schemas_sent_to_a_provider_keep_that_order(monkeypatch):
    with JudgeServer() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        scorer = create_summarization_scorer(model="openai/test-model")
        result = scorer.run_sync(input="The cat sat on the mat.", output="A cat sat.")
        sent = {r.step: r.schema for r in server.chat_requests()}
    assert result.score >= 0
    assert _verdict_keys(sent["alignment"], "AlignmentVerdict") == ["claim", "quote", "reason", "supported"]
    assert _verdict_keys(sent["coverage"], "CoverageVerdict") == ["question", "quote", "reason", "answered"]
