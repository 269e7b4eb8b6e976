"""A finished batch item, typed: scored (:class:`ScoredItem`) or failed with its error (:class:`FailedItem`).

One shape for everything that reads or writes batch items: the run store keeps it, ``--out`` and
``sumjudge runs export`` write it as one JSON line (:meth:`ScoredItem.line`), the HTML report and the
end table read it. Both types carry every column, so every line has the same keys; a failed item's
figures are ``null``. The keys of repeated samples (``reducer``, ``score_spread``, ``samples``) are
written only with samples, ``source_sha256`` (what ``sumjudge compare`` checks pairs with) only when
known. :func:`outcome_from_json` reads a line back into the right type.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, computed_field

from ..judges.base import Usage
from ..summarization.result import SummarizationAnalysis, SummarizationPreprocess, SummarizationResult
from ..summarization.samples import SampledSummarizationResult
from ..summarization.verdicts import AlignmentVerdict, CoverageVerdict


class Verdicts(BaseModel):
    """What the judge said: the summary's claims (A), the source's questions (B), their answers (C)."""

    alignment: list[AlignmentVerdict]
    questions: list[str]
    coverage: list[CoverageVerdict]

    @property
    def claims_supported(self) -> int:
        return sum(1 for c in self.alignment if c.supported)

    @property
    def claims_unchecked(self) -> int:
        """Claims the judge could neither confirm nor show wrong (:attr:`AlignmentVerdict.unchecked`)."""
        return sum(1 for c in self.alignment if c.unchecked)

    @property
    def questions_answered(self) -> int:
        return sum(1 for c in self.coverage if c.answered)

    @property
    def questions_unchecked(self) -> int:
        """Questions the judge could neither answer nor show missing (:attr:`CoverageVerdict.unchecked`)."""
        return sum(1 for c in self.coverage if c.unchecked)


class ItemUsage(Usage):
    """An item's judge usage, with its total written out for readers of the JSON line."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class SampleOutcome(BaseModel):
    """One of a sampled item's k evaluations."""

    index: int
    score: float
    alignment_score: float
    coverage_score: float
    reason: str
    verdicts: Verdicts


_ONLY_WHEN_SET = ("reducer", "score_spread", "samples", "source_sha256")


class _Outcome(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str

    def as_json(self) -> dict[str, Any]:
        """The item's JSON object (the keys of samples and the source digest only when set)."""
        data = self.model_dump(mode="json")
        for key in _ONLY_WHEN_SET:
            if data.get(key) is None:
                data.pop(key, None)
        return data

    def line(self) -> str:
        """The item's JSON line (``--out``, ``runs export``)."""
        return json.dumps(self.as_json(), ensure_ascii=False)


class ScoredItem(_Outcome):
    """An item that was scored."""

    score: float
    alignment_score: float
    coverage_score: float
    reason: str
    verdicts: Verdicts | None = None
    """``None`` only in records written by hand (tools may store just the figures)."""
    usage: ItemUsage | None = None
    error: None = None
    reducer: str | None = None
    score_spread: float | None = None
    samples: list[SampleOutcome] | None = None
    source_sha256: str | None = None

    @classmethod
    def from_result(cls, item_id: str, result: SummarizationResult, *, source_sha256: str | None = None) -> ScoredItem:
        """The record of a scored item (with every sample, when the scorer drew several)."""
        sampled = isinstance(result, SampledSummarizationResult)
        return cls(
            id=item_id,
            score=result.score,
            alignment_score=result.alignment_score,
            coverage_score=result.coverage_score,
            reason=result.reason,
            verdicts=_verdicts(result.preprocess_step_result, result.analyze_step_result),
            usage=ItemUsage(**result.usage.model_dump()),
            reducer=result.reducer if sampled else None,
            score_spread=result.score_spread if sampled else None,
            samples=[
                SampleOutcome(
                    index=s.index,
                    score=s.score,
                    alignment_score=s.alignment_score,
                    coverage_score=s.coverage_score,
                    reason=s.reason,
                    verdicts=_verdicts(s.preprocess_step_result, s.analyze_step_result),
                )
                for s in result.samples
            ]
            if sampled
            else None,
            source_sha256=source_sha256,
        )


def _verdicts(pre: SummarizationPreprocess, ana: SummarizationAnalysis) -> Verdicts:
    return Verdicts(alignment=pre.alignment, questions=pre.questions, coverage=ana.coverage)


class FailedItem(_Outcome):
    """An item whose evaluation failed, with the error that ended it."""

    score: None = None
    alignment_score: None = None
    coverage_score: None = None
    reason: None = None
    verdicts: None = None
    usage: None = None
    error: str
    source_sha256: str | None = None


ItemOutcome = ScoredItem | FailedItem


def source_digest(source: str) -> str:
    """sha256 of one source text: ``sumjudge score`` writes it with each item (``source_sha256``) so
    that two runs' items with the same id can be checked to have been judged against the same source."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def run_line(outcome: ItemOutcome, judge: str, options: dict[str, Any], *, labels: Any = None) -> str:
    """An item's ``--out`` / ``runs export`` line with the run's judge and scorer options added
    (``judge``, ``options``), so that ``sumjudge compare`` can refuse files scored differently, as it
    refuses such runs of the store. Readers of the item ignore the two keys; lines written before
    they existed read without them (nothing known, nothing checked). ``labels``: what people said of its
    verdicts in ``sumjudge view``, under ``"labels"`` when there are any."""
    extra = {"labels": labels} if labels else {}
    return json.dumps({**outcome.as_json(), "judge": judge, "options": options, **extra}, ensure_ascii=False)


def outcome_from_json(data: dict[str, Any] | str) -> ItemOutcome:
    """A stored or written line back as :class:`ScoredItem` or :class:`FailedItem`."""
    if isinstance(data, str):
        data = json.loads(data)
    assert isinstance(data, dict)
    if data.get("error") is not None:
        return FailedItem.model_validate(data)
    return ScoredItem.model_validate(data)


__all__ = ["FailedItem", "ItemOutcome", "ItemUsage", "SampleOutcome", "ScoredItem", "Verdicts", "outcome_from_json", "run_line", "source_digest"]
