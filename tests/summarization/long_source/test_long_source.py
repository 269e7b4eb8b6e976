"""Sources longer than the judge's context: chunks, retrieval, batching within budget, merged questions."""

from __future__ import annotations

import pytest
from long_sources import NEEDLE, TOWNS, filler, long_source, passage_judge

from sumjudge import create_summarization_scorer
from sumjudge.errors import ContextOverflowError
from sumjudge.judges.budget import TokenBudget, conservative_tokens
from sumjudge.summarization.long_source import (
    BM25Index,
    LongSourcePlan,
    make_chunks,
    make_parts,
    merge_questions,
    sentence_spans,
    share_questions,
)
from sumjudge.summarization.long_source.plan import (
    check_reply_tokens,
    claims_reply_tokens,
    coverage_reply_tokens,
    questions_reply_tokens,
)
from sumjudge.summarization.verdicts import (
    ALIGNMENT_STEP,
    CLAIMS_STEP,
    COVERAGE_STEP,
    QUESTIONS_STEP,
)



def test_chunks_keep_offsets_overlap_and_size() -> None:
    text = long_source(300)
    chunks = make_chunks(text, conservative_tokens, 200, overlap_sentences=1)
    assert len(chunks) > 5
    for c in chunks:
        assert text[c.start : c.end] == c.text and c.tokens <= 200
    for a, b in zip(chunks, chunks[1:]):
        assert b.start < a.end  # each repeats the last sentence of the one before
    covered = {s.start for s in sentence_spans(text)}
    assert covered <= {s.start for c in chunks for s in sentence_spans(text) if c.start <= s.start < c.end}
    parts = make_parts(text, conservative_tokens, 1000)
    assert all(a.end <= b.start for a, b in zip(parts, parts[1:]))  # disjoint
    assert "".join(p.text for p in parts).replace(" ", "") == text.replace(" ", "")


def test_a_sentence_longer_than_a_chunk_is_cut_at_spaces() -> None:
    text = "word " * 3000 + "end."
    chunks = make_chunks(text, conservative_tokens, 100)
    assert all(c.tokens <= 100 and text[c.start : c.end] == c.text for c in chunks)


def test_bm25_finds_the_needle_chunk() -> None:
    text = long_source(1200)
    index = BM25Index(make_chunks(text, conservative_tokens, 300))
    (best,) = index.search("Mara Olsen counted gulls on Skerry Point", 1)
    assert NEEDLE in best.chunk.text
    assert index.search("zeppelin quasar", 3) == []


def test_questions_are_shared_by_length_and_merged_rank_by_rank() -> None:
    assert share_questions([100, 100, 200], 8) == [2, 2, 4]
    assert sum(share_questions([5] * 25, 10)) == 10
    assert [i for i, n in enumerate(share_questions([5] * 8, 4)) if n] == [0, 2, 4, 6]  # spread evenly
    assert share_questions([10, 30], 4) == [1, 3]
    merged = merge_questions([["A one?", "A two?"], ["B one?", "a one?"], ["C one?"]], 4)
    assert merged == ["A one?", "B one?", "C one?", "A two?"]


async def test_long_source_stays_within_the_window_and_points_at_the_evidence() -> None:
    source = long_source(1500)
    changed = NEEDLE.replace("4,812", "5,812")
    j = passage_judge([NEEDLE, changed], window=2048)
    result = await create_summarization_scorer(model=j).run(input=source, output=f"{NEEDLE} {changed}")
    budget = TokenBudget.of(j)
    assert budget.text_tokens(source) > 10 * budget.context_window
    reply_room = {
        CLAIMS_STEP: lambda r: claims_reply_tokens(budget.text_tokens(r.inputs.summary), 100),
        ALIGNMENT_STEP: lambda r: check_reply_tokens(len(r.inputs.claims)),
        QUESTIONS_STEP: lambda r: questions_reply_tokens(r.inputs.max_questions),
        COVERAGE_STEP: lambda r: coverage_reply_tokens(len(r.inputs.questions)),
    }
    for r in j.requests:
        assert budget.request_tokens(r) + reply_room[r.step](r) <= 2048, r.step
    good, bad = result.preprocess_step_result.alignment
    assert good.supported and not bad.supported
    at = source.index(NEEDLE)
    assert any(e.start <= at and at + len(NEEDLE) <= e.end for e in good.evidence)
    assert source[good.evidence[0].start : good.evidence[0].end].count(NEEDLE) == 1
    plan = LongSourcePlan.for_budget(budget, 10)
    assert len(j.calls(ALIGNMENT_STEP)) <= plan.max_check_calls(2, budget.text_tokens(changed))
    assert len(j.calls(CLAIMS_STEP)) == 1 and len(j.calls(COVERAGE_STEP)) == 1
    assert 1 < len(j.calls(QUESTIONS_STEP)) <= 10 and len(result.preprocess_step_result.questions) == 10
    asked = [r.inputs.source for r in j.calls(QUESTIONS_STEP)]
    assert source.index(asked[0]) < len(source) / 10 and source.index(asked[-1]) > len(source) / 2
    assert result.alignment_score == 0.5 and "evidence" in result.model_dump()["preprocess_step_result"]["alignment"][0]


async def test_a_short_source_keeps_three_calls_and_no_evidence_field() -> None:
    j = passage_judge([], window=2048, **{ALIGNMENT_STEP: {"alignment": [{"claim": "It opened in 1932", "supported": True, "reason": "r"}]}})
    j.steps[QUESTIONS_STEP] = {"questions": ["Q?"]}
    result = await create_summarization_scorer(model=j).run(input="The bridge opened in 1932.", output="It opened in 1932.")
    assert [r.step for r in j.requests].count(CLAIMS_STEP) == 0 and result.usage.calls == 3
    assert "evidence" not in result.model_dump()["preprocess_step_result"]["alignment"][0]


async def test_max_claims_cuts_and_the_reason_says_so() -> None:
    source = long_source(800)
    claimed = [f"The council of {t} inspected wells." for t in TOWNS[:6]]
    j = passage_judge(claimed, window=2048)
    result = await create_summarization_scorer(model=j, options={"max_claims": 4}).run(
        input=source, output=" ".join(claimed)
    )
    assert len(result.preprocess_step_result.alignment) == 4
    assert "first 4 of the summary's 6 claims" in result.reason


async def test_a_summary_too_long_for_the_judge_fails_naming_the_sizes() -> None:
    j = passage_judge(["x"], window=1024)
    with pytest.raises(ContextOverflowError) as info:
        await create_summarization_scorer(model=j).run(input=long_source(200), output=filler(300))
    message = str(info.value)
    assert "1024" in message and "tokens" in message and info.value.needed > 1024
    assert not any(r.step == COVERAGE_STEP for r in j.requests)
