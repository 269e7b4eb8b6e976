"""``sumjudge score``: score a file of summaries into the run store, print progress and the end table.

Exit codes: 0 success, 1 a gate failed (``--fail-under``, failed items beyond ``--allow-errors``, or
no item could be scored), 3 no gate failed but one is inconclusive (its interval crosses its bar), 2 usage or input errors (the message names the row and the field, or the
file and the fix), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM); an interrupted run is saved
and resumes when the same command runs again. The command is thin: it parses flags, reads the rows
(:mod:`sumjudge.data.datasets`), hands the run to :func:`sumjudge.runs.run_dataset` (judge, store, outputs,
gates), prints what it says, and picks the exit code.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import click

from ..errors import SumjudgeError
from .help import SectionedCommand
from .options import (
    Finite, batch_options, cache_options, calibration_option, concurrency_option, item_gate_options,
    item_gates, judge_option_option, model_option, read_calibration_option, ScorerFlags, scorer_options_decorator, scorer_spec,
    timeout_option, workers_option,
)
from .common import EXIT_INTERRUPTED, EXIT_TERMINATED, fail, say, stderr_console
from .common import SCORE_EXIT_CODES, gate_exit, input_options, on_inconclusive_option, open_dataset


@click.command(cls=SectionedCommand, epilog=SCORE_EXIT_CODES,
               common=("model", "judge_option", "out", "report", "fail_under", "quiet"))
@click.argument("data", type=click.Path(dir_okay=False, allow_dash=True))
@model_option
@judge_option_option
@scorer_options_decorator  # --max-questions --scale --samples --reducer --sample-temperature --graded (shared with check)
@concurrency_option()
@workers_option
@click.option("--out", "-o", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write one JSON line per item here ('-' for standard output), in input order, when the run "
                   "ends (or is interrupted); the file is replaced whole.")
@click.option("--report", type=click.Path(dir_okay=False), default=None, metavar="FILE.html",
              help="Write a self-contained HTML report.")
@click.option("--fail-under", type=Finite(), default=None, metavar="X",
              help="Exit 1 when the mean score's 95% interval lies below X, 3 when it crosses X (see --gate).")
@click.option("--gate", "gate_kind", type=click.Choice(["interval", "mean", "lower-bound"]), default="interval",
              show_default=True,
              help="What --fail-under and --pass-rate are held against: the 95% interval (pass, fail or "
                   "inconclusive), the mean alone, or the interval's lower end (below X fails).")
@on_inconclusive_option
@click.option("--min-item-score", type=Finite(), default=None, metavar="Y",
              help="Exit 1 when any item scores below Y.")
@item_gate_options
@click.option("--allow-errors", default=None, metavar="N|SHARE",
              help="Failed items tolerated before the run fails (exit 1): a count (3), a share (0.1) or 10%. "
                   "Default: none.")
@click.option("--pass-rate", default=None, metavar="R",
              help="Exit 1 unless at least R of the items (0.9 or 90%) score --threshold or more.")
@click.option("--threshold", type=float, default=None, metavar="T",
              help="The score an item must reach to pass: for --pass-rate (alone: every item must) and --junit.")
@click.option("--junit", type=click.Path(dir_okay=False), default=None, metavar="FILE.xml",
              help="Write JUnit XML: one test case per item; below --threshold a failure with the reason, "
                   "a failed item an error. $GITHUB_STEP_SUMMARY, when set, gets a Markdown summary.")
@input_options
@timeout_option
@click.option("--store", "store_path", type=click.Path(dir_okay=False), default=None,
              help="Run store (SQLite). Default: .sumjudge/runs.db")
@click.option("--fresh", is_flag=True, help="Start a new run instead of resuming the same command's last run.")
@cache_options
@click.option("--quiet", "-q", is_flag=True, help="No progress and no summary table.")
@click.option("--questions", "exam_path", type=click.Path(dir_okay=False), default=None, metavar="EXAM.jsonl",
              help="Take each source's coverage questions from a kept exam (`sumjudge questions`) instead of "
                   "drawing them; a source the exam lacks is refused (exit 2). The run store records the exam.")
@click.option("--draw-missing", is_flag=True,
              help="With --questions: draw questions for the sources the exam lacks instead of refusing them.")
@click.option("--question-draws", type=click.IntRange(min=1), default=None, metavar="M",
              help="With --samples K: the K samples share M draws of the questions, so the end says how much of the "
                   "spread comes from the questions drawn and how much from the verdicts.")
@calibration_option
@click.option("--strict-evidence", is_flag=True,
              help="Count a verdict whose quote is not found in its text (unverified) as unsupported / unanswered.")
@batch_options
def score(
    data: str, model: str | None, judge_option: tuple[str, ...], scorer_flags: ScorerFlags, concurrency: int,
    workers: int | None,
    out: str | None, report: str | None, fail_under: float | None, gate_kind: str, on_inconclusive: str,
    min_item_score: float | None, max_unsupported: int | None, min_alignment: float | None,
    min_coverage: float | None, allow_errors: str | None, pass_rate: str | None, threshold: float | None,
    junit: str | None, source_field: str, summary_field: str, id_field: str, fmt: str | None,
    encoding: str | None, delimiter: str | None, timeout: float | None, store_path: str | None, fresh: bool,
    use_cache: bool, cache_path: str | None, quiet: bool, exam_path: str | None = None,
    draw_missing: bool = False, strict_evidence: bool = False, calibration_path: str | None = None,
    question_draws: int | None = None, use_batch: bool = False, poll_interval: float = 30.0,
    batch_fallback: str = "rebatch",
) -> None:
    """Score every row of DATA: JSONL (.jsonl, .ndjson), a JSON array (.json), CSV (.csv), TSV (.tsv),
    Parquet (.parquet, .pq), or '-' for standard input.

    Rows carry a source and a summary, and optionally an id (else the row number). Finished items
    are committed to the run store as they finish; running the same command again on the same data
    resumes where it stopped.
    """
    from ..judges.registry import DEFAULT_JUDGE_NOTICE, default_chosen_for_user

    console = stderr_console(quiet)
    gates = _gates(fail_under=fail_under, allow_errors=allow_errors, pass_rate=pass_rate, threshold=threshold,
                   gate_kind=gate_kind, min_item_score=min_item_score, on_inconclusive=on_inconclusive,
                   scale=scorer_flags.scale, item=item_gates(max_unsupported, min_alignment, min_coverage))
    exam = _checked_paths_and_exam(data, store_path, cache_path or use_cache, exam_path, draw_missing,
                                   {"--out": out, "--report": report, "--junit": junit})
    spec = scorer_spec(model, judge_option, scorer_flags, questions=exam,
                       draw_missing=draw_missing, strict_evidence=strict_evidence, question_draws=question_draws,
                       calibration=read_calibration_option(calibration_path))
    dataset = open_dataset(data, source_field=source_field, summary_field=summary_field, id_field=id_field,
                           fmt=fmt, encoding=encoding, delimiter=delimiter)
    with dataset:
        try:
            info = dataset.validate()
        except SumjudgeError as exc:
            fail(str(exc))
        warn_empty_sources(dataset.display_name, info.empty_sources)
        if default_chosen_for_user(model) and not quiet:
            console.print(DEFAULT_JUDGE_NOTICE, markup=False, highlight=False)
        code = asyncio.run(
            _score(
                dataset, info, console,
                spec=spec, concurrency=concurrency, workers=workers,
                out=out, report=report, junit=junit, gates=gates, store_path=store_path, fresh=fresh, timeout=timeout,
                cache=cache_path or use_cache, quiet=quiet, empty_sources=len(info.empty_sources),
                batch={"poll_interval": poll_interval, "fallback": batch_fallback} if use_batch else None,
            )
        )
    sys.exit(code)


def _gates(*, fail_under: float | None, allow_errors: str | None, pass_rate: str | None, threshold: float | None,
           gate_kind: str, min_item_score: float | None, on_inconclusive: str, scale: float, item: Any) -> Any:
    """The run's :class:`~sumjudge.runs.gates.Gates` from the gate flags; a bad one is exit 2."""
    from ..runs.gates import ErrorAllowance, Gates, PassRate

    try:
        return Gates(
            fail_under=fail_under, allow_errors=ErrorAllowance.parse(allow_errors),
            pass_rate=PassRate.parse(pass_rate, threshold, scale), gate=gate_kind,  # type: ignore[arg-type]
            min_item_score=min_item_score, on_inconclusive=on_inconclusive,  # type: ignore[arg-type]
            scale=scale, item=item,
        )
    except SumjudgeError as exc:
        fail(str(exc))


