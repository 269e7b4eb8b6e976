"""A 100,000-word source against an 8,192-token judge over real HTTP, and needles in it.

The source is built from the SummEval articles in ``SUMJUDGE_DATA_DIR`` (skipped without them):
one article buried at 60% of the way, the others around it until 100,000 words.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from sumjudge import create_summarization_scorer
from sumjudge.judges.base import ModelConfig
from sumjudge.judges.budget import TokenBudget
from sumjudge.summarization.long_source import LongSourcePlan
from sumjudge.testing.judge_server import JudgeServer, RecordedRequest
from sumjudge.testing.brains import SummarizationBrain

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(os.environ.get("SUMJUDGE_DATA_DIR") or ROOT.parent / "shared" / "data")
WINDOW = 8192

pytestmark = pytest.mark.integration


def summeval_docs() -> list[str]:
    path = DATA / "summeval_docs.jsonl"
    if not path.is_file():
        pytest.skip(f"SummEval data not found in {DATA} (set SUMJUDGE_DATA_DIR)")
    return [json.loads(line)["source"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def buried(words: int = 100_000, needle: int = 7, at: float = 0.6) -> tuple[str, str]:
    """(source of about ``words`` words, the buried article): other articles repeated around it."""
    docs = summeval_docs()
    article, others = docs[needle], [d for i, d in enumerate(docs) if i != needle]
    before: list[str] = []
    after: list[str] = []
    count, i = 0, 0
    while count < words:
        doc = others[i % len(others)]
        (before if count < at * words else after).append(doc)
        if count < at * words <= count + len(doc.split()):
            before.append(article)
        count += len(doc.split())
        i += 1
    return "\n\n".join(before + after), article


def first_sentence(article: str) -> str:
    return re.split(r"(?<=[.!?]) ", article, maxsplit=1)[0].strip()


def changed_number(sentence: str) -> str:
    numbers = re.findall(r"\d+", sentence)
    assert numbers, sentence
    return sentence.replace(numbers[0], str(int(numbers[0]) + 7), 1)


def needle_article(docs: list[str]) -> int:
    return next(i for i, d in enumerate(docs) if re.search(r"\d", first_sentence(d)) and i > 3)


# -- a judge over HTTP whose answers follow from the prompt it gets


def _fenced(prompt: str, name: str) -> list[str]:
    return [m.group(2) for m in re.finditer(rf"<<<{name} (\w+)[^>]*>>>\n(.*?)\n<<<END {name} \1>>>", prompt, re.S)]


def reading_brain(request: RecordedRequest) -> Any:
    """Claims: the summary's sentences. Check: a claim is supported when a passage holds it word for word.
    Questions: one per requested slot, naming the part's first words. Coverage: all answered."""
    prompt, step = request.prompt, request.step
    if step == "claims":
        (summary,) = _fenced(prompt, "SUMMARY")
        return {"claims": [s.strip() for s in re.split(r"(?<=\.) ", summary) if s.strip()]}
    if step == "alignment":
        passages = " ".join(_fenced(prompt, "PASSAGE"))
        (listed,) = _fenced(prompt, "CLAIMS")
        claims = [json.loads(line.split(". ", 1)[1]) for line in listed.splitlines()]
        return {
            "alignment": [
                {"claim": c, "supported": c in passages, "reason": "quoted" if c in passages else "not in the passages"}
                for c in claims
            ]
        }
    if step == "questions":
        (part,) = _fenced(prompt, "SOURCE")
        n = int(re.search(r"at most (\d+) and fewer", prompt).group(1))
        return {"questions": [f"Does the part starting {' '.join(part.split()[:6])!r} make point {i}?" for i in range(n)]}
    if step == "coverage":
        (listed,) = _fenced(prompt, "QUESTIONS")
        qs = [json.loads(line.split(". ", 1)[1]) for line in listed.splitlines()]
        return {"coverage": [{"question": q, "answered": True, "reason": "r"} for q in qs]}
    raise AssertionError(f"unexpected step {step}")


