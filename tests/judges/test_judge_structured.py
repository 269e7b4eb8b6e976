"""structured.py: strict schemas, tolerant parsing, re-asks with the error, usage over attempts."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from sumjudge.errors import JudgeOutputError
from sumjudge.judges.base import ChatMessage, JudgeRequest, Usage
from sumjudge.judges.structured import (
    Completion,
    generate_structured,
    strict_json_schema,
    with_schema_in_prompt,
)
from sumjudge.summarization.verdicts import AlignmentOutput, CoverageOutput, QuestionsOutput


def _objects(schema):
    if isinstance(schema, dict):
        if "properties" in schema:
            yield schema
        for v in schema.values():
            yield from _objects(v)
    elif isinstance(schema, list):
        for v in schema:
            yield from _objects(v)


@pytest.mark.parametrize("model", [AlignmentOutput, QuestionsOutput, CoverageOutput])
def test_schema_is_strict_compatible(model):
    schema = strict_json_schema(model)
    assert "$ref" not in str(schema) and "$defs" not in schema
    for obj in _objects(schema):
        assert obj["additionalProperties"] is False
        assert sorted(obj["required"]) == sorted(obj["properties"])


def test_optional_fields_are_still_required_in_the_schema():
    class WithDefault(BaseModel):
        a: str
        b: int = 3

    schema = strict_json_schema(WithDefault)
    assert schema["required"] == ["a", "b"] and "default" not in str(schema)


def test_schema_goes_into_the_system_message():
    msgs = [ChatMessage(role="system", content="Judge."), ChatMessage(role="user", content="hi")]
    out = with_schema_in_prompt(msgs, strict_json_schema(QuestionsOutput))
    assert out[0].content.startswith("Judge.") and '"questions"' in out[0].content
    assert out[1] == msgs[1]


def _request(model=QuestionsOutput):
    return JudgeRequest(step="questions", messages=[ChatMessage(role="user", content="source")], output_type=model)


class Scripted:
    def __init__(self, *completions: Completion) -> None:
        self.completions = list(completions)
        self.seen: list[list[ChatMessage]] = []

    async def __call__(self, messages):
        self.seen.append(list(messages))
        return self.completions.pop(0)


def c(text, finish="stop", p=10, k=5):
    return Completion(text=text, finish_reason=finish, usage=Usage(prompt_tokens=p, completion_tokens=k, calls=1))


async def test_valid_reply_in_a_json_fence():
    send = Scripted(c('```json\n{"questions": ["Is it red?"]}\n```'))
    reply = await generate_structured(_request(), send, max_reasks=2)
    assert reply.output.questions == ["Is it red?"]
    assert reply.usage == Usage(prompt_tokens=10, completion_tokens=5, calls=1)


async def test_a_raw_newline_inside_a_string_is_read_not_reasked():
    # llama.cpp's grammar lets small models put a literal line break inside a JSON string
    send = Scripted(c('{"questions": ["Is it\nred?"]}'))
    reply = await generate_structured(_request(), send, max_reasks=0)
    assert reply.output.questions == ["Is it\nred?"] and len(send.seen) == 1


async def test_invalid_json_is_reasked_with_the_error_and_usage_sums():
    send = Scripted(c("not json at all"), c('{"questions": ["Q?"]}', p=20, k=7))
    reply = await generate_structured(_request(), send, max_reasks=2)
    assert reply.output.questions == ["Q?"]
    assert reply.usage == Usage(prompt_tokens=30, completion_tokens=12, calls=2)
    reask = send.seen[1]
    assert reask[-2] == ChatMessage(role="assistant", content="not json at all")
    assert reask[-1].role == "user" and "not valid JSON" in reask[-1].content


async def test_schema_mismatch_names_the_field_in_the_reask():
    send = Scripted(c('{"alignment": [{"claim": "x", "supported": "maybe", "reason": "r"}]}'),
                    c('{"alignment": [{"claim": "x", "supported": true, "reason": "r"}]}'))
    reply = await generate_structured(_request(AlignmentOutput), send, max_reasks=1)
    assert reply.output.alignment[0].supported is True
    assert "alignment.0.supported" in send.seen[1][-1].content


async def test_truncated_reply_is_reasked_as_truncated():
    send = Scripted(c('{"questions": ["Is it', finish="length"), c('{"questions": []}'))
    reply = await generate_structured(_request(), send, max_reasks=1)
    assert reply.output.questions == []
    assert "cut off" in send.seen[1][-1].content


async def test_gives_up_after_max_reasks_naming_step_and_reply():
    send = Scripted(c("nope 1"), c("nope 2"), c("nope 3"))
    with pytest.raises(JudgeOutputError) as info:
        await generate_structured(_request(), send, max_reasks=1)
    assert len(send.seen) == 2  # one ask + one re-ask
    assert info.value.step == "questions"
    assert info.value.returned == "nope 2"
    assert "QuestionsOutput" in str(info.value) and "nope 2" in str(info.value)


async def test_zero_reasks_means_one_attempt():
    send = Scripted(c("{}"))
    with pytest.raises(JudgeOutputError, match="questions"):
        await generate_structured(_request(), send, max_reasks=0)
    assert len(send.seen) == 1


async def test_a_reask_that_does_not_fit_the_window_drops_the_echo_then_the_correction():
    first = _request().messages
    words = lambda conversation: sum(len(m.content.split()) for m in conversation)  # noqa: E731

    # room for the first request and a short correction, not for the echoed bad reply
    send = Scripted(c("not json " * 100), c('{"questions": ["Q?"]}'))
    reply = await generate_structured(_request(), send, max_reasks=2, fits=lambda conv: words(conv) <= 40)
    assert reply.output.questions == ["Q?"]
    assert send.seen[1][:-1] == first and "not valid JSON" in send.seen[1][-1].content  # the correction alone

    # room for the first request only: it is asked again, fresh (async checks are awaited)
    async def only_first(conversation):
        return words(conversation) <= 1

    send = Scripted(c("not json"), c("still not json"), c('{"questions": ["Q?"]}'))
    reply = await generate_structured(_request(), send, max_reasks=2, fits=only_first)
    assert send.seen == [first, first, first] and reply.usage.calls == 3


async def test_a_reask_that_no_longer_fits_when_sent_goes_as_the_first_request():
    """A re-ask checked against the window in one form, sent after the judge moved to a larger form
    (another call's refusal): the judge finds it too large, and the first request goes instead."""
    from sumjudge.errors import ContextOverflowError

    first = _request().messages
    script = Scripted(c("not json " * 50), c('{"questions": ["Q?"]}'))

    async def send(conversation):
        if len(conversation) > len(first):
            raise ContextOverflowError("the questions request", needed=5000, prompt_tokens=4000, reply_tokens=1000,
                                       context_window=4096, model="m", counted_by="estimate")
        return await script(conversation)

    reply = await generate_structured(_request(), send, max_reasks=1, fits=lambda conv: True)
    assert reply.output.questions == ["Q?"] and script.seen == [first, first]

    async def never_fits(conversation):
        raise ContextOverflowError("the questions request", needed=5000, prompt_tokens=4000, reply_tokens=1000,
                                   context_window=4096, model="m", counted_by="estimate")

    with pytest.raises(ContextOverflowError):
        await generate_structured(_request(), never_fits, max_reasks=1)