def _checked_paths_and_exam(data: str, store_path: str | None, cache: bool | str, exam_path: str | None,
                            draw_missing: bool, outputs: dict[str, str | None]) -> Any:
    """Before anything is read or written: no output over an input, a store or a cache; then the kept exam
    (``--questions``) read, or ``None``. Exit 2 with one line on a problem."""
    from ..data.files import check_paths
    from ..errors import InputError
    from ..judges.cache import DEFAULT_CACHE_PATH
    from ..summarization.exam import Exam
    from ..store.database import DEFAULT_STORE_PATH

    cache_file = cache if isinstance(cache, str) else (str(DEFAULT_CACHE_PATH) if cache else None)
    try:
        check_paths({"the data file": data, "the run store": store_path or str(DEFAULT_STORE_PATH),
                     "the reply cache": cache_file, "the exam (--questions)": exam_path}, outputs)
        if draw_missing and exam_path is None:
            raise InputError("--draw-missing needs --questions EXAM.jsonl")
        return Exam.read(exam_path) if exam_path is not None else None
    except SumjudgeError as exc:
        fail(str(exc))


_EMPTY_SHOWN = 20  # rows named one by one; the rest are counted


def warn_empty_sources(name: str, rows: Any) -> None:
    """One warning per row whose source is empty (it scores 0 with nothing to judge), said even when quiet."""
    for number, item_id in rows[:_EMPTY_SHOWN]:
        say(f"sumjudge: warning: {name}: row {number} (id {item_id!r}): the source is empty; the item scores 0")
    if len(rows) > _EMPTY_SHOWN:
        say(f"sumjudge: warning: {name}: {len(rows) - _EMPTY_SHOWN} more rows with an empty source score 0")


