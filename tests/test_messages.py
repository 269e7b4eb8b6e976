"""Reading run input and output the way Mastra passes them."""

from __future__ import annotations

import json

import pytest

from sumjudge.errors import InputError
from sumjudge.messages import message_text, select_source, select_summary
from sumjudge.utils import (
    extract_tool_results,
    get_assistant_message_from_run_output,
    get_user_message_from_run_input,
)


def test_plain_strings_are_source_and_summary() -> None:
    assert select_source("the source", "the summary") == "the source"
    assert select_summary("the summary") == "the summary"


@pytest.mark.parametrize("key", ["input_messages", "inputMessages"])
def test_input_dicts_in_both_spellings(key: str) -> None:
    run_input = {key: [{"role": "system", "content": "be brief"}, {"role": "user", "content": "doc"},
                       {"role": "user", "content": "second"}]}
    assert get_user_message_from_run_input(run_input) == "doc"


def test_content_forms() -> None:
    assert message_text({"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "image", "url": "x"},
                                                     {"type": "text", "text": "b"}]}) == "a\nb"
    stored = {"role": "assistant", "content": {"format": 2, "parts": [{"type": "step-start"}, {"type": "text", "text": "hi"}]}}
    assert message_text(stored) == "hi"
    assert message_text({"role": "assistant", "content": {"format": 2, "parts": [], "content": "flat"}}) == "flat"
    assert message_text({"role": "assistant", "parts": [{"type": "text", "text": "top-level parts"}]}) == "top-level parts"


def test_summary_is_last_assistant_message_with_text() -> None:
    output = [
        {"role": "assistant", "content": "first draft"},
        {"role": "assistant", "content": "final summary"},
        {"role": "assistant", "content": {"format": 2, "parts": [{"type": "tool-invocation", "toolInvocation": {
            "state": "call", "toolCallId": "c1", "toolName": "fetch", "args": {}}}]}},
        {"role": "assistant", "content": "  "},
    ]
    assert get_assistant_message_from_run_output(output) == "final summary"
    assert select_summary([{"role": "user", "content": "not me"}]) == ""


def test_source_precedence() -> None:
    msgs = {"input_messages": [{"role": "user", "content": "user text"}]}
    assert select_source(msgs, None) == "user text"
    assert select_source(msgs, None, source="given") == "given"
    assert select_source(msgs, None, source="given", source_extractor=lambda i, o: "extracted") == "extracted"
    assert select_source({"input_messages": [{"role": "system", "content": "x"}]}, None) == ""
    with pytest.raises(InputError, match="returned int"):
        select_source(msgs, None, source_extractor=lambda i, o: 3)
    with pytest.raises(InputError, match="source_extractor failed: KeyError"):
        select_source(msgs, None, source_extractor=lambda i, o: {}["x"])


def test_bad_shapes_are_clear_errors() -> None:
    with pytest.raises(InputError, match="input_messages"):
        select_source({"text": "x"}, None)
    with pytest.raises(InputError, match="list of messages"):
        select_summary(42)
    with pytest.raises(InputError, match="mapping"):
        select_summary(["just a string in a list"])


def test_tool_results_from_every_shape_once_each() -> None:
    output = [
        {"role": "assistant", "content": {"format": 2, "parts": [
            {"type": "tool-invocation", "toolInvocation": {"state": "result", "toolCallId": "c1", "toolName": "fetchDocument",
                                                          "args": {"url": "u"}, "result": "DOC TEXT"}}],
            "toolInvocations": [{"state": "result", "toolCallId": "c1", "toolName": "fetchDocument", "args": {"url": "u"},
                                 "result": "DOC TEXT"}]}},
        {"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "c2", "toolName": "stats", "args": {"q": 1}}]},
        {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c2", "toolName": "stats", "result": {"n": 3, "ok": True}}]},
        {"role": "assistant", "tool_calls": [{"id": "c3", "type": "function", "function": {"name": "lookup", "arguments": "{\"k\": \"v\"}"}}]},
        {"role": "tool", "tool_call_id": "c3", "content": "looked up"},
        {"role": "assistant", "content": {"format": 2, "parts": [{"type": "tool-invocation", "toolInvocation": {
            "state": "call", "toolCallId": "c4", "toolName": "pending", "args": {}}}]}},
        {"role": "assistant", "content": "the summary"},
    ]
    results = extract_tool_results(output)
    assert [r["tool_call_id"] for r in results] == ["c1", "c2", "c3"]
    assert results[0] == {"tool_name": "fetchDocument", "tool_call_id": "c1", "args": {"url": "u"}, "result": "DOC TEXT"}
    assert json.loads(results[1]["result"]) == {"n": 3, "ok": True}  # JSON, not str()
    assert results[1]["args"] == {"q": 1} and results[1]["tool_name"] == "stats"
    assert results[2] == {"tool_name": "lookup", "tool_call_id": "c3", "args": {"k": "v"}, "result": "looked up"}


def test_extractor_over_tool_results_feeds_the_source() -> None:
    output = [
        {"role": "assistant", "toolInvocations": [{"state": "result", "toolCallId": "t", "toolName": "fetchDocument",
                                                   "args": {}, "result": {"title": "Q3", "body": "서울"}}]},
        {"role": "assistant", "content": "summary"},
    ]

    def extractor(i: object, o: object) -> str:
        return "\n\n".join(r["result"] for r in extract_tool_results(o) if r["tool_name"] == "fetchDocument")

    assert select_source("ignored", output, source_extractor=extractor) == '{"title": "Q3", "body": "서울"}'