def test_hundred_thousand_words_within_an_8192_token_judge_and_the_needle_found() -> None:
    docs = summeval_docs()
    k = needle_article(docs)
    source, article = buried(needle=k)
    assert len(source.split()) >= 100_000
    fact = first_sentence(article)
    wrong = changed_number(fact)
    with JudgeServer(reading_brain, context_limit=WINDOW) as server:
        config = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="t", context_window=WINDOW)
        scorer = create_summarization_scorer(model=config)
        result = scorer.run_sync(input=source, output=f"{fact} {wrong}")
        calls = server.chat_requests()
        assert server.context.over_limit == 0 and server.context.largest_request <= WINDOW
        assert all(r.body.get("max_tokens") is None for r in calls)
    good, bad = result.preprocess_step_result.alignment
    assert good.supported and not bad.supported
    at = source.index(fact)
    assert any(e.start <= at and at + len(fact) <= e.end for e in good.evidence)
    # The bound the docs state: 1 claims call + ceil(n / b) check calls + the asked parts (at most
    # max_questions) + 1 coverage call.
    budget = TokenBudget.of(scorer.judge)
    plan = LongSourcePlan.for_budget(budget, 10)
    bound = 1 + plan.max_check_calls(2, max(budget.text_tokens(fact), budget.text_tokens(wrong))) + 10 + 1
    assert len(calls) <= bound and result.usage.calls == len(calls)
    steps = [r.step for r in calls]
    assert steps.count("claims") == 1 and steps.count("coverage") == 1 and steps.count("questions") == 10
    assert len(result.preprocess_step_result.questions) == 10


def test_a_request_over_the_window_gets_openais_error() -> None:
    import openai

    with JudgeServer(context_limit=100) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="t", max_retries=0)
        with pytest.raises(openai.BadRequestError) as info:
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": "word " * 200}])
        assert info.value.status_code == 400 and info.value.code == "context_length_exceeded"
        assert server.context.over_limit == 1


def test_offline_judge_finds_the_needle_and_the_changed_number() -> None:
    docs = summeval_docs()
    k = needle_article(docs)
    source, article = buried(words=30_000, needle=k)
    fact = first_sentence(article)
    wrong = changed_number(fact)
    scorer = create_summarization_scorer(model="offline/lexical")
    good = scorer.run_sync(input=source, output=fact).preprocess_step_result.alignment
    bad = scorer.run_sync(input=source, output=wrong).preprocess_step_result.alignment
    at = source.index(fact)
    assert good and all(v.supported for v in good)
    assert all(any(e.start <= at < e.end for e in v.evidence) for v in good)
    assert any(not v.supported for v in bad)


def test_repeated_source_prefix_is_reported_as_cached_tokens() -> None:
    """16 summaries of one source: after the first, the instructions and source come from the cache."""
    source = " ".join(summeval_docs()[:3])  # about 2,000 words: one source, within the window
    summaries = [f"Summary number {i} says the match ended {i}-0." for i in range(16)]
    with JudgeServer(reading_brain_short, context_limit=WINDOW) as server:
        config = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="t", context_window=WINDOW)
        scorer = create_summarization_scorer(model=config)
        results = [scorer.run_sync(input=source, output=s) for s in summaries]
        first, rest = results[0].usage, [r.usage for r in results[1:]]
        assert first.cached_tokens == 0 or first.cached_tokens < first.prompt_tokens / 2
        source_tokens = len(source.encode()) / 4
        assert all(u.cached_tokens >= 0.9 * source_tokens for u in rest)
        assert sum(u.cached_tokens for u in rest) == server.usage["cached_tokens"] - first.cached_tokens


def reading_brain_short(request: RecordedRequest) -> Any:
    if request.step == "alignment":
        return {"alignment": [{"claim": SummarizationBrain.summary_parts(request)[0], "supported": True, "reason": "r"}]}
    if request.step == "questions":
        return {"questions": ["Q1?", "Q2?"]}
    return reading_brain(request)
