"""The summarization scorer's options, checked when the scorer is created."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from os import PathLike
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ConfigurationError
from ..guards.limits import DEFAULT_MAX_QUESTIONS, MAX_CLAIMS, MAX_QUESTIONS, MAX_SAMPLES
from ..messages import SourceExtractor

if TYPE_CHECKING:  # an exam and a calibration are read (their modules loaded) only when given
    from .calibration import Calibration
    from .exam import Exam

Reducer = Literal["mean", "median", "min"]
REDUCERS: tuple[str, ...] = ("mean", "median", "min")

DEFAULT_SAMPLE_TEMPERATURE = 0.7
"""The temperature samples are drawn at when the judge is set to 0 (its default). At 0 a model
answers the same prompt the same way, so k samples would be one sample paid k times. 0.7 is the
usual choice for sampling several reasoning paths of one model (self-consistency, Wang et al.
2022): high enough that the questions drawn and the borderline verdicts vary, low enough that a
model still keeps to the JSON schema. A judge set above 0 keeps its own temperature."""


def _count(name: str, value: Any, maximum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise ConfigurationError(f"{name} must be an integer >= 1 and <= {maximum}, got {value!r}")


@dataclass(frozen=True)
class SummarizationOptions:
    """Options of the summarization scorer (a plain dict with these keys works too)."""

    source: str | None = None
    """The text to judge against (default: the run input's first user message)."""
    source_extractor: SourceExtractor | None = None
    """``callable(input, output) -> str``; wins over ``source``."""
    max_questions: int = DEFAULT_MAX_QUESTIONS
    """Upper bound on coverage questions; from 1 to :data:`~sumjudge.guards.limits.MAX_QUESTIONS`."""
    scale: float = 1
    """Multiplies the final score; must be > 0."""
    max_claims: int = 100
    """Upper bound on the summary's claims judged; from 1 to :data:`~sumjudge.guards.limits.MAX_CLAIMS`. A summary with more is judged on its
    first ``max_claims`` claims, and the reason says so."""
    samples: int = 1
    """Independent evaluations per summary (from 1 to :data:`~sumjudge.guards.limits.MAX_SAMPLES`). Above 1, ``score`` is the ``reducer`` of
    the sample scores and the result keeps every sample (see :mod:`.samples`); 1 is one evaluation,
    the plain result, at the plain cost."""
    reducer: Reducer = "mean"
    """How ``samples`` scores become ``score``: ``mean``, ``median`` or ``min``."""
    sample_temperature: float = DEFAULT_SAMPLE_TEMPERATURE
    """The temperature samples are drawn at when the judge is set to 0 (a judge set above 0 keeps
    its own). Unused with one sample."""
    questions: Exam | str | PathLike[str] | None = None
    """A kept exam (:mod:`.exam`), or the path of one: each source's coverage questions are taken from
    it instead of being drawn (with ``samples``, every sample sits the same exam). Read when the
    options are made; a path is replaced by the :class:`~.exam.Exam` read from it."""
    draw_missing: bool = False
    """With ``questions``: draw questions for a source the exam does not hold, instead of refusing it."""
    question_draws: int | None = None
    """With ``samples``: how many draws of the questions the samples share (sample i sits draw
    ``i % question_draws``), so the score's spread splits into the part that comes from the questions
    drawn and the part from the verdicts (:mod:`sumjudge.analysis.spread`). ``None``: each sample
    draws its own. Ignored with a kept exam (every sample sits it)."""
    strict_evidence: bool = False
    """Count an unverified verdict (its quote not found: :mod:`.quotes`) as unsupported / unanswered.
    Off by default; the result's ``strict_evidence`` says when it is on."""
    graded: bool = False
    """Score each axis as the mean probability of its verdicts (of the claims being supported, of
    the questions being answered), each verdict without a probability counting as its boolean;
    ``False`` (the default) keeps the spec's formula, the shares of true verdicts. The result says
    which was used (``graded`` and its reason). Only judges that give probabilities (OpenAI-compatible
    servers that return token log-probabilities, the reader) grade anything."""

    calibration: Calibration | str | PathLike[str] | None = None
    """A team's calibration (:mod:`.calibration`), or the path of its file: each verdict is re-decided by
    it (thresholds, how unchecked verdicts count) before the score. Made for another judge: refused."""

    def __post_init__(self) -> None:
        if self.questions is not None:
            from .exam import load_exam

            object.__setattr__(self, "questions", load_exam(self.questions))
        if self.calibration is not None:
            from .calibration import load_calibration

            object.__setattr__(self, "calibration", load_calibration(self.calibration))
        _count("max_questions", self.max_questions, MAX_QUESTIONS)
        _count("max_claims", self.max_claims, MAX_CLAIMS)
        sc = self.scale
        if isinstance(sc, bool) or not isinstance(sc, (int, float)) or not sc > 0 or sc == float("inf"):
            raise ConfigurationError(f"scale must be a number > 0, got {sc!r}")
        _count("samples", self.samples, MAX_SAMPLES)
        k = self.samples
        qd = self.question_draws
        if qd is not None and (isinstance(qd, bool) or not isinstance(qd, int) or not 1 <= qd <= k):
            raise ConfigurationError(f"question_draws must be an integer from 1 to samples ({k}), got {qd!r}")
        if self.reducer not in REDUCERS:
            raise ConfigurationError(f"reducer must be one of {', '.join(REDUCERS)}, got {self.reducer!r}")
        t = self.sample_temperature
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 < t <= 2:  # nan fails too
            raise ConfigurationError(f"sample_temperature must be a number in (0, 2], got {t!r}")
        if not isinstance(self.graded, bool):
            raise ConfigurationError(f"graded must be True or False, got {self.graded!r}")
        if self.source is not None and not isinstance(self.source, str):
            raise ConfigurationError(f"source must be a str, got {type(self.source).__name__}")
        if self.source_extractor is not None and not callable(self.source_extractor):
            raise ConfigurationError("source_extractor must be callable(input, output) -> str")

    @classmethod
    def coerce(cls, options: SummarizationOptions | Mapping[str, Any] | None) -> SummarizationOptions:
        if options is None:
            return cls()
        if isinstance(options, cls):
            return options
        if not isinstance(options, Mapping):
            raise ConfigurationError(f"options must be SummarizationOptions or a dict, got {type(options).__name__}")
        aliases = {
            "sourceExtractor": "source_extractor",
            "maxQuestions": "max_questions",
            "maxClaims": "max_claims",
            "sampleTemperature": "sample_temperature",
            "drawMissing": "draw_missing",
            "questionDraws": "question_draws",
            "strictEvidence": "strict_evidence",
        }
        known = {f.name for f in fields(cls)}
        kwargs = {aliases.get(k, k): v for k, v in options.items()}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise ConfigurationError(f"unknown options {unknown}; known: {sorted(known)}")
        return cls(**kwargs)
