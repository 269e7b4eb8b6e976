"""A calibration: what a team's own labels changed in how a judge's verdicts count, as a versioned file.

``sumjudge calibrate`` fits one from a run and the labels people left on it
(:mod:`sumjudge.analysis.calibration_fit`); a scorer given one (``SummarizationOptions(calibration=...)``,
``--calibration FILE``) re-decides each verdict from what the judge already said, with no further call:

- a judge with probabilities (``local/reader``, an OpenAI-compatible server with token log-probabilities):
  a claim is supported at ``claim_threshold`` (unless a rule of the judge decided it, ``decided_by``: the
  words showed it wrong, or the model preferred the source's alternative; that decision stands), a question answered at ``question_threshold``, and a
  question within ``unsure_margin`` of it is *unchecked* (it counts in coverage as its probability);
- the offline judge: an *unchecked* claim (words it could not find, no error it could show) counts as
  ``unchecked_claims`` ("supported", the default, or "unsupported"), and an unsettled question counts in
  coverage as ``unsettled_presence`` (0.31 by default);
- every judge: ``bound``, the score that best separated the team's pass from fail, with its interval; the
  gate ``check`` holds a summary to when no ``--fail-under`` is given;
- a judge that reads prompts (an LLM over HTTP): ``examples``, verdicts the team corrected, shown to the
  judge in the alignment and coverage prompts as the team's own judgments (a calibration with examples
  changes what the judge is asked, so it takes effect on new calls, not on stored verdicts).

The file names the judge it was fitted for (its id, and its identity: rules, prompt, weights), the run's
options and the labels' digest. A calibration for another judge is refused; its digest is part of a
run's identity, so another calibration is another run.
"""

from __future__ import annotations

import hashlib
import json
from os import PathLike
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import ConfigurationError, InputError
from .verdicts import AlignmentVerdict, CoverageVerdict

FORMAT = "sumjudge-calibration"
VERSION = 1
MAX_FILE_BYTES = 1_000_000
"""A calibration file is a few hundred bytes; a larger one is refused before it is parsed."""


EXAMPLE_CHARS = 300
"""Characters of an example's text or passage kept (cut at a word): an example shows a decision, not a document."""


class Example(BaseModel):
    """One verdict the team corrected: a claim and the source passage the judge cited, with whether the claim
    is supported; or a question and the summary's words, with whether the summary answers it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    step: Literal["alignment", "coverage"]
    text: str = Field(min_length=1, max_length=EXAMPLE_CHARS)
    """The claim (alignment) or the question (coverage)."""
    passage: str = Field(default="", max_length=EXAMPLE_CHARS)
    """The source passage the judge cited (alignment) or the summary's words it quoted (coverage)."""
    truth: bool
    """Supported (alignment) or answered (coverage), as the team said."""

    def line(self) -> str:
        said = json.dumps(self.text, ensure_ascii=False)
        where = f" | passage: {json.dumps(self.passage, ensure_ascii=False)}" if self.passage else ""
        if self.step == "alignment":
            return f"- claim: {said}{where} | supported: {str(self.truth).lower()}"
        return f"- question: {said}{where} | answered: {str(self.truth).lower()}"


EXAMPLES_HEAD = ("Your team's own decisions on earlier summaries, where a first reading went the other way. Decide "
                 "the same way in cases like these; they are examples, not part of the texts below:")


