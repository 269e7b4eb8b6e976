"""Sources longer than the judge's context: chunked alignment and questions within its budget.

:class:`LongSource` is what the scorer holds (one per scorer, safe to share): it says whether a
source fits the short path's calls, and when it does not, judges alignment through retrieved
passages (:mod:`.alignment`) and draws questions per part (:mod:`.questions`). See
docs/long-sources.md for the call bound and the figures.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from ..._aio import gather_or_cancel
from ..._lazy import lazy_exports
from ...judges.base import JudgeModel, JudgeRequest
from ...judges.budget import TokenBudget
from ..verdicts import ALIGNMENT_STEP, QUESTIONS_STEP, AlignmentOutput, AlignmentVerdict, QuestionsOutput
from .plan import LongSourcePlan, alignment_reply_tokens, coverage_reply_tokens, questions_reply_tokens

# the long path's modules load only when a source exceeds the judge's context
_EXPORTS = {
    "LongAlignment": ".alignment", "BM25Index": ".retrieval", "merge_questions": ".questions",
    "share_questions": ".questions", **dict.fromkeys(["Chunk", "Span", "make_chunks", "make_parts", "sentence_spans"], ".chunks"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .alignment import Ask, LongAlignment
    from .chunks import Chunk, Span, make_chunks, make_parts, sentence_spans
    from .questions import merge_questions, share_questions
    from .retrieval import BM25Index

INDEX_CACHE_SIZE = 16
"""Long sources whose chunk index a scorer keeps (16 summaries of one source build it once)."""


class LongSource:
    """The long-source path for one judge. Thread-safe; holds only a bounded cache of indexes."""

    def __init__(self, judge: JudgeModel | TokenBudget, max_questions: int, max_claims: int) -> None:
        self.budget = judge if isinstance(judge, TokenBudget) else TokenBudget.of(judge)
        self.max_questions = max_questions
        self.max_claims = max_claims
        self._plan: LongSourcePlan | None = None
        self._indexes: OrderedDict[str, BM25Index] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def plan(self) -> LongSourcePlan:
        if self._plan is None:  # built on first use: counting may load a local model
            self._plan = LongSourcePlan.for_budget(self.budget, self.max_questions)
        return self._plan

    # -- the room kept for each reply (sent with the request as ``reply_tokens``: the judge keeps it too)
    def alignment_room(self, summary: str) -> int:
        return alignment_reply_tokens(self.budget.text_tokens(summary))

    def questions_room(self) -> int:
        return questions_reply_tokens(self.max_questions)

    @staticmethod
    def coverage_room(questions: int) -> int:
        return coverage_reply_tokens(questions)

    # -- does the short path fit?
    def alignment_fits(self, request: JudgeRequest[AlignmentOutput], summary: str) -> bool:
        return self.budget.fits(request, self.alignment_room(summary))

    def questions_fit(self, request: JudgeRequest[QuestionsOutput]) -> bool:
        return self.budget.fits(request, self.questions_room())

    def coverage_fits(self, request: JudgeRequest) -> bool:
        return self.budget.fits(request, self.coverage_room(len(request.inputs.questions or [])))

    def check_coverage(self, request: JudgeRequest) -> None:
        """Coverage never sees the source: a summary too long for the judge ends here, naming the sizes."""
        count = len(request.inputs.questions or [])
        self.budget.check(request, self.coverage_room(count), "the coverage request (summary and questions)")

    # -- the long path
    def index(self, source: str) -> BM25Index:
        key = hashlib.sha256(source.encode()).hexdigest()
        with self._lock:
            found = self._indexes.get(key)
            if found is not None:
                self._indexes.move_to_end(key)
                return found
        from .chunks import make_chunks
        from .retrieval import BM25Index

        built = BM25Index(make_chunks(source, self.budget.text_tokens, self.plan.chunk_tokens))
        with self._lock:
            self._indexes[key] = built
            while len(self._indexes) > INDEX_CACHE_SIZE:
                self._indexes.popitem(last=False)
        return built

    async def align(self, ask: Ask, source: str, summary: str) -> LongAlignment:
        """Claims listed, cut to ``max_claims``, each checked against its retrieved passages."""
        from .alignment import LongAlignment, check_batch, list_claims, orphan_verdict, pack_claims

        found = await list_claims(ask, self.plan, summary, self.max_claims)
        claims = found[: self.max_claims]
        if not claims:
            return LongAlignment(verdicts=[], claims_found=0)
        batches, orphans = pack_claims(self.plan, self.index(source), claims)
        verdicts: dict[int, AlignmentVerdict] = {i: orphan_verdict(claims[i]) for i in orphans}
        for part in await gather_or_cancel(*(check_batch(ask, self.plan, b) for b in batches)):
            verdicts.update(part)
        return LongAlignment(verdicts=[verdicts[i] for i in range(len(claims))], claims_found=len(found))

    def parts(self, source: str) -> list[Chunk]:
        from .chunks import make_parts

        return make_parts(source, self.budget.text_tokens, self.plan.part_tokens)

    async def questions(self, ask: Ask, source: str) -> list[str]:
        from .questions import draw_questions

        return await draw_questions(ask, self.plan, self.parts(source), self.max_questions)


__all__ = [
    "ALIGNMENT_STEP",
    "QUESTIONS_STEP",
    "BM25Index",
    "Chunk",
    "LongAlignment",
    "LongSource",
    "LongSourcePlan",
    "Span",
    "make_chunks",
    "make_parts",
    "merge_questions",
    "sentence_spans",
    "share_questions",
]