class _ShownEvents:  # a sumjudge.runs.RunEvents
    """The CLI's view of a data set run: the opening line, the progress bar, nothing when quiet."""

    def __init__(self, console: Any, meter: Any, *, model_id: str, quiet: bool, batch_store: Any = None,
                 out: str | None = None) -> None:
        self.console, self.meter, self.model_id, self.quiet = console, meter, model_id, quiet
        self.out = out
        """``--out``: a resumed run that writes a file says so even when quiet."""
        self.batch_store = batch_store
        """The run store, when the run goes into provider batch jobs (``--batch``)."""
        self.bar: Any = None

    def started(self, run: Any, *, resumed: bool, already_done: int, total: int) -> None:
        from .progress import BatchProgress

        said = False
        if resumed and already_done and self.batch_store is not None:
            from .batch_view import batch_usage

            if batch_usage(self.batch_store, run.id) is None:  # the same command ran live before: said even when quiet
                rest = total - already_done
                say(f"sumjudge: resuming live run {run.id}: {already_done} of {total} finished"
                    + (f" (the other {rest} go into batch jobs)" if rest else "")
                    + f"; --fresh to run it {'all ' if rest and already_done else ''}as a batch")
                said = True
        if resumed and not said and (not self.quiet or (self.out and self.out != "-")):
            # which run, and what of it is kept: `--out base.jsonl` resumed silently
            import time

            started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(run.created_at))
            line = (f"sumjudge: resuming run {run.id} (started {started}, judge {run.model}): "
                    f"{already_done} of {total} items already finished, kept"
                    + (f"; scoring the other {total - already_done}" if total > already_done else "")
                    + "; --fresh to score them all again")
            if self.quiet:
                say(line)
            else:
                self.console.print(line, markup=False, highlight=False, soft_wrap=True)
        if self.quiet:
            return
        if not resumed:
            self.console.print(f"sumjudge: run {run.id}: {total} items, judge {self.model_id}", markup=False)
        show = self.console.is_terminal
        self.bar = BatchProgress(self.console, total=total, already_done=already_done, meter=self.meter, enabled=show)
        self.bar.__enter__()

    def item_done(self, outcome: Any) -> None:
        if self.bar is not None:
            self.bar.advance()

    def scoring_ended(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


async def _score(
    dataset: Any,
    info: Any,
    console: Any,
    *,
    spec: Any,
    concurrency: int,
    out: str | None,
    report: str | None,
    junit: str | None,
    gates: Any,
    store_path: str | None,
    fresh: bool,
    timeout: float | None,
    cache: bool | str,
    quiet: bool,
    batch: dict[str, Any] | None = None,
    workers: int | None = None,
    empty_sources: int = 0,
) -> int:
    """Run the batch (:func:`sumjudge.runs.run_dataset`) and say how it ended; the exit code."""
    from ..runs.dataset import RunOutputs, Meter, run_dataset
    from .progress import summary_table

    from ..store.database import DEFAULT_STORE_PATH

    meter = Meter()
    events = _ShownEvents(console, meter, model_id=spec.model, quiet=quiet,
                          batch_store=(store_path or DEFAULT_STORE_PATH) if batch is not None else None, out=out)
    terminated = _cancel_on_sigterm()
    from .batch_view import provider_rounds

    rounds = provider_rounds(batch, console, quiet=quiet)
    from .notices import JudgeNotices

    try:
        with JudgeNotices(console, spinner=False):  # a model loading: said (the bar shows the reading)
            result = await run_dataset(
                dataset, info, spec, concurrency=concurrency, timeout=timeout,
                cache=cache, store_path=store_path, fresh=fresh,
                outputs=RunOutputs(out=out, report=report, junit=junit), gates=gates, meter=meter,
                events=events, batch=rounds, workers=workers,
            )
    except (SumjudgeError, ValueError) as exc:
        fail(str(exc))
    run, stats = result.run, result.stats
    if out is not None and out != "-":  # every --out write confirmed, even when quiet
        wrote = f"sumjudge: wrote {stats.count + stats.errors} items of run {run.id} to {out}"
        say(wrote) if quiet else console.print(wrote, markup=False, highlight=False, soft_wrap=True)
    if result.interrupted:
        console.print(
            f"sumjudge: interrupted; {stats.count + stats.errors} of {info.count} items are saved in run "
            f"{run.id}. Run the same command again to resume.", markup=False,
        )
        return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED
    if not quiet:
        console.print(summary_table(stats, title=f"run {run.id}", empty_sources=empty_sources))
        if result.spread is not None:
            console.print(f"sumjudge: {result.spread.line()}", markup=False)
        if rounds is not None:
            from ..store.database import DEFAULT_STORE_PATH
            from .batch_view import batch_usage, cost_lines

            usage = batch_usage(store_path or DEFAULT_STORE_PATH, run.id)
            for line in cost_lines(spec.model, usage) if usage is not None else []:
                console.print(line, markup=False)
        if stats.errors:
            console.print(
                f"sumjudge: {stats.errors} item(s) failed; see the 'error' field, or "
                f"`sumjudge runs export {run.id}`. Run the same command again to retry them.", markup=False,
            )
        if report is not None:
            console.print(f"sumjudge: report written to {report}", markup=False)
    for note in result.notes:
        console.print(f"sumjudge: {note}", markup=False)
    return gate_exit(result.gate_failures, result.gate_inconclusive)


class _SigtermFlag:
    def __init__(self) -> None:
        self.raised = False

    def __bool__(self) -> bool:
        return self.raised


def _cancel_on_sigterm() -> _SigtermFlag:
    """SIGTERM stops the run like Ctrl-C does (saved, resumable); the flag says it came."""
    import signal

    flag = _SigtermFlag()
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()

    def on_term() -> None:
        flag.raised = True
        if task is not None:
            task.cancel()

    try:
        loop.add_signal_handler(signal.SIGTERM, on_term)
    except (NotImplementedError, RuntimeError, ValueError):  # Windows, or not the main thread
        pass
    return flag
