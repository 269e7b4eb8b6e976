"""The click options that ``score``, ``check`` and ``probe`` share (one definition each, so they never
drift): the judge, the scorer's options, repeated samples, the reply cache, the reply timeout, worker
processes and provider batch jobs."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import click

from ..guards.limits import (
    DEFAULT_MAX_QUESTIONS, MAX_CLAIMS, MAX_CONCURRENCY, MAX_PER_KIND, MAX_POLL_INTERVAL, MAX_QUESTIONS, MAX_SAMPLES, MAX_WORKERS,
)

F = Callable[..., Any]


class Seconds(click.ParamType):
    """A positive, finite number of seconds (``nan``, ``inf`` and negatives are refused, exit 2)."""

    name = "seconds"

    def __init__(self, maximum: float | None = None) -> None:
        self.maximum = maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r} is not a positive, finite number of seconds", param, ctx)
        if self.maximum is not None and seconds > self.maximum:
            self.fail(f"{value!r} is more than the most allowed, {self.maximum:g} seconds", param, ctx)
        return seconds


class Finite(click.ParamType):
    """A finite number (``nan`` and ``inf`` are refused: every comparison with them is false)."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


class PositiveNumber(Finite):
    """A finite number above 0."""

    name = "positive number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        number = super().convert(value, param, ctx)
        if number <= 0:
            self.fail(f"{value!r} is not above 0", param, ctx)
        return number


COUNT_MAXIMA = {
    "--max-claims": MAX_CLAIMS, "--samples": MAX_SAMPLES,
    "--concurrency": MAX_CONCURRENCY, "--workers": MAX_WORKERS, "--per-kind": MAX_PER_KIND,
}
"""Every count flag's maximum: a value above it is exit 2, said before anything is read or called (a
loop or a pool sized by the flag is never made)."""


def count(flag: str) -> click.IntRange:
    """The type of the count flag ``flag``: an integer from 1 to its :data:`COUNT_MAXIMA` entry."""
    return click.IntRange(min=1, max=COUNT_MAXIMA[flag])


def _stack(*decorators: F) -> F:
    def apply(f: F) -> F:
        for decorator in reversed(decorators):
            f = decorator(f)
        return f

    return apply


model_option = click.option(
    "--model", "-m", default=None, metavar="PROVIDER/MODEL",
    help="Judge model, e.g. openai/gpt-4o-mini. Default: $SUMJUDGE_MODEL, else offline/lexical.",
)
judge_option_option = click.option(
    "--judge-option", "judge_option", multiple=True, metavar="KEY=VALUE",
    help="A setting of the judge, repeatable: n_threads=2, threshold=0.3 (local/reader), a provider's own "
         "body parameter over HTTP. Also $SUMJUDGE_JUDGE_OPTIONS=\"k=v,k=v\" (a flag wins). Keys: docs/providers.md.",
)
"""``--judge-option``: the keyword argument ``judge_option`` (a tuple of ``KEY=VALUE``), turned into
``ModelConfig.extra`` by :func:`judge_extra`."""


