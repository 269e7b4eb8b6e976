"""The prompts of the long-source path: list the summary's claims, check claims against passages.

Questions per part use the short path's questions prompt with the part as the source. The same
fences and the same order as :mod:`..prompts`: instructions first, then the source text (here the
passages), then what changes per summary (the claims).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ...judges.base import ChatMessage
from ..prompts import fence, system_message

if TYPE_CHECKING:
    from .chunks import Chunk

CLAIMS = """List the atomic claims of the SUMMARY: one fact each. Split compound sentences; keep the \
numbers, dates, names and terms exactly as the summary states them. Leave out nothing the summary \
asserts, and repeat nothing. Write each claim in the language of the summary, as a sentence that \
stands on its own (name who or what it is about instead of "he" or "it").

<<<SUMMARY {summary_fence}>>>
{summary}
<<<END SUMMARY {summary_fence}>>>

Return a JSON object whose "claims" array holds the claims as strings, at most {max_claims}, in the \
order the summary makes them."""

CHECK = """Check each CLAIM against the PASSAGES, which are excerpts of a longer source document.

For each claim first copy, verbatim, the short part of the PASSAGES that decides it ("quote"; empty \
if they say nothing about it), then give a short reason, naming what differs or is missing; then decide "supported": true only if the passages state it or directly imply it. A claim that is \
absent from the passages, or contradicted by them, is unsupported. Exact numbers, dates, names and \
terms must match (an approximation of a precise figure is a deviation). A paraphrase with the same \
meaning matches; a weaker or stronger claim does not.

{passages}"""

CHECK_CLAIMS = """<<<CLAIMS {claims_fence}>>>
{claims}
<<<END CLAIMS {claims_fence}>>>

Return exactly {count} verdicts, one per claim, in the order given: a JSON object whose "alignment" \
array has one entry per claim, each with the claim copied as given ("claim"), the passage's words \
("quote"), a one-sentence "reason", then a boolean verdict ("supported")."""


def claims_messages(summary: str, max_claims: int) -> list[ChatMessage]:
    user = CLAIMS.format(summary=summary, summary_fence=fence(summary), max_claims=max_claims)
    return [system_message(), ChatMessage(role="user", content=user)]


def passages_text(passages: list[Chunk]) -> str:
    """The passages, each fenced and labelled with its character offsets in the source."""
    blocks = []
    for p in passages:
        f = fence(p.text)
        blocks.append(f"<<<PASSAGE {f} characters {p.start}-{p.end}>>>\n{p.text}\n<<<END PASSAGE {f}>>>")
    return "\n\n".join(blocks)


def check_messages(passages: list[Chunk], claims: list[str]) -> list[ChatMessage]:
    """Instructions and passages (shared by the claims of one batch), then the claims."""
    numbered = "\n".join(f"{i}. {json.dumps(c, ensure_ascii=False)}" for i, c in enumerate(claims, 1))
    head = CHECK.format(passages=passages_text(passages))
    tail = CHECK_CLAIMS.format(claims=numbered, claims_fence=fence(numbered), count=len(claims))
    return [system_message(), ChatMessage(role="user", content=head, cache=True), ChatMessage(role="user", content=tail)]
