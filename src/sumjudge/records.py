"""A finished batch item, typed: scored (:class:`ScoredItem`) or failed with its error (:class:`FailedItem`).

One shape for everything that reads or writes batch items: the run store keeps it, ``--out`` and
``sumjudge runs export`` write it as one JSON line (:meth:`ScoredItem.line`), the HTML report and the
end table read it. Both types carry every key, so every line has the same columns; a failed item's
figures are ``null``. :func:`outcome_from_json` reads a line back into the right type.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, computed_field

from .judges.base import Usage
from .scorers.summarization.result import SummarizationResult
from .scorers.summarization.verdicts import AlignmentVerdict, CoverageVerdict


class Verdicts(BaseModel):
    """What the judge said: the summary's claims (A), the source's questions (B), their answers (C)."""

    alignment: list[AlignmentVerdict]
    questions: list[str]
    coverage: list[CoverageVerdict]

    @property
    def claims_supported(self) -> int:
        return sum(1 for c in self.alignment if c.supported)

    @property
    def questions_answered(self) -> int:
        return sum(1 for c in self.coverage if c.answered)


class ItemUsage(Usage):
    """An item's judge usage, with its total written out for readers of the JSON line."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class _Outcome(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str

    def line(self) -> str:
        """The item's JSON line (``--out``, ``runs export``)."""
        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False)


class ScoredItem(_Outcome):
    """An item that was scored."""

    score: float
    alignment_score: float
    coverage_score: float
    reason: str
    verdicts: Verdicts
    usage: ItemUsage
    error: None = None

    @classmethod
    def from_result(cls, item_id: str, result: SummarizationResult) -> ScoredItem:
        return cls(
            id=item_id,
            score=result.score,
            alignment_score=result.alignment_score,
            coverage_score=result.coverage_score,
            reason=result.reason,
            verdicts=Verdicts(
                alignment=result.preprocess_step_result.alignment,
                questions=result.preprocess_step_result.questions,
                coverage=result.analyze_step_result.coverage,
            ),
            usage=ItemUsage(**result.usage.model_dump()),
        )


class FailedItem(_Outcome):
    """An item whose evaluation failed, with the error that ended it."""

    score: None = None
    alignment_score: None = None
    coverage_score: None = None
    reason: None = None
    verdicts: None = None
    usage: None = None
    error: str


ItemOutcome = ScoredItem | FailedItem


def outcome_from_json(data: dict[str, Any] | str) -> ItemOutcome:
    """A stored or written line back as :class:`ScoredItem` or :class:`FailedItem`."""
    if isinstance(data, str):
        data = json.loads(data)
    assert isinstance(data, dict)
    if data.get("error") is not None:
        return FailedItem.model_validate(data)
    return ScoredItem.model_validate(data)


__all__ = ["FailedItem", "ItemOutcome", "ItemUsage", "ScoredItem", "Verdicts", "outcome_from_json"]
