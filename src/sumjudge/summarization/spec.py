"""What a summarization run is, made once from what the user said: :class:`ScorerSpec`.

Every entry point (the ``check``, ``score``, ``probe`` and ``questions`` commands, the batch runner's worker
processes, the library's factory) turns its arguments into one frozen spec: the judge's id (checked once,
its registry entry found once), the judge's options (typed once by that entry), and the scorer's
:class:`~.options.SummarizationOptions` (each field validated once and defaulted once, there), which hold
the kept exam and the calibration when there are. :meth:`ScorerSpec.scorer` is the one factory that makes
a scorer of it; :meth:`ScorerSpec.identity` is the same value as the run store keys a run on, so nothing
downstream rebuilds an options dict or parses a model id again.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from os import PathLike
from typing import TYPE_CHECKING, Any

from ..errors import ConfigurationError
from ..judges.base import JudgeModel, ModelConfig
from ..judges.options import checked_options
from ..judges.registry import (
    DEFAULT_JUDGE_NOTICE, JudgeEntry, default_chosen_for_user, default_model_id, judge_entry, resolve_judge,
)
from .options import DEFAULT_SAMPLE_TEMPERATURE, SummarizationOptions
from .scorer import SummarizationScorer

if TYPE_CHECKING:  # loaded where a run has an exam or a calibration
    from .calibration import Calibration
    from .exam import Exam

IDENTITY_FIELDS = ("max_questions", "scale", "samples", "reducer", "sample_temperature", "graded", "draw_missing",
                   "question_draws", "strict_evidence")
"""The options that name a run besides its exam and calibration (each by its digest). ``max_claims``, the
source and its extractor are not among them: the command line does not set them per run."""


@dataclass(frozen=True)
class ScorerSpec:
    """The judge and the scorer's options of one run, checked; make it with :meth:`make`."""

    model: str
    """The judge's registry id, ``provider/model``."""
    options: SummarizationOptions = field(default_factory=SummarizationOptions)
    judge_options: tuple[tuple[str, Any], ...] = ()
    """The judge's ``ModelConfig.extra`` (``--judge-option``), typed by its entry, as sorted pairs."""
    entry: JudgeEntry | None = field(default=None, compare=False, repr=False)
    """The model id's registry entry, found by :meth:`make` (``None``: found when the scorer is made)."""

    @classmethod
    def make(
        cls, model: str | None = None, options: SummarizationOptions | Mapping[str, Any] | None = None,
        judge_options: Mapping[str, Any] | None = None,
    ) -> ScorerSpec:
        """The spec of ``model`` (``None``: ``$SUMJUDGE_MODEL``, else the default judge), its options and
        the scorer's. A bad id, option or value is one :class:`ConfigurationError`, before anything is read
        or a model loaded."""
        model_id = model or default_model_id()
        entry = judge_entry(model_id)
        checked = checked_options(model_id, judge_options or {}, entry)
        return cls(model_id, SummarizationOptions.coerce(options), tuple(sorted(checked.items())), entry)

    @property
    def exam(self) -> Exam | None:
        if self.options.questions is None:
            return None
        from .exam import Exam

        return self.options.questions if isinstance(self.options.questions, Exam) else None

    @property
    def calibration(self) -> Calibration | None:
        if self.options.calibration is None:
            return None
        from .calibration import Calibration

        return self.options.calibration if isinstance(self.options.calibration, Calibration) else None

    def judge_config(self, *, concurrency: int = 4, timeout: float | None = None) -> ModelConfig:
        """The judge's settings: its id and options, with how many requests fly at once and the reply timeout."""
        settings: dict[str, Any] = {"max_concurrency": concurrency}
        if self.judge_options:
            settings["extra"] = dict(self.judge_options)
        if timeout is not None:
            settings["timeout"] = timeout
        return ModelConfig(id=self.model, **settings)

    def judge(self, *, concurrency: int = 4, timeout: float | None = None) -> JudgeModel:
        """The judge of this spec, made by its registry entry (the id is not parsed again)."""
        entry = self.entry or judge_entry(self.model)
        return entry.create(self.judge_config(concurrency=concurrency, timeout=timeout))

    def scorer(
        self, *, concurrency: int = 4, timeout: float | None = None, cache: bool | str | PathLike[str] | None = None,
        wrap: Callable[[JudgeModel], JudgeModel] | None = None, judge: JudgeModel | None = None,
    ) -> SummarizationScorer:
        """The scorer this spec names: its judge made once (or ``judge`` given: a test's), passed through
        ``wrap`` (the batch runner's meter and provider batch rounds), behind the reply cache."""
        made = judge if judge is not None else self.judge(concurrency=concurrency, timeout=timeout)
        return SummarizationScorer(_cached(wrap(made) if wrap is not None else made, cache), self.options)

    def identity(self) -> dict[str, Any]:
        """The options the run store keys this run on and records: ``max_questions`` and ``scale`` always,
        any other only when it differs from its default (so a run recorded before an option existed
        resumes), the sampling ones only with more than one sample, the exam and the calibration by their
        digests. The judge's own options are recorded beside them by the run store."""
        o = self.options
        named: dict[str, Any] = {"max_questions": o.max_questions, "scale": float(o.scale)}
        if o.samples > 1:
            named.update(samples=o.samples, reducer=o.reducer)
            if o.sample_temperature != DEFAULT_SAMPLE_TEMPERATURE:
                named["sample_temperature"] = o.sample_temperature
        if o.graded:
            named["graded"] = True
        if self.exam is not None:
            named["exam"] = self.exam.digest
            if o.draw_missing:
                named["draw_missing"] = True
        if o.strict_evidence:
            named["strict_evidence"] = True
        if self.calibration is not None:
            named["calibration"] = self.calibration.digest
        if o.question_draws is not None and o.samples > 1:
            named["question_draws"] = o.question_draws
        return named

    @classmethod
    def from_identity(
        cls, model: str, identity: Mapping[str, Any], *, exam: Exam | None = None,
        calibration: Calibration | None = None, judge_options: Mapping[str, Any] | None = None,
    ) -> ScorerSpec:
        """The spec a run's :meth:`identity` names, with the exam and the calibration it names by digest
        (a worker process, a resumed batch). A digest that is not the object's is refused."""
        for key, given in (("exam", exam), ("calibration", calibration)):
            named = identity.get(key)
            if (named is not None or given is not None) and (given is None or given.digest != named):
                raise ConfigurationError(f"the run's options name the {key} {named!r}, but the {key} given is "
                                         f"{given.digest if given is not None else None!r}")
        unknown = sorted(set(identity) - {*IDENTITY_FIELDS, "exam", "calibration"})
        if unknown:
            raise ConfigurationError(f"unknown run options {unknown}")
        options = SummarizationOptions(**{k: identity[k] for k in IDENTITY_FIELDS if k in identity},
                                       questions=exam, calibration=calibration)
        return cls.make(model, options, judge_options)

    def recipe(self) -> str:
        """This spec as JSON text that crosses processes (:meth:`from_recipe` reads it back)."""
        return json.dumps({
            "model": self.model, "identity": self.identity(), "judge_options": dict(self.judge_options),
            "exam": self.exam.text() if self.exam is not None else None,
            "calibration": self.calibration.model_dump_json() if self.calibration is not None else None,
        }, sort_keys=True)

    @classmethod
    def from_recipe(cls, text: str) -> ScorerSpec:
        from .calibration import Calibration
        from .exam import Exam

        data = json.loads(text)
        exam = Exam.parse(data["exam"]) if data["exam"] is not None else None
        calibration = Calibration.model_validate_json(data["calibration"]) if data["calibration"] else None
        return cls.from_identity(data["model"], data["identity"], exam=exam, calibration=calibration,
                                 judge_options=data["judge_options"])


