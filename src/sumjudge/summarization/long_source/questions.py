"""Questions from a long source: drawn per part in proportion to its length, merged, most important first.

The source is cut into disjoint parts that each fit one questions call. ``max_questions`` is shared
out among the parts by length (:func:`share_questions`), each part
with a share is asked for that many questions with the short path's prompt, and the answers are
merged rank by rank (every part's first question, then every part's second, ...), repeats dropped,
up to ``max_questions``. Still from the source alone.
"""

from __future__ import annotations

import regex

from ..._aio import gather_or_cancel
from ...judges.base import JudgeRequest, StepInputs
from .. import prompts
from ..verdicts import QUESTIONS_STEP, QuestionsOutput
from .alignment import Ask
from .chunks import Chunk
from .plan import LongSourcePlan, questions_reply_tokens


def share_questions(lengths: list[int], total: int) -> list[int]:
    """``total`` questions shared out in proportion to ``lengths``, evenly over the document.

    Systematic allocation: question ``j`` goes to the part that holds the point ``(j + 1/2) / total``
    of the way through the text, so each part gets its exact share rounded up or down, and when there
    are more parts than questions the asked parts are spread evenly from start to end.
    """
    whole = sum(lengths)
    shares = [0] * len(lengths)
    if not lengths or whole <= 0 or total <= 0:
        return shares
    part, edge = 0, lengths[0]
    for j in range(total):
        point = (j + 0.5) * whole / total
        while point > edge and part + 1 < len(lengths):
            part += 1
            edge += lengths[part]
        shares[part] += 1
    return shares


_NOT_WORD = regex.compile(r"[^\p{L}\p{N}]+")


def _words(question: str) -> frozenset[str]:
    return frozenset(w for w in _NOT_WORD.split(question.lower()) if w)


def merge_questions(per_part: list[list[str]], limit: int) -> list[str]:
    """Rank by rank across parts (document order within a rank), repeats dropped, at most ``limit``."""
    merged: list[str] = []
    seen: set[frozenset[str]] = set()
    depth = max((len(q) for q in per_part), default=0)
    for rank in range(depth):
        for questions in per_part:
            if rank >= len(questions) or len(merged) >= limit:
                continue
            q = questions[rank].strip()
            words = _words(q)
            if not q or words in seen:  # the same words, in any case, order or punctuation
                continue
            merged.append(q)
            seen.add(words)
    return merged[:limit]


async def draw_questions(ask: Ask, plan: LongSourcePlan, parts: list[Chunk], max_questions: int) -> list[str]:
    """Ask the parts with a share of the questions (at once) and merge their answers."""
    shares = share_questions([p.tokens for p in parts], max_questions)
    asked = [(p, n) for p, n in zip(parts, shares) if n > 0]
    requests = []
    for part, n in asked:
        request = JudgeRequest(
            step=QUESTIONS_STEP,
            messages=prompts.questions_messages(part.text, n),
            output_type=QuestionsOutput,
            inputs=StepInputs(source=part.text, max_questions=n),
            reply_tokens=questions_reply_tokens(n),
        )
        plan.budget.check(request, what=f"drawing questions from source characters {part.start}-{part.end}")
        requests.append(request)
    replies = await gather_or_cancel(*(ask(r) for r in requests))
    per_part = [list(r.output.questions)[:n] for r, (_, n) in zip(replies, asked)]
    return merge_questions(per_part, max_questions)
