"""``sumjudge score``: score a file of summaries into the run store, print progress and the end table.

Exit codes: 0 success, 1 a gate failed (``--fail-under``, failed items beyond ``--allow-errors``, or
no item could be scored), 2 usage or input errors (the message names the row and the field, or the
file and the fix), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM); an interrupted run is saved
and resumes when the same command runs again. The command is thin:
rows come from :mod:`sumjudge.datasets`, the work from :mod:`sumjudge.batch`, records from
:mod:`sumjudge.store`, the page from :mod:`sumjudge.report`.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import click

from ..errors import SumjudgeError
from .common import EXIT_BELOW, EXIT_INTERRUPTED, EXIT_OK, EXIT_TERMINATED, fail, stderr_console


@click.command()
@click.argument("data", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--model", "-m", default=None, metavar="PROVIDER/MODEL",
              help="Judge model, e.g. openai/gpt-4o-mini. Default: $SUMJUDGE_MODEL, else offline/lexical.")
@click.option("--max-questions", type=click.IntRange(min=1), default=10, show_default=True,
              help="Upper bound on coverage questions per source.")
@click.option("--scale", type=click.FloatRange(min=0, min_open=True), default=1.0, show_default=True,
              help="Multiplies every score.")
@click.option("--samples", type=click.IntRange(min=1), default=1, show_default=True, metavar="K",
              help="Independent evaluations per summary; the score is their --reducer, the spread is kept.")
@click.option("--reducer", type=click.Choice(["mean", "median", "min"]), default="mean", show_default=True,
              help="How --samples scores become the score.")
@click.option("--sample-temperature", type=click.FloatRange(min=0, max=2, min_open=True), default=None,
              metavar="T", help="Temperature of the samples when the judge is at 0 (default 0.7).")
@click.option("--concurrency", "-c", type=click.IntRange(min=1), default=8, show_default=True,
              help="Items in flight, and the most judge requests in flight (lowered on 429).")
@click.option("--out", "-o", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write one JSON line per item here ('-' for standard output), in input order, when the run "
                   "ends (or is interrupted); the file is replaced whole.")
@click.option("--report", type=click.Path(dir_okay=False), default=None, metavar="FILE.html",
              help="Write a self-contained HTML report.")
@click.option("--fail-under", type=float, default=None, metavar="X",
              help="Exit 1 when the mean score (or, with --gate lower-bound, its interval's lower end) is below X.")
@click.option("--gate", "gate_kind", type=click.Choice(["mean", "lower-bound"]), default="mean", show_default=True,
              help="What --fail-under is held against: the mean, or the lower end of its 95% bootstrap interval.")
@click.option("--min-item-score", type=float, default=None, metavar="Y",
              help="Exit 1 when any item scores below Y.")
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
@click.option("--source-field", default="source", show_default=True, help="Field (or CSV column) holding the source text.")
@click.option("--summary-field", default="summary", show_default=True, help="Field (or CSV column) holding the summary.")
@click.option("--id-field", default="id", show_default=True, help="Field holding the item id (else the row number).")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "json", "csv", "tsv"]), default=None,
              help="Input format (default: from the extension; sniffed for standard input).")
@click.option("--encoding", default=None, metavar="NAME",
              help="Text encoding of DATA (default utf-8, a byte-order mark is skipped), e.g. cp1252.")
@click.option("--delimiter", default=None, metavar="CHAR",
              help="CSV delimiter (default: sniffed among , ; tab |; tab for .tsv).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Seconds to wait for one judge reply (default 60).")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), default=None,
              help="Run store (SQLite). Default: .sumjudge/runs.db")
@click.option("--fresh", is_flag=True, help="Start a new run instead of resuming the same command's last run.")
@click.option("--cache", "use_cache", is_flag=True,
              help="Answer repeated judge requests from a local cache (.sumjudge/cache.db).")
@click.option("--cache-path", type=click.Path(dir_okay=False), default=None,
              help="Where --cache keeps replies (implies --cache).")
@click.option("--quiet", "-q", is_flag=True, help="No progress and no summary table.")
def score(
    data: str,
    model: str | None,
    max_questions: int,
    scale: float,
    samples: int,
    reducer: str,
    sample_temperature: float | None,
    concurrency: int,
    out: str | None,
    report: str | None,
    fail_under: float | None,
    gate_kind: str,
    min_item_score: float | None,
    allow_errors: str | None,
    pass_rate: str | None,
    threshold: float | None,
    junit: str | None,
    source_field: str,
    summary_field: str,
    id_field: str,
    fmt: str | None,
    encoding: str | None,
    delimiter: str | None,
    timeout: float | None,
    store_path: str | None,
    fresh: bool,
    use_cache: bool,
    cache_path: str | None,
    quiet: bool,
) -> None:
    """Score every row of DATA (.jsonl, .json array, .csv, or '-' for standard input).

    Rows carry a source and a summary, and optionally an id (else the row number). Finished items
    are committed to the run store as they finish; running the same command again on the same data
    resumes where it stopped.
    """
    from ..datasets import Dataset, Fields
    from ..gates import ErrorAllowance, Gates, PassRate
    from ..judges.cache import DEFAULT_CACHE_PATH
    from ..judges.registry import DEFAULT_JUDGE_NOTICE, default_chosen_for_user, default_model_id
    from ..outputs import check_paths
    from ..store import DEFAULT_STORE_PATH

    console = stderr_console(quiet)
    try:
        gates = Gates(
            fail_under=fail_under,
            allow_errors=ErrorAllowance.parse(allow_errors),
            pass_rate=PassRate.parse(pass_rate, threshold, scale),
            gate=gate_kind,  # type: ignore[arg-type]
            min_item_score=min_item_score,
        )
        cache_file = cache_path or (str(DEFAULT_CACHE_PATH) if use_cache else None)
        check_paths(
            {"the data file": data, "the run store": store_path or str(DEFAULT_STORE_PATH), "the reply cache": cache_file},
            {"--out": out, "--report": report, "--junit": junit},
        )
    except SumjudgeError as exc:
        fail(str(exc))
    fields = Fields(source=source_field, summary=summary_field, id=id_field)
    try:
        dataset = Dataset(data, fields=fields, format=fmt, encoding=encoding, delimiter=delimiter)  # type: ignore[arg-type]
    except SumjudgeError as exc:
        fail(str(exc))
    with dataset:
        try:
            info = dataset.validate()
        except SumjudgeError as exc:
            fail(str(exc))
        model_id = model or default_model_id()
        if default_chosen_for_user(model) and not quiet:
            console.print(DEFAULT_JUDGE_NOTICE, markup=False, highlight=False)
        code = asyncio.run(
            _score(
                dataset, info, console,
                model_id=model_id, options=scorer_options(max_questions, scale, samples, reducer, sample_temperature),
                concurrency=concurrency,
                out=out, report=report, junit=junit, gates=gates, store_path=store_path, fresh=fresh, timeout=timeout,
                cache=cache_path or use_cache, quiet=quiet,
            )
        )
    sys.exit(code)


def scorer_options(
    max_questions: int, scale: float, samples: int, reducer: str, sample_temperature: float | None
) -> dict[str, Any]:
    """The scorer's options as the run store keys a run on them; the sampling ones only with more
    than one sample, so a one-sample run resumes the runs recorded before samples existed."""
    options: dict[str, Any] = {"max_questions": max_questions, "scale": scale}
    if samples > 1:
        options.update(samples=samples, reducer=reducer)
        if sample_temperature is not None:
            options["sample_temperature"] = sample_temperature
    return options


async def _score(
    dataset: Any,
    info: Any,
    console: Any,
    *,
    model_id: str,
    options: dict[str, Any],
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
) -> int:
    from ..scorers.summarization import create_summarization_scorer
    from ..batch import Meter, MeteredJudge
    from ..judges.base import ModelConfig
    from ..judges.cache import with_cache
    from ..judges.registry import resolve_judge
    from ..outputs import AtomicFile

    meter = Meter()
    try:
        settings: dict[str, Any] = {"max_concurrency": concurrency}
        if timeout is not None:
            settings["timeout"] = timeout
        judge = resolve_judge(ModelConfig(id=model_id, **settings))
        judge = with_cache(MeteredJudge(judge, meter), cache)
        scorer = create_summarization_scorer(model=judge, options=options)
    except (SumjudgeError, ValueError) as exc:
        fail(str(exc))

    scale = float(options["scale"])
    files: list[AtomicFile] = []
    try:  # both outputs are proven writable before the run is opened or any call is made
        out_file = AtomicFile(out, option="--out") if out and out != "-" else None
        files += [out_file] if out_file else []
        report_file = AtomicFile(report, option="--report") if report else None
        files += [report_file] if report_file else []
        junit_file = AtomicFile(junit, option="--junit") if junit else None
        files += [junit_file] if junit_file else []
    except SumjudgeError as exc:
        for f in files:
            f.discard()
        fail(str(exc))
    try:
        return await _score_into_store(
            dataset, info, console, scorer, meter, model_id=model_id, options=options, scale=scale,
            concurrency=concurrency, out=out, out_file=out_file, report_file=report_file, junit_file=junit_file,
            gates=gates,
            store_path=store_path, fresh=fresh, quiet=quiet,
        )
    finally:
        for f in files:
            if f.tmp.exists():
                f.discard()


async def _score_into_store(
    dataset: Any, info: Any, console: Any, scorer: Any, meter: Any, *, model_id: str, options: dict[str, Any],
    scale: float, concurrency: int, out: str | None, out_file: Any, report_file: Any, junit_file: Any, gates: Any,
    store_path: str | None, fresh: bool, quiet: bool,
) -> int:
    """Open (or resume) the run, score what is left, write the outputs, and judge the gates."""
    from ..batch import score_dataset
    from ..gates import check_gates
    from ..progress import BatchProgress, summary_table
    from ..store import DEFAULT_STORE_PATH, RunStore

    try:
        store = RunStore(store_path or DEFAULT_STORE_PATH)
        run, resumed = store.open_run(
            model=model_id, options=options, data=dataset.display_name, fingerprint=info.fingerprint,
            total_items=info.count, resume=not fresh,
        )
    except SumjudgeError as exc:
        fail(str(exc))
    with store:
        already = len(store.finished_ids(run.id))
        if resumed and not quiet:
            console.print(f"sumjudge: resuming run {run.id}: {already} of {info.count} items already finished")
        elif not quiet:
            console.print(f"sumjudge: run {run.id}: {info.count} items, judge {model_id}", markup=False)

        def write_out() -> None:
            """Every item of the run, in input order (what finished early waited in the store)."""
            fh = sys.stdout if out == "-" else (out_file.fh if out_file is not None else None)
            if fh is None:
                return
            for item in store.iter_items(run.id):
                fh.write(item.outcome.line() + "\n")
            if out_file is not None:
                out_file.commit()
            else:
                fh.flush()

        interrupted = False
        terminated = _cancel_on_sigterm()
        try:
            show = not quiet and console.is_terminal
            with BatchProgress(console, total=info.count, already_done=already, meter=meter, enabled=show) as bar:
                await score_dataset(
                    dataset, scorer, store, run, concurrency=concurrency,
                    on_record=lambda record: bar.advance(), meter=meter,
                )
        except (KeyboardInterrupt, asyncio.CancelledError):
            interrupted = True

        stats = store.stats(run.id)
        if interrupted:
            store.finish_run(run.id, "interrupted")
            write_out()  # what was done is not lost
            console.print(
                f"sumjudge: interrupted; {stats.count + stats.errors} of {info.count} items are saved in run "
                f"{run.id}. Run the same command again to resume.", markup=False,
            )
            return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED
        store.finish_run(run.id, "finished" if stats.errors == 0 else "finished with errors")
        run = store.get_run(run.id)
        write_out()
        if report_file is not None:
            from ..report import write_report

            report_file.fh.close()
            write_report(report_file.tmp, run, stats, lambda: store.iter_items(run.id), scale=scale)
            report_file.commit()
        if not quiet:
            console.print(summary_table(stats, title=f"run {run.id}"))
            if stats.errors:
                console.print(
                    f"sumjudge: {stats.errors} item(s) failed; see the 'error' field, or "
                    f"`sumjudge runs export {run.id}`. Run the same command again to retry them.", markup=False,
                )
            if report_file is not None:
                console.print(f"sumjudge: report written to {report_file.path}", markup=False)
        passing = store.count_at_least(run.id, gates.pass_rate.threshold) if gates.pass_rate else None
        failures = check_gates(stats, info.count, gates, passing=passing)
        _write_ci_outputs(store, run, stats, failures, gates, junit_file, console)

    for failure in failures:
        console.print(f"sumjudge: gate failed: {failure}", markup=False)
    return EXIT_BELOW if failures else EXIT_OK


def _write_ci_outputs(store: Any, run: Any, stats: Any, failures: list[str], gates: Any, junit_file: Any,
                      console: Any) -> None:
    """``--junit``, and the Markdown summary appended to ``$GITHUB_STEP_SUMMARY`` when it is set."""
    from ..report.junit import write_junit
    from ..report.markdown import append_step_summary, run_markdown

    threshold = gates.pass_rate.threshold if gates.pass_rate else None
    items = lambda: store.iter_items(run.id)  # read twice, streamed each time
    if junit_file is not None:
        junit_file.fh.close()
        write_junit(junit_file.tmp, run, items, threshold=threshold, gate_failures=failures)
        junit_file.commit()
    try:
        append_step_summary(run_markdown(run, stats, items, gate_failures=failures, threshold=threshold))
    except OSError as exc:  # the job summary is a courtesy; it never decides the exit code
        console.print(f"sumjudge: could not append to $GITHUB_STEP_SUMMARY: {exc}", markup=False)


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