def _cached(judge: JudgeModel, cache: bool | str | PathLike[str] | None) -> JudgeModel:
    """``judge`` behind the reply cache ``cache`` names (the cache's module loads only when one does)."""
    if not cache:
        return judge
    from ..judges.cache import with_cache

    return with_cache(judge, cache)


def create_summarization_scorer(
    model: str | ModelConfig | JudgeModel | None = None,
    options: SummarizationOptions | Mapping[str, Any] | None = None,
    *,
    cache: bool | str | PathLike[str] | None = None,
) -> SummarizationScorer:
    """Create a summarization scorer.

    ``model`` is ``"provider/model"``, a :class:`ModelConfig`, or a judge object; omitted, it is
    ``SUMJUDGE_MODEL`` or else the offline lexical judge (said once on standard error). A name goes
    through :class:`ScorerSpec` as the commands' flags do (one check of the id and of each option);
    a ``ModelConfig`` (which may hold a key, a URL, retries) or a ready judge is used as given.
    Options are checked here: ``max_questions < 1`` or ``scale <= 0`` raise ``ValueError``.
    ``cache``: ``True`` keeps judge replies in ``.sumjudge/cache.db`` (or give a path), so
    re-running an evaluation costs no calls and gives the same verdicts.
    """
    if model is None or isinstance(model, str):
        scorer = ScorerSpec.make(model, options).scorer(cache=cache)
    else:
        scorer = SummarizationScorer(_cached(resolve_judge(model), cache), SummarizationOptions.coerce(options))
    if default_chosen_for_user(model):
        print(DEFAULT_JUDGE_NOTICE, file=sys.stderr)
    return scorer


__all__ = ["IDENTITY_FIELDS", "ScorerSpec", "create_summarization_scorer"]
