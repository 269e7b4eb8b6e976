"""``sumjudge score``: score a file of summaries into the run store, print progress and the end table.

Exit codes: 0 success, 1 mean score below ``--fail-under`` (or no item could be scored), 2 usage
or input errors (the message names the row and the field), 130 interrupted. The command is thin:
rows come from :mod:`sumjudge.datasets`, the work from :mod:`sumjudge.batch`, records from
:mod:`sumjudge.store`, the page from :mod:`sumjudge.report`.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import IO, Any

import click

from ..errors import SumjudgeError
from .common import EXIT_BELOW, EXIT_INTERRUPTED, EXIT_OK, fail, stderr_console


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
              help="Write one JSON line per item here ('-' for standard output).")
@click.option("--report", type=click.Path(dir_okay=False), default=None, metavar="FILE.html",
              help="Write a self-contained HTML report.")
@click.option("--fail-under", type=float, default=None, metavar="X",
              help="Exit 1 when the mean score is below X.")
@click.option("--source-field", default="source", show_default=True, help="Field (or CSV column) holding the source text.")
@click.option("--summary-field", default="summary", show_default=True, help="Field (or CSV column) holding the summary.")
@click.option("--id-field", default="id", show_default=True, help="Field holding the item id (else the row number).")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "json", "csv"]), default=None,
              help="Input format (default: from the extension; sniffed for standard input).")
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
    source_field: str,
    summary_field: str,
    id_field: str,
    fmt: str | None,
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
    from ..judges.registry import DEFAULT_JUDGE_NOTICE, default_chosen_for_user, default_model_id

    console = stderr_console(quiet)
    fields = Fields(source=source_field, summary=summary_field, id=id_field)
    try:
        dataset = Dataset(data, fields=fields, format=fmt)  # type: ignore[arg-type]
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
                out=out, report=report, fail_under=fail_under, store_path=store_path, fresh=fresh,
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
    fail_under: float | None,
    store_path: str | None,
    fresh: bool,
    cache: bool | str,
    quiet: bool,
) -> int:
    from ..scorers.summarization import create_summarization_scorer
    from ..batch import Meter, MeteredJudge, score_dataset
    from ..judges.base import ModelConfig
    from ..judges.cache import with_cache
    from ..judges.registry import resolve_judge
    from ..progress import BatchProgress, summary_table
    from ..store import DEFAULT_STORE_PATH, RunStore

    meter = Meter()
    try:
        judge = resolve_judge(ModelConfig(id=model_id, max_concurrency=concurrency))
        judge = with_cache(MeteredJudge(judge, meter), cache)
        scorer = create_summarization_scorer(model=judge, options=options)
    except (SumjudgeError, ValueError) as exc:
        fail(str(exc))

    scale = float(options["scale"])
    with RunStore(store_path or DEFAULT_STORE_PATH) as store:
        run, resumed = store.open_run(
            model=model_id, options=options, data=dataset.display_name, fingerprint=info.fingerprint,
            total_items=info.count, resume=not fresh,
        )
        already = len(store.finished_ids(run.id))
        if resumed and not quiet:
            console.print(f"sumjudge: resuming run {run.id}: {already} of {info.count} items already finished")
        elif not quiet:
            console.print(f"sumjudge: run {run.id}: {info.count} items, judge {model_id}")

        out_fh: IO[str] | None = None
        if out == "-":
            out_fh = sys.stdout
        elif out:
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            out_fh = open(out, "w", encoding="utf-8")  # noqa: SIM115 - closed below

        def write(record: dict[str, Any]) -> None:
            if out_fh is not None:
                out_fh.write(json.dumps(record, ensure_ascii=False) + "\n")
                out_fh.flush()

        interrupted = False
        try:
            for item in store.iter_items(run.id, status="ok"):
                write(item.record)
            show = not quiet and console.is_terminal
            with BatchProgress(console, total=info.count, already_done=already, meter=meter, enabled=show) as bar:

                def on_record(record: dict[str, Any]) -> None:
                    write(record)
                    bar.advance()

                await score_dataset(
                    dataset, scorer, store, run, concurrency=concurrency, on_record=on_record, meter=meter
                )
        except (KeyboardInterrupt, asyncio.CancelledError):
            interrupted = True
        finally:
            if out_fh is not None and out_fh is not sys.stdout:
                out_fh.close()

        stats = store.stats(run.id)
        if interrupted:
            store.finish_run(run.id, "interrupted")
            console.print(
                f"sumjudge: interrupted; {stats.count + stats.errors} of {info.count} items are saved in run "
                f"{run.id}. Run the same command again to resume."
            )
            return EXIT_INTERRUPTED
        store.finish_run(run.id, "finished" if stats.errors == 0 else "finished with errors")
        run = store.get_run(run.id)
        if report:
            from ..report import write_report

            write_report(report, run, stats, lambda: store.iter_items(run.id), scale=scale)
        if not quiet:
            console.print(summary_table(stats, title=f"run {run.id}"))
            if stats.errors:
                console.print(
                    f"sumjudge: {stats.errors} item(s) failed; see the 'error' field, or "
                    f"`sumjudge runs export {run.id}`. Run the same command again to retry them."
                )
            if report:
                console.print(f"sumjudge: report written to {report}")

    if stats.count == 0:
        console.print("sumjudge: no item could be scored")
        return EXIT_BELOW
    if fail_under is not None and stats.mean is not None and stats.mean < fail_under:
        if not quiet:
            console.print(f"sumjudge: mean score {stats.mean:.3f} is below --fail-under {fail_under}")
        return EXIT_BELOW
    return EXIT_OK
