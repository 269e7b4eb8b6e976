"""The ``sumjudge`` command: ``score`` a file of summaries, look at ``runs``, measure ``agreement``.

Exit codes of ``score``: 0 success, 1 a gate failed (``--fail-under``, failed items beyond
``--allow-errors``, or no item could be scored), 2 usage or input errors (the message names the
row and the field, or the file and the fix), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM);
an interrupted run is saved and resumes when the same command runs again.
The command layer is thin: rows come from :mod:`sumjudge.datasets`, the work from
:mod:`sumjudge.batch`, records from :mod:`sumjudge.store`, the page from :mod:`sumjudge.report`.

click (not typer): it is already a dependency, typer would add a layer over it for no gain here,
and ``agreement`` needs click's pass-through of unparsed arguments.
"""

from __future__ import annotations

import asyncio
import csv
import json
import sys
from pathlib import Path
from typing import IO, Any

import click

from .errors import SumjudgeError

EXIT_OK, EXIT_BELOW, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 130, 143


def _stderr_console(quiet: bool = False) -> Any:
    from rich.console import Console

    # markup off: file names, ids and model ids are the user's text, never rich markup
    console = Console(stderr=True, quiet=quiet, highlight=False, markup=False)
    if not console.is_terminal:
        console.width = max(console.width, 160)  # logs: do not wrap or cut at 80 columns
    return console


def _stdout_console() -> Any:
    from rich.console import Console

    console = Console(highlight=False, markup=False)
    if not console.is_terminal:
        console.width = max(console.width, 200)
    return console


def _fail(message: str) -> None:
    """Print an input or usage error and exit 2."""
    click.echo(f"sumjudge: error: {message}", err=True)
    sys.exit(EXIT_USAGE)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sumjudge", prog_name="sumjudge")
def main() -> None:
    """Score LLM summaries against their source: alignment (claims supported) and coverage (facts kept)."""


@main.command()
@click.argument("data", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--model", "-m", default=None, metavar="PROVIDER/MODEL",
              help="Judge model, e.g. openai/gpt-4o-mini. Default: $SUMJUDGE_MODEL, else offline/lexical.")
@click.option("--max-questions", type=click.IntRange(min=1), default=10, show_default=True,
              help="Upper bound on coverage questions per source.")
@click.option("--scale", type=click.FloatRange(min=0, min_open=True), default=1.0, show_default=True,
              help="Multiplies every score.")
@click.option("--concurrency", "-c", type=click.IntRange(min=1), default=8, show_default=True,
              help="Items in flight, and the most judge requests in flight (lowered on 429).")
@click.option("--out", "-o", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write one JSON line per item here ('-' for standard output), in input order, when the run "
                   "ends (or is interrupted); the file is replaced whole.")
@click.option("--report", type=click.Path(dir_okay=False), default=None, metavar="FILE.html",
              help="Write a self-contained HTML report.")
@click.option("--fail-under", type=float, default=None, metavar="X",
              help="Exit 1 when the mean score is below X.")
@click.option("--allow-errors", default=None, metavar="N|SHARE",
              help="Failed items tolerated before the run fails (exit 1): a count (3), a share (0.1) or 10%. "
                   "Default: none.")
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
    concurrency: int,
    out: str | None,
    report: str | None,
    fail_under: float | None,
    allow_errors: str | None,
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
    from .datasets import Dataset, Fields
    from .gates import ErrorAllowance, Gates
    from .judges.cache import DEFAULT_CACHE_PATH
    from .judges.registry import DEFAULT_JUDGE_NOTICE, default_chosen_for_user, default_model_id
    from .outputs import check_paths
    from .store import DEFAULT_STORE_PATH

    console = _stderr_console(quiet)
    try:
        gates = Gates(fail_under=fail_under, allow_errors=ErrorAllowance.parse(allow_errors))
        cache_file = cache_path or (str(DEFAULT_CACHE_PATH) if use_cache else None)
        check_paths(
            {"the data file": data, "the run store": store_path or str(DEFAULT_STORE_PATH), "the reply cache": cache_file},
            {"--out": out, "--report": report},
        )
    except SumjudgeError as exc:
        _fail(str(exc))
    fields = Fields(source=source_field, summary=summary_field, id=id_field)
    try:
        dataset = Dataset(data, fields=fields, format=fmt, encoding=encoding, delimiter=delimiter)  # type: ignore[arg-type]
    except SumjudgeError as exc:
        _fail(str(exc))
    with dataset:
        try:
            info = dataset.validate()
        except SumjudgeError as exc:
            _fail(str(exc))
        model_id = model or default_model_id()
        if default_chosen_for_user(model) and not quiet:
            console.print(DEFAULT_JUDGE_NOTICE, markup=False, highlight=False)
        code = asyncio.run(
            _score(
                dataset, info, console,
                model_id=model_id, max_questions=max_questions, scale=scale, concurrency=concurrency,
                out=out, report=report, gates=gates, store_path=store_path, fresh=fresh, timeout=timeout,
                cache=cache_path or use_cache, quiet=quiet,
            )
        )
    sys.exit(code)