class Calibration(BaseModel):
    """One calibration file (JSON). Fields left ``None`` keep the judge's own decision."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["sumjudge-calibration"] = FORMAT
    version: Literal[1] = VERSION
    judge: str
    """The judge's id the labels were fitted on (``offline/lexical``, ``local/reader``, ``openai/gpt-4o-mini``)."""
    judge_identity: str | None = None
    """What else names that judge (its rules' version, prompt, model digest), where it has more than its id."""
    options: dict[str, Any] = Field(default_factory=dict)
    """The scorer's options of the run it was fitted on (``max_questions``, ``scale``...)."""
    labels_digest: str
    """sha256 of the labels it was fitted on, in a canonical order."""
    labels: int = Field(ge=0)
    """Labelled items it was fitted on."""
    claim_threshold: float | None = Field(default=None, gt=0, lt=1)
    question_threshold: float | None = Field(default=None, gt=0, lt=1)
    unsure_margin: float | None = Field(default=None, ge=0, lt=0.5)
    unchecked_claims: Literal["supported", "unsupported"] | None = None
    unsettled_presence: float | None = Field(default=None, ge=0, le=1)
    bound: float | None = Field(default=None, ge=0)
    """The score at or above which a summary passes (the scale of ``options``)."""
    bound_interval: tuple[float, float] | None = None
    agreement: dict[str, Any] = Field(default_factory=dict)
    """What cross-validation measured, kept for the record (balanced accuracy before and after, ...)."""
    examples: tuple[Example, ...] = ()
    """Verdicts the team corrected, shown in the prompts of a judge that reads them (chosen by ``calibrate``
    within a token budget)."""

    @property
    def digest(self) -> str:
        """sha256 of the file's canonical JSON: the calibration's name in a run's identity."""
        data = self.model_dump(mode="json", exclude={"examples"} if not self.examples else None)
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()

    def examples_text(self, step: Literal["alignment", "coverage"]) -> str:
        """The examples of ``step`` as the block a prompt carries, or ``""`` when there are none."""
        lines = [e.line() for e in self.examples if e.step == step]
        return "\n".join([EXAMPLES_HEAD, *lines]) if lines else ""

    @property
    def short(self) -> str:
        return self.digest.removeprefix("sha256:")[:12]

    def text(self) -> str:
        """The file's text."""
        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"

    def check_judge(self, model_id: str) -> None:
        """One line, :class:`ConfigurationError`, when ``model_id`` is not the judge this was fitted for."""
        if model_id != self.judge:
            raise ConfigurationError(f"the calibration {self.short} was fitted for the judge {self.judge!r}, not "
                                     f"{model_id!r}: calibrate again on a run of this judge")

    def claim(self, v: AlignmentVerdict) -> AlignmentVerdict:
        """A claim's verdict as the calibration decides it (the verdict itself when nothing changes)."""
        supported = v.supported
        if v.unchecked and self.unchecked_claims is not None:
            supported = self.unchecked_claims == "supported"
        elif (self.claim_threshold is not None and v.probability is not None and not v.unchecked
              and v.decided_by is None):  # a rule's decision (words, an alternative, the peers) stands
            supported = v.probability >= self.claim_threshold
        return v if supported == v.supported else v.model_copy(update={"supported": supported})

    def answer(self, v: CoverageVerdict) -> CoverageVerdict:
        """A coverage verdict as the calibration decides it."""
        update: dict[str, Any] = {}
        if v.unchecked and self.unsettled_presence is not None and self.question_threshold is None:
            update["probability"] = self.unsettled_presence
        elif self.question_threshold is not None and v.probability is not None:
            p, t = v.probability, self.question_threshold
            update["answered"] = p >= t
            update["unchecked"] = self.unsure_margin is not None and abs(p - t) < self.unsure_margin
        changed = {k: x for k, x in update.items() if getattr(v, k) != x}
        return v.model_copy(update=changed) if changed else v

    def redecide(self, claims: list[AlignmentVerdict], answers: list[CoverageVerdict]
                 ) -> tuple[list[AlignmentVerdict], list[CoverageVerdict], int]:
        """Every verdict re-decided, and how many changed."""
        new_claims, new_answers = [self.claim(v) for v in claims], [self.answer(v) for v in answers]
        changed = sum(a is not b for a, b in zip(claims, new_claims)) + sum(a is not b for a, b in zip(answers, new_answers))
        return new_claims, new_answers, changed


def read_calibration(path: str | PathLike[str]) -> Calibration:
    """A calibration file read and checked: one-line :class:`InputError` for a missing, oversized or
    malformed file."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_FILE_BYTES:
            raise InputError(f"calibration {p}: over {MAX_FILE_BYTES:,} bytes; not a calibration file")
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"calibration {p}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"calibration {p}: cannot be read as JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"calibration {p}: not a sumjudge calibration file (no \"format\": \"{FORMAT}\")")
    try:
        return Calibration.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "the file"
        raise InputError(f"calibration {p}: {where}: {first['msg']}") from None


def load_calibration(value: Calibration | str | PathLike[str] | None) -> Calibration | None:
    """``value`` as a :class:`Calibration` (a path is read), or ``None``."""
    if value is None or isinstance(value, Calibration):
        return value
    if isinstance(value, (str, PathLike)):
        return read_calibration(value)
    raise ConfigurationError(f"calibration must be a Calibration or a file path, got {type(value).__name__}")


__all__ = ["FORMAT", "VERSION", "Calibration", "load_calibration", "read_calibration"]
