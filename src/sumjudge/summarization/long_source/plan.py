"""The arithmetic of a long source: how big chunks and parts are, what each reply needs, what fits.

All sizes are tokens as :class:`~sumjudge.judges.budget.TokenBudget` counts them (the model's own
tokenizer, or an upper estimate). A request is built, counted and checked against the judge's
context window before it is sent; the reserves below are the room kept for each reply.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...judges.base import JudgeRequest, StepInputs
from ...judges.budget import TokenBudget
from .. import prompts
from ..verdicts import ALIGNMENT_STEP, QUESTIONS_STEP, AlignmentOutput, QuestionsOutput

VERDICT_TOKENS = 120
"""Room for one alignment verdict (claim, verdict, reason, JSON punctuation)."""
QUESTION_TOKENS = 48
"""Room for one question."""
COVERAGE_VERDICT_TOKENS = 110
"""Room for one coverage verdict (question copied, verdict, reason)."""
REPLY_BASE_TOKENS = 32
PASSAGE_OVERHEAD_TOKENS = 40
"""The fence lines and offsets around one passage."""
CLAIM_OVERHEAD_TOKENS = 8
"""Numbering and quoting of one claim."""
CHUNKS_PER_CLAIM = 3
"""Passages retrieved for each claim (fewer when a claim's three do not fit one call)."""
MIN_CHUNK_TOKENS, MAX_CHUNK_TOKENS = 96, 768


def alignment_reply_tokens(summary_tokens: int) -> int:
    """Room for the short path's alignment reply: claims restate the summary, plus verdicts."""
    claims = max(1, math.ceil(summary_tokens / 12))
    return REPLY_BASE_TOKENS + 2 * summary_tokens + claims * (VERDICT_TOKENS - 40)


def claims_reply_tokens(summary_tokens: int, max_claims: int) -> int:
    return REPLY_BASE_TOKENS + min(2 * summary_tokens + 8 * max_claims, 60 * max_claims)


def check_reply_tokens(n_claims: int) -> int:
    return REPLY_BASE_TOKENS + VERDICT_TOKENS * n_claims


def questions_reply_tokens(n_questions: int) -> int:
    return REPLY_BASE_TOKENS + QUESTION_TOKENS * n_questions


def coverage_reply_tokens(n_questions: int) -> int:
    return REPLY_BASE_TOKENS + COVERAGE_VERDICT_TOKENS * n_questions


@dataclass(frozen=True)
class LongSourcePlan:
    """Sizes derived from one judge's budget; the same for every source it judges."""

    budget: TokenBudget
    max_questions: int
    check_fixed: int
    """Tokens of a claims-check request with no passage and no claim (instructions, schema)."""
    questions_fixed: int
    """Tokens of a questions request with an empty source."""
    chunk_tokens: int
    part_tokens: int

    @classmethod
    def for_budget(cls, budget: TokenBudget, max_questions: int) -> LongSourcePlan:
        from . import prompts as long_prompts  # the long path's prompts: loaded when a source is long

        empty_check = JudgeRequest(
            step=ALIGNMENT_STEP, messages=long_prompts.check_messages([], []), output_type=AlignmentOutput
        )
        empty_questions = JudgeRequest(
            step=QUESTIONS_STEP, messages=prompts.questions_messages("", max_questions), output_type=QuestionsOutput
        )
        check_fixed = budget.request_tokens(empty_check)
        questions_fixed = budget.request_tokens(empty_questions)
        room = budget.context_window - check_fixed
        chunk = max(MIN_CHUNK_TOKENS, min(MAX_CHUNK_TOKENS, room // 16))
        part = budget.context_window - questions_fixed - questions_reply_tokens(max_questions) - 16
        return cls(budget, max_questions, check_fixed, questions_fixed, chunk, part)

    def claim_cost(self, claim_tokens: int, passages: int) -> int:
        """Tokens one claim adds to a check request with ``passages`` passages of its own."""
        return (
            passages * (self.chunk_tokens + PASSAGE_OVERHEAD_TOKENS)
            + claim_tokens
            + CLAIM_OVERHEAD_TOKENS
            + VERDICT_TOKENS
        )

    def claims_per_call(self, max_claim_tokens: int) -> int:
        """The fewest claims one check call holds, even when no two claims share a passage."""
        room = self.budget.context_window - self.check_fixed - REPLY_BASE_TOKENS
        return max(1, room // self.claim_cost(max_claim_tokens, CHUNKS_PER_CLAIM))

    def max_check_calls(self, n_claims: int, max_claim_tokens: int) -> int:
        """``ceil(n / b)``, ``b`` = :meth:`claims_per_call`: the bound the docs state."""
        return math.ceil(n_claims / self.claims_per_call(max_claim_tokens)) if n_claims else 0

    def check_request(self, passages: list, claims: list[str], source_text: str) -> JudgeRequest[AlignmentOutput]:
        from . import prompts as long_prompts

        return JudgeRequest(
            step=ALIGNMENT_STEP,
            messages=long_prompts.check_messages(passages, claims),
            output_type=AlignmentOutput,
            inputs=StepInputs(source=source_text, claims=list(claims), passage_sentences=_passage_sentences(passages)),
            reply_tokens=check_reply_tokens(len(claims)),
        )


def _passage_sentences(passages: list) -> list[tuple[int, int]] | None:
    """(offset in the joined passages text, sentences of the whole source before it) per passage."""
    out, at = [], 0
    for p in passages:
        if not hasattr(p, "first_sentence"):
            return None
        out.append((at, p.first_sentence))
        at += len(p.text) + 2  # joined by a blank line
    return out