async def _score(
    dataset: Any,
    info: Any,
    console: Any,
    *,
    model_id: str,
    max_questions: int,
    scale: float,
    concurrency: int,
    out: str | None,
    report: str | None,
    gates: Any,
    store_path: str | None,
    fresh: bool,
    timeout: float | None,
    cache: bool | str,
    quiet: bool,
) -> int:
    from . import create_summarization_scorer
    from .batch import Meter, MeteredJudge
    from .judges.base import ModelConfig
    from .judges.cache import with_cache
    from .judges.registry import resolve_judge
    from .outputs import AtomicFile

    meter = Meter()
    try:
        settings: dict[str, Any] = {"max_concurrency": concurrency}
        if timeout is not None:
            settings["timeout"] = timeout
        judge = resolve_judge(ModelConfig(id=model_id, **settings))
        judge = with_cache(MeteredJudge(judge, meter), cache)
        scorer = create_summarization_scorer(
            model=judge, options={"max_questions": max_questions, "scale": scale}
        )
    except (SumjudgeError, ValueError) as exc:
        _fail(str(exc))

    options = {"max_questions": max_questions, "scale": scale}
    files: list[AtomicFile] = []
    try:  # both outputs are proven writable before the run is opened or any call is made
        out_file = AtomicFile(out, option="--out") if out and out != "-" else None
        files += [out_file] if out_file else []
        report_file = AtomicFile(report, option="--report") if report else None
        files += [report_file] if report_file else []
    except SumjudgeError as exc:
        for f in files:
            f.discard()
        _fail(str(exc))
    try:
        return await _score_into_store(
            dataset, info, console, scorer, meter, model_id=model_id, options=options, scale=scale,
            concurrency=concurrency, out=out, out_file=out_file, report_file=report_file, gates=gates,
            store_path=store_path, fresh=fresh, quiet=quiet,
        )
    finally:
        for f in files:
            if f.tmp.exists():
                f.discard()


async def _score_into_store(
    dataset: Any, info: Any, console: Any, scorer: Any, meter: Any, *, model_id: str, options: dict[str, Any],
    scale: float, concurrency: int, out: str | None, out_file: Any, report_file: Any, gates: Any,
    store_path: str | None, fresh: bool, quiet: bool,
) -> int:
    """Open (or resume) the run, score what is left, write the outputs, and judge the gates."""
    from .batch import score_dataset
    from .gates import check_gates
    from .progress import BatchProgress, summary_table
    from .store import DEFAULT_STORE_PATH, RunStore

    try:
        store = RunStore(store_path or DEFAULT_STORE_PATH)
        run, resumed = store.open_run(
            model=model_id, options=options, data=dataset.display_name, fingerprint=info.fingerprint,
            total_items=info.count, resume=not fresh,
        )
    except SumjudgeError as exc:
        _fail(str(exc))
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
                fh.write(json.dumps(item.record, ensure_ascii=False) + "\n")
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
            from .report import write_report

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

    failures = check_gates(stats, info.count, gates)
    for failure in failures:
        console.print(f"sumjudge: gate failed: {failure}", markup=False)
    return EXIT_BELOW if failures else EXIT_OK


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


# -- runs ------------------------------------------------------------------------------------------

_store_option = click.option(
    "--store", "store_path", type=click.Path(dir_okay=False), default=None,
    help="Run store (SQLite). Default: .sumjudge/runs.db",
)


def _open_store(store_path: str | None) -> Any:
    """The store, opened read-only: listing and exporting never write to it."""
    from .store import DEFAULT_STORE_PATH, RunStore

    try:
        return RunStore(Path(store_path) if store_path else DEFAULT_STORE_PATH, readonly=True)
    except SumjudgeError as exc:
        _fail(str(exc))


@main.group()
def runs() -> None:
    """List, show and export recorded runs."""


@runs.command("list")
@_store_option
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Show the latest N runs only.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per run on standard output.")
def runs_list(store_path: str | None, limit: int | None, as_json: bool) -> None:
    """The recorded runs, newest first."""
    from rich.table import Table

    with _open_store(store_path) as store:
        records = store.list_runs(limit)
    if as_json:
        for r in records:
            click.echo(json.dumps(_run_json(r)))
        return
    table = Table(show_header=True, header_style="bold")
    for col in ("run", "created", "status", "model", "data", "done", "errors", "mean"):
        table.add_column(col, justify="right" if col in ("done", "errors", "mean") else "left")
    for r in records:
        table.add_row(
            r.id, _when(r.created_at), r.status, r.model, r.data, f"{r.done}/{r.total_items}", str(r.errors),
            "-" if r.mean_score is None else f"{r.mean_score:.3f}",
        )
    _stdout_console().print(table)


