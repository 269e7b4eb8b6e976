"""``sumjudge questions DATA --out exam.jsonl``: draw each source's coverage questions once, to keep.

The exam (:mod:`sumjudge.summarization.exam`) holds, per distinct source of DATA (by its
sha256), the questions the judge drew, with the judge, the prompt version, the seed and
``--max-questions``. ``sumjudge score DATA --questions exam.jsonl`` then grades every run on those
questions. Exit codes: 0 written, 1 the judge failed, 2 usage or input errors.
"""

from __future__ import annotations

import asyncio

import click

from ..errors import JudgeError, SumjudgeError
from ..guards.limits import MAX_CONCURRENCY
from .common import EXIT_BELOW, fail, input_options, open_dataset, say
from .help import SectionedCommand
from .options import (
    ScorerFlags, cache_options, count, judge_option_option, max_questions_option, model_option, scorer_spec, timeout_option,
)


@click.command(cls=SectionedCommand, common=("out", "model", "judge_option", "max_questions"))
@click.argument("data", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--out", "-o", required=True, type=click.Path(dir_okay=False, allow_dash=True), metavar="EXAM.jsonl",
              help="Where to write the exam ('-' for standard output); the file is replaced whole.")
@model_option
@judge_option_option
@max_questions_option()
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Which draw: 0 asks the judge at its own temperature; N > 0 as score's sample N would.")
@click.option("--concurrency", "-c", type=count("--concurrency"), default=8, show_default=True,
              help=f"Sources whose questions are drawn at once (at most {MAX_CONCURRENCY}).")
@input_options
@timeout_option
@cache_options
def questions(
    data: str, out: str, model: str | None, judge_option: tuple[str, ...], max_questions: int, seed: int, concurrency: int, source_field: str,
    summary_field: str, id_field: str, fmt: str | None, encoding: str | None, delimiter: str | None,
    timeout: float | None, use_cache: bool, cache_path: str | None,
) -> None:
    """Draw the coverage questions of every source in DATA once and write them as an exam to keep."""
    from ..judges.registry import DEFAULT_JUDGE_NOTICE, default_chosen_for_user
    from ..runs.exam import draw_exam, exam_output_plan, write_exam

    spec = scorer_spec(model, judge_option, ScorerFlags(max_questions=max_questions))
    if out != "-":  # before any call: never over the data, a store or cache, or what a run reads
        try:
            exam_output_plan(out, data=None if data == "-" else data, cache=cache_path or use_cache).check()
        except SumjudgeError as exc:
            fail(str(exc))
    dataset = open_dataset(data, source_field=source_field, summary_field=summary_field, id_field=id_field,
                           fmt=fmt, encoding=encoding, delimiter=delimiter)
    with dataset:
        try:
            info = dataset.validate()
        except SumjudgeError as exc:
            fail(str(exc))
        if default_chosen_for_user(model):
            say(DEFAULT_JUDGE_NOTICE)
        try:
            exam, usage = asyncio.run(draw_exam(
                dataset, spec, concurrency=concurrency, timeout=timeout, cache=cache_path or use_cache, seed=seed,
            ))
            if out == "-":
                click.echo(exam.text(), nl=False)
            else:
                write_exam(exam, out, data=None if data == "-" else data, cache=cache_path or use_cache)
        except JudgeError as exc:
            say(f"sumjudge: the judge failed: {exc}")
            raise SystemExit(EXIT_BELOW) from None
        except (SumjudgeError, ValueError) as exc:
            fail(str(exc))
    where = "standard output" if out == "-" else out
    say(f"sumjudge: exam {exam.digest[:12]} written to {where}: {len(exam.entries)} sources of {info.count} rows, "
        f"{sum(len(e.questions) for e in exam.entries)} questions, judge {spec.model}, {usage.calls} judge calls")


__all__ = ["questions"]
