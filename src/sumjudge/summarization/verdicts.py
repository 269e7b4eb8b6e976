"""The verdict types of the summarization scorer: what each judge step must return.

These pydantic models are both the JSON schema sent to the judge and the shape stored in
the result. Step names are constants so judges that read no prompt can dispatch on them.

Each verdict asks for its evidence and reason before its verdict (``claim``, ``quote``, ``reason``,
``supported``; ``question``, ``quote``, ``reason``, ``answered``): providers generate keys in schema
order, so a model cites and writes why before it commits to yes or no, rather than justifying a verdict
already given. The ``quote`` is checked by the scorer (:mod:`.quotes`): where it was found goes in
``quote_offsets``, whether it holds up in ``verified``.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, field_validator, model_serializer
from pydantic.json_schema import SkipJsonSchema

ALIGNMENT_STEP = "alignment"
CLAIMS_STEP = "claims"
"""A long source only: the summary's claims, listed from the summary alone."""
QUESTIONS_STEP = "questions"
COVERAGE_STEP = "coverage"


class _Strict(BaseModel):
    # extra="forbid" puts additionalProperties: false in the schema, as strict json_schema wants.
    model_config = ConfigDict(extra="forbid")


def _drop_none(data: Any, keys: tuple[str, ...]) -> Any:
    """A verdict's serialised form without the judge-set fields that are absent, so results of judges
    that set none of them keep their shape."""
    if isinstance(data, dict):
        for key in keys:
            if data.get(key) is None:
                data.pop(key, None)
    return data


def _drop_false(data: Any, keys: tuple[str, ...]) -> Any:
    """As :func:`_drop_none`, for flags: left out of the serialised form when ``False``."""
    if isinstance(data, dict):
        for key in keys:
            if data.get(key) is False:
                data.pop(key, None)
    return data


def _drop_unlocated(data: Any) -> Any:
    """``quote_offsets`` and ``verified`` only on verdicts the scorer checked (``quote_offsets`` is
    then written even when ``null``: the quote was not found)."""
    if isinstance(data, dict) and data.get("verified") is None:
        data.pop("verified", None)
        data.pop("quote_offsets", None)
    return data


def readable_probability(value: float | None) -> float | None:
    """A probability a verdict can carry: a finite number from 0 to 1. Anything else (NaN, infinity,
    5.0, -3.0) is no probability at all: the verdict then counts as its boolean, and no NaN reaches a
    score, the run store or an export."""
    if value is None or isinstance(value, bool):
        return None
    value = float(value)
    return value if math.isfinite(value) and 0.0 <= value <= 1.0 else None


class EvidenceSpan(BaseModel):
    """A passage of the source a claim was judged against: ``source[start:end]``."""

    model_config = ConfigDict(frozen=True)

    start: int
    end: int


class Difference(BaseModel):
    """Words a judge shows wrong in a claim: ``claim``, as the summary writes them, and
    ``source``, what the disproving passage (the verdict's quote) says in their place ("" where it
    says nothing there: a word the source lacks, a pronoun that points at no one)."""

    claim: str
    source: str = ""
    claim_offsets: list[int] | None = None
    """Set by the scorer: ``[start, end]`` of :attr:`claim` in the summary (within the claim), or
    ``None`` where it was not found."""
    source_offsets: list[int] | None = None
    """Set by the scorer: ``[start, end]`` of :attr:`source` in the source (within the quoted
    passage), or ``None``."""

    @model_serializer(mode="wrap")
    def _drop_absent(self, handler: SerializerFunctionWrapHandler) -> Any:
        return _drop_none(handler(self), ("claim_offsets", "source_offsets"))


