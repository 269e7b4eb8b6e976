"""What scoring a dataset will cost, before any call: calls, prompt and completion tokens, price.

The forecast takes the scorer's own decisions without a judge: the same prompts, the same budget
test for the short path, the same chunks, retrieval and packing for a long source, questions once
per distinct source. Where the judge's answer would decide (how many claims a summary makes), the
offline judge's claim split stands in for it. Prompt tokens are the budget's central estimate (the
model's tokenizer when one is at hand, else four bytes a token); completion tokens are estimated
from the claims and questions the replies will hold (:data:`REASON_TOKENS` and the like).

With ``samples=k`` every evaluation is made k times (its own alignment, questions and coverage), so
calls and tokens are k times one sample's. The offline judge (``offline/...``) answers in process: its
calls are counted, its tokens and price are 0.

Prices come from the ``genai-prices`` package (``pip install 'sumjudge[prices]'``), a maintained
table read from its bundled snapshot, without a network call.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ..judges.base import JudgeRequest, ModelConfig, StepInputs
from ..judges.budget import TokenBudget
from . import prompts
from .long_source import LongSource
from .long_source import prompts as long_prompts
from .long_source.alignment import pack_claims
from .language import Reading
from .options import SummarizationOptions
from .verdicts import (
    ALIGNMENT_STEP,
    CLAIMS_STEP,
    COVERAGE_STEP,
    QUESTIONS_STEP,
    AlignmentOutput,
    ClaimsOutput,
    CoverageOutput,
    QuestionsOutput,
)

REASON_TOKENS = 24
"""A verdict's one-sentence reason."""
JSON_TOKENS_PER_ITEM = 12
"""Keys, quotes and punctuation around one claim, question or verdict."""
QUESTION_TOKENS = 18


@dataclass
class Forecast:
    """Totals over the items forecast so far."""

    items: int = 0
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    long_sources: int = 0
    """Items whose source takes the long path with this judge."""
    by_step: dict[str, int] = field(default_factory=dict)
    repeat: int = 1
    """Evaluations per item (``samples``): each call is made this many times."""
    spends_tokens: bool = True
    """False for a judge that sends nothing anywhere (the offline judge): its tokens are 0."""

    def add(self, step: str, prompt: int, completion: int) -> None:
        self.calls += self.repeat
        if self.spends_tokens:
            self.prompt_tokens += prompt * self.repeat
            self.completion_tokens += completion * self.repeat
        self.by_step[step] = self.by_step.get(step, 0) + self.repeat


