"""The click options that ``score``, ``check`` and ``probe`` share (one definition each, so they never
drift): the judge, the scorer's options, repeated samples, the reply cache, the reply timeout, worker
processes and provider batch jobs."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import click

F = Callable[..., Any]


class Seconds(click.ParamType):
    """A positive, finite number of seconds (``nan``, ``inf`` and negatives are refused, exit 2)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r} is not a positive, finite number of seconds", param, ctx)
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
timeout_option = click.option(
    "--timeout", type=Seconds(), default=None, metavar="SECONDS",
    help="Seconds to wait for one judge reply (default 60).",
)

graded_option = click.option(
    "--graded", is_flag=True,
    help="Score each axis as the mean probability of its verdicts (judges that give probabilities: "
         "OpenAI-compatible servers with token logprobs), not the share of yes verdicts.",
)
"""``--graded``: :attr:`SummarizationOptions.graded` (shared by ``score``, ``check`` and ``probe``)."""

scorer_options_decorator = _stack(
    click.option("--max-questions", type=click.IntRange(min=1), default=10, show_default=True,
                 help="Upper bound on coverage questions per source."),
    click.option("--scale", type=PositiveNumber(), default=1.0, show_default=True, metavar="X",
                 help="Multiplies every score."),
    click.option("--samples", type=click.IntRange(min=1), default=1, show_default=True, metavar="K",
                 help="Independent evaluations per summary; the score is their --reducer, the spread is kept."),
    click.option("--reducer", type=click.Choice(["mean", "median", "min"]), default="mean", show_default=True,
                 help="How --samples scores become the score."),
    click.option("--sample-temperature", type=click.FloatRange(min=0, max=2, min_open=True), default=None,
                 metavar="T", help="Temperature of the samples when the judge is at 0 (default 0.7)."),
    graded_option,
)
"""``--max-questions``, ``--scale``, ``--samples``, ``--reducer``, ``--sample-temperature``, ``--graded``."""

cache_options = _stack(
    click.option("--cache", "use_cache", is_flag=True,
                 help="Answer repeated judge requests from a local cache (.sumjudge/cache.db)."),
    click.option("--cache-path", type=click.Path(dir_okay=False), default=None,
                 help="Where --cache keeps replies (implies --cache)."),
)
"""``--cache`` and ``--cache-path``."""


def scorer_options(
    max_questions: int, scale: float, samples: int, reducer: str, sample_temperature: float | None,
    graded: bool = False,
) -> dict[str, Any]:
    """The scorer's options as the run store keys a run on them; the sampling ones only with more
    than one sample, and ``graded`` only when set, so a one-sample, counted run resumes the runs
    recorded before those options existed."""
    options: dict[str, Any] = {"max_questions": max_questions, "scale": scale}
    if samples > 1:
        options.update(samples=samples, reducer=reducer)
        if sample_temperature is not None:
            options["sample_temperature"] = sample_temperature
    if graded:
        options["graded"] = True
    return options


__all__ = [
    "Finite", "PositiveNumber", "Seconds", "cache_options", "graded_option", "model_option", "scorer_options",
    "scorer_options_decorator",
    "timeout_option",
]


workers_option = click.option(
    "--workers", "-w", type=click.IntRange(min=1), default=None, metavar="N",
    help="Processes that score with a judge that computes on this machine (offline/lexical); "
         "default: the cores available (one per 100 items at most). Judges over HTTP use one process.")

batch_options = _stack(
    click.option("--batch", "use_batch", is_flag=True,
                 help="Send the judge requests as provider batch jobs (openai/, azure/, anthropic/): half the "
                      "price, answers within 24 hours; the same command resumes waiting after an interruption."),
    click.option("--poll-interval", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True,
                 metavar="SECONDS", help="With --batch: seconds between two polls of the jobs in flight."),
    click.option("--batch-fallback", type=click.Choice(["rebatch", "live"]), default="rebatch", show_default=True,
                 help="With --batch: what an invalid, refused, errored or expired request gets: the next batch "
                      "round, or a live call."),
)
"""``--batch``, ``--poll-interval``, ``--batch-fallback``: the keyword arguments ``use_batch,
poll_interval, batch_fallback``, turned into the run's rounds by :func:`sumjudge.cli.batch_view.provider_rounds`."""