class AlignmentVerdict(_Strict):
    claim: str = Field(description="one atomic claim from the summary, in the summary's language")
    quote: str = ""
    """The judge's evidence, verbatim (what to quote the prompt says: its schema carries no description,
    to keep small context windows' room)."""
    reason: str = Field(description="why, quoting the source or naming what differs or is missing")
    supported: bool = Field(description="true only if the source states or directly implies the claim")
    evidence: SkipJsonSchema[list[EvidenceSpan] | None] = None
    """Set by the scorer, never asked of the judge: on a long source, the passages (character offsets
    into the source) that the claim was judged against. Left out of the result when ``None``."""

    probability: SkipJsonSchema[float | None] = None
    """Set by a judge that can read it, never asked of the model in words: the probability that the
    claim is supported (the reader's next-token distribution; an OpenAI-compatible judge's token
    log-probabilities). Left out of the result when ``None`` (the judge cannot give one)."""

    quote_offsets: SkipJsonSchema[list[int] | None] = None
    """Set by the scorer: ``[start, end]``, where :attr:`quote` was found in the source
    (``source[start:end]``), or ``None`` where it was not (see :mod:`.quotes`)."""
    verified: SkipJsonSchema[bool | None] = None
    """Set by the scorer: whether the quote holds the verdict up (found in the source; a supported claim
    needs one). ``None`` only on verdicts no scorer checked (records made before quotes existed)."""

    differs: SkipJsonSchema[list[Difference] | None] = None
    """Set by a judge that shows the error, never asked of the model in words: for an unsupported
    claim, the words that differ, in the claim and in the passage that disproves it (the verdict's
    :attr:`quote`); the scorer locates them as it does the quote. Left out of the result when ``None``."""

    unchecked: SkipJsonSchema[bool] = False
    """Set by a judge that could not check the claim either way (the offline judge: content words it
    does not find in the source, and no error it can show): the verdict is "supported" because nothing
    contradicts it, not because the source was seen to state it. A reviewer filters by it. Left out
    of the result when ``False``."""

    decided_by: SkipJsonSchema[Literal["words", "contrast", "peer"] | None] = None
    """Set by a judge whose rule, not the claim's probability against a threshold, decided the verdict:
    ``words`` (the words show the claim wrong), ``contrast`` (the source's alternative reads as more
    probable) or ``peer`` (the claim reads far below the summary's best other claim). A calibration
    re-decides by probability only the verdicts no rule decided. Left out of the result when ``None``."""

    @field_validator("probability")
    @classmethod
    def _readable(cls, value: float | None) -> float | None:
        return readable_probability(value)

    @model_serializer(mode="wrap")
    def _drop_absent(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = _drop_none(handler(self), ("evidence", "probability", "differs", "decided_by"))
        return _drop_false(_drop_unlocated(data), ("unchecked",))


class CoverageVerdict(_Strict):
    question: str = Field(description="the question, copied as given")
    quote: str = ""
    """The judge's evidence, verbatim (what to quote the prompt says: its schema carries no description,
    to keep small context windows' room)."""
    reason: str = Field(description="why, or what is missing")
    answered: bool = Field(description="true only if the summary alone answers the question with yes")
    probability: SkipJsonSchema[float | None] = None
    """The probability that the summary answers the question with yes, where the judge can read one
    (as :attr:`AlignmentVerdict.probability`). Left out of the result when ``None``."""
    quote_offsets: SkipJsonSchema[list[int] | None] = None
    """Set by the scorer: ``[start, end]``, where :attr:`quote` was found in the summary, or ``None``."""
    verified: SkipJsonSchema[bool | None] = None
    """Set by the scorer: whether the quote holds the verdict up (found in the summary; an answered
    question needs one). ``None`` only on verdicts no scorer checked."""

    unchecked: SkipJsonSchema[bool] = False
    """As :attr:`AlignmentVerdict.unchecked`: the verdict rests on words the judge could not match
    either way. Left out of the result when ``False``."""

    @field_validator("probability")
    @classmethod
    def _readable(cls, value: float | None) -> float | None:
        return readable_probability(value)

    @model_serializer(mode="wrap")
    def _drop_absent(self, handler: SerializerFunctionWrapHandler) -> Any:
        return _drop_false(_drop_unlocated(_drop_none(handler(self), ("probability",))), ("unchecked",))


class AlignmentOutput(_Strict):
    """Call A: the claims of the summary, each judged against the source."""

    alignment: list[AlignmentVerdict]


class QuestionsOutput(_Strict):
    """Call B: closed questions that the source answers with yes (source only)."""

    questions: list[str]


class ClaimsOutput(_Strict):
    """Long sources: the summary's atomic claims (summary only)."""

    claims: list[str]


class CoverageOutput(_Strict):
    """Call C: each question answered from the summary alone, in the order given."""

    coverage: list[CoverageVerdict]