class Forecaster:
    """Forecasts one scorer configuration over items (sources seen once are not asked again)."""

    def __init__(self, config: ModelConfig, options: SummarizationOptions | None = None) -> None:
        opts = options or SummarizationOptions()
        self.budget = TokenBudget.for_config(config)
        self.long = LongSource(self.budget, opts.max_questions, opts.max_claims)
        self.max_questions = opts.max_questions
        self.max_claims = opts.max_claims
        self._reading = Reading()
        self._sources: set[str] = set()
        self.total = Forecast(repeat=opts.samples, spends_tokens=not is_offline(config.id))

    def _tokens(self, text: str) -> int:
        return self.budget.counter.central(text)

    def _claims_of(self, summary: str) -> list[str]:
        return self._reading.claim_texts(summary)[: self.max_claims]

    def item(self, source: str, summary: str) -> None:
        f = self.total
        f.items += 1
        if not source.strip() or not summary.strip():
            return
        claims = self._claims_of(summary)
        verdicts = sum(self._tokens(c) + REASON_TOKENS + JSON_TOKENS_PER_ITEM for c in claims)
        align = JudgeRequest(
            step=ALIGNMENT_STEP,
            messages=prompts.alignment_messages(source, summary),
            output_type=AlignmentOutput,
            inputs=StepInputs(source=source, summary=summary),
        )
        short = self.long.alignment_fits(align, summary)
        if short:
            f.add(ALIGNMENT_STEP, self.budget.forecast_tokens(align), verdicts)
        else:
            f.long_sources += 1
            listing = JudgeRequest(
                step=CLAIMS_STEP, messages=long_prompts.claims_messages(summary, self.max_claims), output_type=ClaimsOutput
            )
            f.add(CLAIMS_STEP, self.budget.forecast_tokens(listing), sum(self._tokens(c) + 4 for c in claims))
            batches, _ = pack_claims(self.long.plan, self.long.index(source), claims)
            for b in batches:
                passages = [b.passages[k] for k in sorted(b.passages)]
                said = [c for _, c, _ in b.claims]
                request = self.long.plan.check_request(passages, said, "")
                completion = sum(self._tokens(c) + REASON_TOKENS + JSON_TOKENS_PER_ITEM for c in said)
                f.add(ALIGNMENT_STEP, self.budget.forecast_tokens(request), completion)
        questions = self._questions(source)
        if questions:
            numbered = [f"Question {i} " + "word " * (QUESTION_TOKENS - 4) for i in range(questions)]  # typical length
            cover = JudgeRequest(
                step=COVERAGE_STEP, messages=prompts.coverage_messages(summary, numbered), output_type=CoverageOutput
            )
            per = QUESTION_TOKENS + REASON_TOKENS + JSON_TOKENS_PER_ITEM
            f.add(COVERAGE_STEP, self.budget.forecast_tokens(cover), questions * per)

    def _questions(self, source: str) -> int:
        """Questions the source will get; their calls are counted the first time the source is seen."""
        key = hashlib.sha256(source.encode()).hexdigest()
        first = key not in self._sources
        self._sources.add(key)
        n = self.max_questions
        request = JudgeRequest(
            step=QUESTIONS_STEP, messages=prompts.questions_messages(source, n), output_type=QuestionsOutput
        )
        if self.long.questions_fit(request):
            if first:
                f = self.total
                f.add(QUESTIONS_STEP, self.budget.forecast_tokens(request), n * (QUESTION_TOKENS + 2) + 8)
            return n
        if first:
            from .long_source.questions import share_questions

            parts = self.long.parts(source)
            for part, share in zip(parts, share_questions([p.tokens for p in parts], n)):
                if share:
                    r = JudgeRequest(
                        step=QUESTIONS_STEP, messages=prompts.questions_messages(part.text, share), output_type=QuestionsOutput
                    )
                    self.total.add(QUESTIONS_STEP, self.budget.forecast_tokens(r), share * (QUESTION_TOKENS + 2) + 8)
        return n


LOCAL_PROVIDERS = frozenset({"local", "ollama", "llamacpp", "lmstudio", "vllm"})
"""Providers that run the model on the user's machine or server: no per-token price."""


def is_offline(model_id: str) -> bool:
    """Whether ``model_id`` names an offline judge, which calls no model and spends nothing."""
    return model_id.partition("/")[0] == "offline"


def price(model_id: str, prompt_tokens: int, completion_tokens: int) -> tuple[Decimal | None, str]:
    """(price in USD or ``None``, a note): from genai-prices' bundled table, never a network call; 0
    for the offline judge."""
    if is_offline(model_id):
        return Decimal(0), "the offline judge calls no model: no tokens, no price"
    if model_id.partition("/")[0].rpartition("+")[2] in LOCAL_PROVIDERS:  # reader+llamacpp/... too
        return Decimal(0), "a model on your own hardware: its tokens cost time, not a per-token price"
    try:
        from genai_prices import Usage as PriceUsage
        from genai_prices import calc_price
    except ImportError:
        return None, "no price: pip install 'sumjudge[prices]' (genai-prices) for a maintained price table"
    provider, _, name = model_id.partition("/")
    try:
        calc: Any = calc_price(
            PriceUsage(input_tokens=prompt_tokens, output_tokens=completion_tokens), model_ref=name, provider_id=provider
        )
    except Exception as exc:  # noqa: BLE001 - an unknown model is a note, not a failure
        return None, f"no price for {model_id} in genai-prices: {exc}"
    return Decimal(calc.total_price), f"genai-prices: {calc.model_price}"
