"""Bounding the judge's schema so a grammar-constrained model always ends its JSON (no model needed)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sumjudge.judges.base import JudgeRequest, ReplyBounds, StepInputs
from sumjudge.judges.local import fit_schema
from sumjudge.judges.local_settings import LocalSettings
from sumjudge.judges.schema_bounds import SchemaBounds, bound_schema, max_reply_chars, max_reply_tokens
from sumjudge.judges.structured import strict_json_schema
from sumjudge.summarization.verdicts import AlignmentOutput, CoverageOutput, QuestionsOutput


def _walk(node: Any, path: str = "$"):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{path}[{i}]")


def _unbounded(schema: dict[str, Any]) -> list[str]:
    bad = []
    for path, node in _walk(schema):
        if node.get("type") == "string" and "maxLength" not in node:
            bad.append(path)
        if node.get("type") == "array" and "maxItems" not in node:
            bad.append(path)
    return bad


@pytest.mark.parametrize(
    ("output_type", "reply"),
    [
        (AlignmentOutput, ReplyBounds(min_items=1)),
        (QuestionsOutput, ReplyBounds(min_items=1, max_items=4)),
        (CoverageOutput, ReplyBounds.exactly(2)),
        (AlignmentOutput, ReplyBounds()),
    ],
)
def test_every_array_and_string_is_bounded(output_type: Any, reply: ReplyBounds) -> None:
    for raw in (output_type.model_json_schema(), strict_json_schema(output_type)):
        schema = bound_schema(raw, reply)
        assert _unbounded(schema) == []
        assert "$ref" not in json.dumps(schema)


def test_array_bounds_follow_the_request() -> None:
    questions = bound_schema(QuestionsOutput.model_json_schema(), ReplyBounds(min_items=1, max_items=4))
    assert questions["properties"]["questions"]["maxItems"] == 4

    coverage = bound_schema(CoverageOutput.model_json_schema(), ReplyBounds.exactly(3))
    arr = coverage["properties"]["coverage"]
    assert (arr["minItems"], arr["maxItems"]) == (3, 3)  # exactly one verdict per question

    alignment = bound_schema(
        AlignmentOutput.model_json_schema(), ReplyBounds(min_items=1), SchemaBounds(max_items=5)
    )
    assert alignment["properties"]["alignment"]["maxItems"] == 5
    item = alignment["properties"]["alignment"]["items"]
    assert item["properties"]["reason"]["maxLength"] == 200
    assert item["properties"]["claim"]["minLength"] == 1


def test_max_tokens_covers_the_longest_reply_the_schema_allows() -> None:
    schema = bound_schema(
        CoverageOutput.model_json_schema(),
        ReplyBounds.exactly(2),
        SchemaBounds(max_string_chars=10),
    )
    longest = {"coverage": [{"question": "q" * 10, "answered": False, "reason": "r" * 10}] * 2}
    pretty_enough = json.dumps(longest, separators=(", ", ": "))  # one space after each mark, as the grammar allows
    assert len(pretty_enough) <= max_reply_chars(schema)
    assert max_reply_tokens(schema) >= len(pretty_enough)


def test_an_unbounded_schema_has_no_reply_size() -> None:
    with pytest.raises(ValueError, match="unbounded"):
        max_reply_chars(QuestionsOutput.model_json_schema()["properties"]["questions"])


def _alignment_request() -> JudgeRequest[AlignmentOutput]:
    return JudgeRequest(
        step="alignment",
        messages=[],
        output_type=AlignmentOutput,
        inputs=StepInputs(source="s", summary="t"),
        bounds=ReplyBounds(min_items=1),
    )


def test_bounds_shrink_to_fit_a_small_budget() -> None:
    base = strict_json_schema(AlignmentOutput)
    settings = LocalSettings()
    roomy, roomy_tokens = fit_schema(base, _alignment_request(), settings, budget=100_000)
    tight, tight_tokens = fit_schema(base, _alignment_request(), settings, budget=300)
    assert tight_tokens <= 300 < roomy_tokens
    roomy_item = roomy["properties"]["alignment"]
    tight_item = tight["properties"]["alignment"]
    assert tight_item["maxItems"] >= 1
    assert (
        tight_item["items"]["properties"]["reason"]["maxLength"]
        < roomy_item["items"]["properties"]["reason"]["maxLength"]
        or tight_item["maxItems"] < roomy_item["maxItems"]
    )


def test_fixed_verdict_count_is_kept_when_shrinking() -> None:
    request = JudgeRequest(
        step="coverage",
        messages=[],
        output_type=CoverageOutput,
        inputs=StepInputs(summary="t", questions=[f"q{i}?" for i in range(6)]),
        bounds=ReplyBounds.exactly(6),
    )
    schema, tokens = fit_schema(strict_json_schema(CoverageOutput), request, LocalSettings(), budget=700)
    arr = schema["properties"]["coverage"]
    assert (arr["minItems"], arr["maxItems"]) == (6, 6)
    assert tokens <= 700


def test_the_request_may_shorten_strings_and_sets_the_floor() -> None:
    schema = bound_schema(AlignmentOutput.model_json_schema(), ReplyBounds(max_string_chars=30))
    arr = schema["properties"]["alignment"]
    assert arr["items"]["properties"]["claim"]["maxLength"] == 30
    assert arr["minItems"] == 0  # no floor unless the asker sets one
    assert bound_schema(AlignmentOutput.model_json_schema(), ReplyBounds(min_items=1))["properties"]["alignment"]["minItems"] == 1


def test_echoed_questions_are_pinned_in_order_and_sized_so_a_weak_model_names_what_it_was_asked() -> None:
    from sumjudge.judges.base import ReplyBounds
    from sumjudge.judges.schema_bounds import bound_schema, max_reply_tokens
    from sumjudge.judges.structured import strict_json_schema
    from sumjudge.summarization.verdicts import CoverageOutput

    asked = ["Is it true that the bridge opened in 1932?", "Is it true that it cost 4 million dollars?"]
    plain = bound_schema(strict_json_schema(CoverageOutput), ReplyBounds.exactly(2))
    pinned = bound_schema(strict_json_schema(CoverageOutput), ReplyBounds.echoing(asked, "question"))
    tuple_ = pinned["properties"]["coverage"]
    assert [item["properties"]["question"] for item in tuple_["prefixItems"]] == [
        {"type": "string", "const": q} for q in asked]
    assert tuple_["minItems"] == tuple_["maxItems"] == 2 and "items" not in tuple_
    # the reply's room counts every pinned item, not an empty one
    assert max_reply_tokens(pinned) > max_reply_tokens(plain) - 2 * 200
    assert max_reply_tokens(pinned) > sum(len(q) for q in asked)
