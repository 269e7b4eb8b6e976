"""Alignment against a long source: list the claims, retrieve each claim's passages, check in batches.

1. One call lists the summary's claims (summary only); at most ``max_claims`` are judged.
2. BM25 finds each claim's :data:`~.plan.CHUNKS_PER_CLAIM` best chunks.
3. Claims are taken in the order of their best chunk and packed into as few calls as the budget
   allows: a claim joins the current call when its passages (those not already in it), its text and
   its verdict's room still fit the context window. Every request is counted before it is sent.
4. Each verdict keeps the offsets of the passages its call showed the judge, the claim's own first.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from ...errors import ContextOverflowError
from ...judges.base import ChatMessage, JudgeReply, JudgeRequest, StepInputs
from ..stray_verdicts import stray_error, stray_feedback, strays
from ..own_claims import not_held, not_held_error, not_held_feedback
from ..verdicts import CLAIMS_STEP, AlignmentVerdict, ClaimsOutput, EvidenceSpan
from . import prompts as long_prompts
from .chunks import Chunk
from .plan import (
    CHUNKS_PER_CLAIM,
    PASSAGE_OVERHEAD_TOKENS,
    REPLY_BASE_TOKENS,
    LongSourcePlan,
    claims_reply_tokens,
)
from .retrieval import BM25Index

Ask = Callable[[JudgeRequest], Awaitable[JudgeReply]]


@dataclass(frozen=True)
class LongAlignment:
    verdicts: list[AlignmentVerdict]
    claims_found: int
    """Claims the judge listed; more than ``len(verdicts)`` when ``max_claims`` cut them."""


@dataclass
class _Batch:
    passages: dict[int, Chunk] = field(default_factory=dict)
    claims: list[tuple[int, str, list[Chunk]]] = field(default_factory=list)
    tokens: int = 0


async def list_claims(ask: Ask, plan: LongSourcePlan, summary: str, max_claims: int) -> list[str]:
    """The summary's claims, stripped and without repeats, in the judge's order (all of them)."""
    request = JudgeRequest(
        step=CLAIMS_STEP,
        messages=long_prompts.claims_messages(summary, max_claims),
        output_type=ClaimsOutput,
        inputs=StepInputs(summary=summary),
        reply_tokens=claims_reply_tokens(plan.budget.text_tokens(summary), max_claims),
    )
    plan.budget.check(request, what="listing the summary's claims")
    reply = await ask(request)
    claims = _distinct(reply.output.claims)
    where = not_held((summary,), claims)  # a claim the summary does not make: asked once more, then failed
    if where:
        said = reply.raw if reply.raw is not None else reply.output.model_dump_json()
        again = replace(request, messages=[*request.messages, ChatMessage(role="assistant", content=said),
                                           ChatMessage(role="user", content=not_held_feedback(claims, where))])
        claims = _distinct((await ask(again)).output.claims)
        where = not_held((summary,), claims)
        if where:
            raise not_held_error(request.step, claims, where)
    return claims


def _distinct(said: list[str]) -> list[str]:
    claims: list[str] = []
    for c in said:
        c = c.strip()
        if c and c not in claims:
            claims.append(c)
    return claims


def pack_claims(plan: LongSourcePlan, index: BM25Index, claims: list[str]) -> tuple[list[_Batch], list[int]]:
    """The check calls to make, and the claims that share no word with the source (no call needed)."""
    budget = plan.budget
    room = budget.context_window - plan.check_fixed - REPLY_BASE_TOKENS
    hits: list[tuple[int, list[Chunk]]] = []
    orphans: list[int] = []
    for i, claim in enumerate(claims):
        found = [h.chunk for h in index.search(claim, CHUNKS_PER_CLAIM)]
        if found:
            hits.append((i, found))
        else:
            orphans.append(i)
    hits.sort(key=lambda t: (t[1][0].index, t[0]))
    batches: list[_Batch] = []
    current = _Batch()
    for i, found in hits:
        claim_tokens = budget.text_tokens(claims[i]) + plan.claim_cost(0, 0)
        placed = False
        for attempt in (current, None):
            batch = attempt if attempt is not None else _Batch()
            for k in range(len(found), 0, -1):
                new = [c for c in found[:k] if c.index not in batch.passages]
                extra = sum(c.tokens + PASSAGE_OVERHEAD_TOKENS for c in new) + claim_tokens
                if batch.tokens + extra <= room:
                    for c in new:
                        batch.passages[c.index] = c
                    batch.claims.append((i, claims[i], found[:k]))
                    batch.tokens += extra
                    placed = True
                    break
            if placed:
                if attempt is None:
                    if current.claims:
                        batches.append(current)
                    current = batch
                break
        if not placed and not budget.limit:  # a window that limits nothing: the claim is checked alone
            if current.claims:
                batches.append(current)
            current = _Batch({c.index: c for c in found[:1]}, [(i, claims[i], found[:1])], claim_tokens)
            placed = True
        if not placed:
            raise ContextOverflowError(
                f"checking the claim {claims[i][:80]!r}",
                needed=plan.check_fixed + REPLY_BASE_TOKENS + found[0].tokens + PASSAGE_OVERHEAD_TOKENS + claim_tokens,
                prompt_tokens=plan.check_fixed + found[0].tokens + PASSAGE_OVERHEAD_TOKENS + claim_tokens,
                reply_tokens=REPLY_BASE_TOKENS,
                context_window=budget.context_window,
                model=budget.model_id,
                counted_by=budget.counter.name,
            )
    if current.claims:
        batches.append(current)
    return batches, orphans


async def check_batch(ask: Ask, plan: LongSourcePlan, batch: _Batch) -> list[tuple[int, AlignmentVerdict]]:
    """One call for the batch's claims (split in two when the counted request does not fit after all)."""
    passages = [batch.passages[k] for k in sorted(batch.passages)]
    claims = [c for _, c, _ in batch.claims]
    request = plan.check_request(passages, claims, "\n\n".join(p.text for p in passages))
    reply_room = request.reply_tokens or 0
    if not plan.budget.fits(request, reply_room):
        if len(batch.claims) == 1:
            plan.budget.check(request, reply_room, f"checking the claim {claims[0][:80]!r}")
        half = len(batch.claims) // 2
        out: list[tuple[int, AlignmentVerdict]] = []
        for part in (batch.claims[:half], batch.claims[half:]):
            sub = _Batch(claims=part)
            for _, _, found in part:
                for c in found:
                    sub.passages[c.index] = c
            out += await check_batch(ask, plan, sub)
        return out
    reply = await ask(request)
    said = reply.output.alignment
    stray = strays(claims, [v.claim for v in said])  # verdicts about claims it was not given
    if stray:  # asked once more (when it fits), then the step fails
        told = stray_feedback(claims, [v.claim for v in said], stray, "claim")
        echo = reply.raw if reply.raw is not None else reply.output.model_dump_json()
        again = replace(request, messages=[*request.messages, ChatMessage(role="assistant", content=echo),
                                           ChatMessage(role="user", content=told)])
        if plan.budget.fits(again, reply_room):
            said = (await ask(again)).output.alignment
            stray = strays(claims, [v.claim for v in said])
        if stray:
            raise stray_error(request.step, claims, [v.claim for v in said], stray, "claim")
    out = []
    for pos, (i, claim, found) in enumerate(batch.claims):
        own = [EvidenceSpan(start=c.start, end=c.end) for c in found]
        shown = own + [EvidenceSpan(start=p.start, end=p.end) for p in passages if p not in found]
        if pos < len(said):
            v = said[pos]
            out.append((i, v.model_copy(update={"claim": claim, "evidence": shown})))
        else:
            reason = "The judge returned no verdict for this claim."
            out.append((i, AlignmentVerdict(claim=claim, supported=False, reason=reason, evidence=shown)))
    return out


def orphan_verdict(claim: str) -> AlignmentVerdict:
    return AlignmentVerdict(
        claim=claim, supported=False, reason="No passage of the source shares a content word with this claim.", evidence=[]
    )