def judge_extra(model_id: str, judge_option: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """``--judge-option`` and ``$SUMJUDGE_JUDGE_OPTIONS`` for ``model_id``, typed and checked
    (:func:`sumjudge.judges.options.judge_options`); a bad one is one line naming the known keys and
    exit 2, before any file is read or model loaded."""
    from ..errors import SumjudgeError
    from ..judges.options import judge_options
    from .common import fail

    try:
        return judge_options(model_id, judge_option)
    except SumjudgeError as exc:
        fail(str(exc))
        raise  # unreachable: fail exits


timeout_option = click.option(
    "--timeout", type=Seconds(), default=None, metavar="SECONDS",
    help="Seconds to wait for one judge reply (default 60).",
)


def max_questions_option(help: str = f"Upper bound on coverage questions per source (default "
                                     f"{DEFAULT_MAX_QUESTIONS}, at most {MAX_QUESTIONS}).") -> F:
    """``--max-questions``: its default is the scorer's; checked where the scorer's options are made."""
    return click.option("--max-questions", type=int, default=DEFAULT_MAX_QUESTIONS, metavar="N", help=help)


def samples_option(help: str = "Independent evaluations per summary; the score is their --reducer, the spread is "
                               f"kept (at most {MAX_SAMPLES}).") -> F:
    return click.option("--samples", type=count("--samples"), default=ScorerFlags.samples, show_default=True,
                        metavar="K", help=help)


def concurrency_option(help: str = f"Items in flight, and the most judge requests in flight (lowered on 429; at "
                                   f"most {MAX_CONCURRENCY}).", short: bool = True) -> F:
    names = ("--concurrency", "-c") if short else ("--concurrency",)
    return click.option(*names, type=count("--concurrency"), default=8, show_default=True, help=help)


def per_kind_option(help: str) -> F:
    return click.option("--per-kind", type=count("--per-kind"), default=None, metavar="N",
                        help=f"{help} (at most {MAX_PER_KIND}).")


max_claims_option = click.option(
    "--max-claims", type=count("--max-claims"), default=100, show_default=True,
    help=f"Claims judged at most per summary, as the scorer's max_claims (at most {MAX_CLAIMS}).")


class Temperature(Finite):
    """A finite temperature above 0, at most 2 (``nan`` is refused: every comparison with it is false)."""

    name = "temperature"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        number = super().convert(value, param, ctx)
        if not 0 < number <= 2:
            self.fail(f"{value!r} is not above 0 and at most 2", param, ctx)
        return number

graded_option = click.option(
    "--graded", is_flag=True,
    help="Score each axis as the mean probability of its verdicts (judges that give probabilities: "
         "OpenAI-compatible servers with token logprobs), not the share of yes verdicts.",
)
"""``--graded``: :attr:`SummarizationOptions.graded` (shared by ``score``, ``check`` and ``probe``)."""


@dataclass(frozen=True)
class ScorerFlags:
    """What the scorer's flags said, as one value a command passes to :func:`scorer_spec` unopened. Its
    defaults are the flags' defaults; :class:`~sumjudge.summarization.options.SummarizationOptions`
    checks each value, once."""

    max_questions: int = DEFAULT_MAX_QUESTIONS
    scale: float = 1.0
    samples: int = 1
    reducer: str = "mean"
    sample_temperature: float | None = None
    graded: bool = False


def _gathered(command: F) -> F:
    """``command`` called with the scorer's flags gathered into one ``scorer_flags`` argument."""

    @functools.wraps(command)
    def gathered(*args: Any, **kwargs: Any) -> Any:
        flags = ScorerFlags(**{f.name: kwargs.pop(f.name) for f in fields(ScorerFlags)})
        return command(*args, scorer_flags=flags, **kwargs)

    return gathered


scorer_options_decorator = _stack(
    max_questions_option(),
    click.option("--scale", type=PositiveNumber(), default=ScorerFlags.scale, show_default=True, metavar="X",
                 help="Multiplies every score."),
    samples_option(),
    click.option("--reducer", type=click.Choice(["mean", "median", "min"]), default=ScorerFlags.reducer,
                 show_default=True, help="How --samples scores become the score."),
    click.option("--sample-temperature", type=Temperature(), default=None,
                 metavar="T", help="Temperature of the samples when the judge is at 0 (default 0.7)."),
    graded_option,
    _gathered,
)
"""``--max-questions``, ``--scale``, ``--samples``, ``--reducer``, ``--sample-temperature``, ``--graded``,
passed to the command as one ``scorer_flags`` (:class:`ScorerFlags`)."""

cache_options = _stack(
    click.option("--cache", "use_cache", is_flag=True,
                 help="Answer repeated judge requests from a local cache (.sumjudge/cache.db)."),
    click.option("--cache-path", type=click.Path(dir_okay=False), default=None,
                 help="Where --cache keeps replies (implies --cache)."),
)
"""``--cache`` and ``--cache-path``."""


def scorer_spec(model: str | None, judge_option: Sequence[str], flags: ScorerFlags, **more: Any) -> Any:
    """What the flags ask for, as one :class:`~sumjudge.summarization.spec.ScorerSpec`: the judge
    (``--model``, else the default), its options (``--judge-option`` and ``$SUMJUDGE_JUDGE_OPTIONS``),
    and the scorer's :class:`~sumjudge.summarization.options.SummarizationOptions` (``flags``, and
    ``more``: the exam, the calibration, ``draw_missing``, ``strict_evidence``, ``question_draws``).
    Each is checked there, once; a bad one is one line naming its flag and exit 2, before any model is
    loaded."""
    from ..errors import SumjudgeError
    from ..judges.options import gathered_options
    from ..summarization.spec import ScorerSpec
    from .common import fail

    given = {f.name: getattr(flags, f.name) for f in fields(ScorerFlags)}
    if given["sample_temperature"] is None:  # the options' own default
        del given["sample_temperature"]
    options = scorer_options(**given, **more)
    try:
        return ScorerSpec.make(model, options, gathered_options(judge_option))
    except SumjudgeError as exc:
        fail(str(exc))


def scorer_options(**fields: Any) -> Any:
    """The scorer's :class:`~sumjudge.summarization.options.SummarizationOptions` of these fields,
    checked there (the one check of each); a bad one is one line naming its flag and exit 2."""
    from ..errors import SumjudgeError
    from ..summarization.options import SummarizationOptions
    from .common import fail

    try:
        return SummarizationOptions(**fields)
    except SumjudgeError as exc:
        fail(_as_flags(str(exc), list(fields)))


def _as_flags(message: str, options: list[str]) -> str:
    """``message`` with each option named as its flag (``max_questions`` -> ``--max-questions``): the user
    typed the flag."""
    for name in options:
        message = re.sub(rf"(?<![\w-]){name}\b", gate_flag(name), message)
    return message


class Share(Finite):
    """A finite number from 0 to 1 (an axis is a share of its claims or questions)."""

    name = "share"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        number = super().convert(value, param, ctx)
        if not 0 <= number <= 1:
            self.fail(f"{value!r} is not from 0 to 1 (an axis is a share)", param, ctx)
        return number


item_gate_options = _stack(
    click.option("--max-unsupported", type=click.IntRange(0, MAX_CLAIMS), default=None, metavar="N",
                 help="Exit 1 when a summary has more than N claims shown unsupported (0: none), whatever its "
                      "coverage: the gate that stops an invented claim the lower axis hides."),
    click.option("--min-alignment", type=Share(), default=None, metavar="X",
                 help="Exit 1 when a summary's alignment (claims supported) is below X."),
    click.option("--min-coverage", type=Share(), default=None, metavar="X",
                 help="Exit 1 when a summary's coverage (questions answered) is below X."),
)
"""``--max-unsupported``, ``--min-alignment``, ``--min-coverage``: one summary's gates beyond its score
(:class:`~sumjudge.summarization.item_gates.ItemGates`), shared by ``check`` and ``score``."""


def item_gates(max_unsupported: int | None, min_alignment: float | None, min_coverage: float | None) -> Any:
    """The :class:`ItemGates` the three flags ask for (the scorer is imported only here, not with the flags)."""
    from ..summarization.item_gates import ItemGates

    return ItemGates(max_unsupported=max_unsupported, min_alignment=min_alignment, min_coverage=min_coverage)


def gate_flag(gate: str) -> str:
    """How the command line spells a gate: ``max_unsupported`` -> ``--max-unsupported``."""
    return "--" + gate.replace("_", "-")


calibration_option = click.option(
    "--calibration", "calibration_path", type=click.Path(dir_okay=False), default=None, metavar="FILE.json",
    help="Re-decide each verdict by a calibration fitted on your labels (`sumjudge calibrate`); made for "
         "another judge: refused. Part of the run's identity.")
"""``--calibration``: :class:`~sumjudge.summarization.calibration.Calibration` (``check``, ``score``)."""


def read_calibration_option(path: str | None) -> Any:
    """The calibration ``--calibration`` names (exit 2 with one line when it cannot be read), or ``None``."""
    if path is None:
        return None
    from ..errors import SumjudgeError
    from ..summarization.calibration import read_calibration
    from .common import fail

    try:
        return read_calibration(path)
    except SumjudgeError as exc:
        fail(str(exc))


__all__ = [
    "COUNT_MAXIMA", "MAX_CONCURRENCY", "MAX_PER_KIND", "MAX_POLL_INTERVAL", "MAX_WORKERS", "Finite", "PositiveNumber",
    "ScorerFlags", "Seconds", "Share", "Temperature", "calibration_option", "read_calibration_option", "batch_options", "cache_options", "concurrency_option", "count",
    "gate_flag", "graded_option", "item_gate_options", "item_gates", "judge_extra", "judge_option_option", "max_claims_option", "max_questions_option", "model_option", "per_kind_option", "samples_option",
    "scorer_options", "scorer_spec", "scorer_options_decorator", "timeout_option", "workers_option",
]


workers_option = click.option(
    "--workers", "-w", type=count("--workers"), default=None, metavar="N",
    help="Processes that score with a judge that computes on this machine (offline/lexical); "
         f"default: the cores available (one per 100 items at most; at most {MAX_WORKERS}). Judges over HTTP "
         "use one process.")

batch_options = _stack(
    click.option("--batch", "use_batch", is_flag=True,
                 help="Send the judge requests as provider batch jobs (openai/, azure/, anthropic/): half the "
                      "price, answers within 24 hours; the same command resumes waiting after an interruption."),
    click.option("--poll-interval", type=Seconds(maximum=MAX_POLL_INTERVAL), default=30.0,
                 show_default=True, metavar="SECONDS",
                 help=f"With --batch: seconds between two polls of the jobs in flight (at most {MAX_POLL_INTERVAL:g})."),
    click.option("--batch-fallback", type=click.Choice(["rebatch", "live"]), default="rebatch", show_default=True,
                 help="With --batch: what an invalid, refused, errored or expired request gets: the next batch "
                      "round, or a live call."),
)
"""``--batch``, ``--poll-interval``, ``--batch-fallback``: the keyword arguments ``use_batch,
poll_interval, batch_fallback``, turned into the run's rounds by :func:`sumjudge.cli.batch_view.provider_rounds`."""