def _when(ts: float) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M:%S")


def _run_json(r: Any) -> dict[str, Any]:
    return {
        "id": r.id, "created_at": r.created_at, "updated_at": r.updated_at, "status": r.status, "model": r.model,
        "options": r.options, "data": r.data, "fingerprint": r.fingerprint, "total_items": r.total_items,
        "ok": r.ok, "errors": r.errors, "mean_score": r.mean_score,
    }


@runs.command("show")
@click.argument("run_ref", metavar="RUN")
@_store_option
@click.option("--json", "as_json", is_flag=True, help="The run and its figures as JSON on standard output.")
def runs_show(run_ref: str, store_path: str | None, as_json: bool) -> None:
    """One run (id, unique id prefix, or 'latest'): its settings and figures."""
    from .progress import summary_table

    with _open_store(store_path) as store:
        try:
            run = store.get_run(run_ref)
        except KeyError as exc:
            _fail(str(exc.args[0]))
        stats = store.stats(run.id)
        failures = [(i.item_id, i.record.get("error")) for _, i in zip(range(10), store.iter_items(run.id, status="error"))]
    if as_json:
        click.echo(json.dumps({**_run_json(run), "stats": stats.as_dict()}))
        return
    console = _stdout_console()
    console.print(f"run      {run.id}")
    console.print(f"status   {run.status}")
    console.print(f"created  {_when(run.created_at)}   updated {_when(run.updated_at)}")
    console.print(f"model    {run.model}")
    console.print(f"options  {json.dumps(run.options, sort_keys=True)}")
    console.print(f"data     {run.data} (fingerprint {run.fingerprint[:12]})")
    console.print(f"items    {run.done} of {run.total_items} done, {run.errors} failed")
    console.print(summary_table(stats, title=f"run {run.id}"))
    for item_id, error in failures:
        console.print(f"failed   {item_id}: {error}")


@runs.command("export")
@click.argument("run_ref", metavar="RUN")
@_store_option
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv"]), default="jsonl", show_default=True)
@click.option("--out", "-o", type=click.Path(dir_okay=False, allow_dash=True), default="-", show_default=True)
def runs_export(run_ref: str, store_path: str | None, fmt: str, out: str) -> None:
    """Every item of a run, in input order, as JSON lines (the --out lines of `score`) or CSV."""
    with _open_store(store_path) as store:
        try:
            run = store.get_run(run_ref)
        except KeyError as exc:
            _fail(str(exc.args[0]))
        fh: IO[str] = sys.stdout if out == "-" else open(out, "w", encoding="utf-8", newline="")  # noqa: SIM115
        try:
            if fmt == "jsonl":
                for item in store.iter_items(run.id):
                    fh.write(json.dumps(item.record, ensure_ascii=False) + "\n")
            else:
                writer = csv.writer(fh)
                writer.writerow(CSV_COLUMNS)
                for item in store.iter_items(run.id):
                    writer.writerow(_csv_row(item.row_number, item.record))
        finally:
            if fh is not sys.stdout:
                fh.close()


CSV_COLUMNS = [
    "id", "row", "score", "alignment_score", "coverage_score", "claims", "claims_supported",
    "questions", "questions_answered", "total_tokens", "reason", "error",
]


def _csv_row(row_number: int, record: dict[str, Any]) -> list[Any]:
    verdicts = record.get("verdicts") or {}
    claims = verdicts.get("alignment") or []
    coverage = verdicts.get("coverage") or []
    usage = record.get("usage") or {}
    return [
        record.get("id"), row_number, record.get("score"), record.get("alignment_score"),
        record.get("coverage_score"), len(claims), sum(1 for c in claims if c.get("supported")),
        len(verdicts.get("questions") or []), sum(1 for c in coverage if c.get("answered")),
        usage.get("total_tokens"), record.get("reason"), record.get("error"),
    ]


# -- agreement -------------------------------------------------------------------------------------


@main.command(
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []},
    add_help_option=False,
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def agreement(args: tuple[str, ...]) -> None:
    """Measure how far a judge agrees with human labels (see `sumjudge agreement --help`)."""
    from .agreement import main as agreement_main

    sys.exit(agreement_main(list(args)))


if __name__ == "__main__":  # pragma: no cover
    main()
