"""``sumjudge runs``: list, show and export the runs that ``sumjudge score`` recorded in the run store."""

from __future__ import annotations

import csv
import json
import sys
from typing import IO, TYPE_CHECKING, Any

import click

from ..guards.limits import MAX_LISTED
from .common import default_databases, fail, open_store, stdout_console, store_errors, store_option

if TYPE_CHECKING:
    from ..store.records import ItemOutcome


@click.group()
def runs() -> None:
    """List, show and export recorded runs."""


@runs.command("list")
@store_option
@click.option("--limit", type=click.IntRange(min=1, max=MAX_LISTED), default=None,
              help=f"Show the latest N runs only (at most {MAX_LISTED:,}).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per run on standard output.")
def runs_list(store_path: str | None, limit: int | None, as_json: bool) -> None:
    """The recorded runs, newest first."""
    from rich.table import Table

    from ..figures import number

    with store_errors(store_path), open_store(store_path) as store:
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
            number(r.mean_score),
        )
    stdout_console().print(table)


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
@store_option
@click.option("--json", "as_json", is_flag=True, help="The run and its figures as JSON on standard output.")
@click.option("--labels-from", "labels_from", default=None, metavar="RUN",
              help="Correct the run's rates with the labels of this run (same judge and options; default: its own).")
@click.option("--worst", type=click.IntRange(min=1, max=MAX_LISTED), default=None, metavar="N",
              help="Also the N lowest-scoring items: score, axes and the reason (the report's text).")
@click.option("--best", type=click.IntRange(min=1, max=MAX_LISTED), default=None, metavar="N",
              help="Also the N highest-scoring items, likewise.")
def runs_show(run_ref: str, store_path: str | None, as_json: bool, labels_from: str | None,
              worst: int | None = None, best: int | None = None) -> None:
    """One run (id, unique id prefix, or 'latest'): its settings and figures; where people labelled
    verdicts (its own, or --labels-from's), its rates corrected for the judge's errors; with --worst /
    --best, its lowest / highest-scoring items."""
    from ..analysis.corrected import correction_from_store, correction_lines
    from ..errors import InputError
    from ..store.item_lookup import ranked_items
    from ..store.labels import LabelBook
    from .progress import summary_table

    with store_errors(store_path), open_store(store_path) as store:
        try:
            run = store.get_run(run_ref)
        except KeyError as exc:
            fail(str(exc.args[0]))
        stats = store.stats(run.id)
        failures = [(i.item_id, i.outcome.error) for _, i in zip(range(10), store.iter_items(run.id, status="error"))]
        correction = None
        try:
            source = store.get_run(labels_from).id if labels_from is not None else run.id
            if labels_from is not None or LabelBook(store).verdict_labels(run.id):
                correction = correction_from_store(store, run.id, source)
        except KeyError as exc:
            fail(str(exc.args[0]))
        except InputError as exc:
            fail(str(exc))
        ranked = {name: ranked_items(store, run.id, n, worst=name == "worst")
                  for name, n in (("worst", worst), ("best", best)) if n is not None}
    from .batch_view import batch_usage, cost_lines

    usage = batch_usage(store.path, run.id)  # provider batch jobs (`score --batch`), if any
    if as_json:
        batch = None if usage is None else {**usage.__dict__}
        extra = {"batch": batch} if batch else {}
        if correction is not None:
            extra["corrected"] = correction.model_dump()
        listed = {name: [_ranked_json(i) for i in items] for name, items in ranked.items()}
        click.echo(json.dumps({**_run_json(run), "stats": stats.as_dict(), **extra, **listed}))
        return
    console = stdout_console()
    console.print(f"run      {run.id}")
    console.print(f"status   {run.status}")
    console.print(f"created  {_when(run.created_at)}   updated {_when(run.updated_at)}")
    console.print(f"model    {run.model}")
    console.print(f"options  {json.dumps(run.options, sort_keys=True)}")
    console.print(f"data     {run.data} (fingerprint {run.fingerprint[:12]})")
    console.print(f"items    {run.done} of {run.total_items} done, {run.errors} failed")
    console.print(summary_table(stats, title=f"run {run.id}"))
    for line in cost_lines(run.model, usage) if usage is not None else []:
        console.print(line)
    for item_id, error in failures:
        console.print(f"failed   {item_id}: {error}")
    for line in correction_lines(correction) if correction is not None else []:
        console.print(line)
    for name, items in ranked.items():
        console.print(f"{name} {len(items)} (score, alignment, coverage, the reason):", markup=False)
        for item in items:
            console.print(ranked_line(item), markup=False, highlight=False, soft_wrap=True)


def ranked_line(item: Any) -> str:
    """One item of ``--worst``/``--best``: its figures, its id, and the reason as the report shows it."""
    from ..figures import number

    r = item.outcome
    return (f"  {number(r.score)}  alignment {number(r.alignment_score)}  coverage {number(r.coverage_score)}  "
            f"{item.item_id} (row {item.row_number}): {r.reason}")


def _ranked_json(item: Any) -> dict[str, Any]:
    r = item.outcome
    return {"id": item.item_id, "row": item.row_number, "score": r.score, "alignment_score": r.alignment_score,
            "coverage_score": r.coverage_score, "reason": r.reason}


@runs.command("export")
@click.argument("run_ref", metavar="RUN")
@store_option
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv", "parquet"]), default="jsonl", show_default=True)
@click.option("--out", "-o", type=click.Path(dir_okay=False, allow_dash=True), default="-", show_default=True)
def runs_export(run_ref: str, store_path: str | None, fmt: str, out: str) -> None:
    """Every item of a run, in input order, as JSON lines (the --out lines of `score`, with the labels
    people left in `sumjudge view` under "labels"), CSV, or
    Parquet (one row per item, verdicts in nested columns; needs pyarrow: pip install 'sumjudge[parquet]')."""
    from ..data.files import OutputPlan
    from ..runs.outputs import store_reads
    from ..store.database import DEFAULT_STORE_PATH

    data, caches = store_reads(store_path or DEFAULT_STORE_PATH)
    plan = OutputPlan(inputs=data, databases={**caches, **default_databases(store_path)}, outputs={"--out": out})
    with store_errors(store_path):
        plan.check()  # any run's data file, any cache the store's runs used: never written over
        with open_store(store_path) as store:
            try:
                run = store.get_run(run_ref)
            except KeyError as exc:
                fail(str(exc.args[0]))
            if fmt == "parquet":
                _export_parquet(store, run.id, out, plan)
            elif out == "-":
                _export_text(store, run.id, fmt, sys.stdout)
            else:  # written beside and renamed: a failed export leaves the old file as it was
                plan.open("--out").write_stream(lambda fh: _export_text(store, run.id, fmt, fh))


def _export_text(store: Any, run_id: str, fmt: str, fh: IO[str]) -> None:
    from ..store.records import run_line

    if fmt == "jsonl":
        from ..store.labels import LabelBook

        run = store.get_run(run_id)
        labels = LabelBook(store).by_item(run_id)  # people's labels (sumjudge view), under "labels"
        for item in store.iter_items(run_id):
            extra = labels.get(item.item_id)
            line = run_line(item.outcome, run.model, run.options, labels=extra)
            fh.write(line + "\n")
    else:
        writer = csv.writer(fh)
        writer.writerow(CSV_COLUMNS)
        for item in store.iter_items(run_id):
            writer.writerow([cell_text(v) for v in _csv_row(item.row_number, item.outcome)])


def _export_parquet(store: Any, run_id: str, out: str, plan: Any) -> None:
    from ..data.parquet import write_rows
    from ..data.tables import record_row

    def rows() -> Any:
        return (record_row(item.outcome.as_json()) for item in store.iter_items(run_id))

    if out == "-":
        write_rows(sys.stdout.buffer, rows())
    else:
        plan.write("--out", lambda tmp: write_rows(tmp, rows()))  # pyarrow missing: a SumjudgeError, one line


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def cell_text(value: Any) -> Any:
    """A CSV cell as a spreadsheet will read it as text: a string that starts like a formula (``=``,
    ``+``, ``-``, ``@``, a tab or carriage return; their fullwidth forms) gets a leading ``'``, so
    ``=HYPERLINK(...)`` from a summary or a reason is shown, never run. Numbers are kept as numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


CSV_COLUMNS = [
    "id", "row", "score", "alignment_score", "coverage_score", "claims", "claims_supported",
    "claims_unchecked", "questions", "questions_answered", "total_tokens", "reason", "error", "evidence_verified",
    "evidence_checked",
]


def _csv_row(row_number: int, item: ItemOutcome) -> list[Any]:
    v = item.verdicts
    counts = (
        (len(v.alignment), v.claims_supported, v.claims_unchecked, len(v.questions), v.questions_answered)
        if v else (0, 0, 0, 0, 0)
    )
    tokens = item.usage.total_tokens if item.usage else None
    from ..summarization.quotes import located_share

    evidence = [a + b for a, b in zip(located_share(v.alignment), located_share(v.coverage))] if v else [None, None]
    return [
        item.id, row_number, item.score, item.alignment_score, item.coverage_score, *counts,
        tokens, item.reason, item.error, *evidence,
    ]


from .runs_cancel import runs_cancel  # noqa: E402 - `sumjudge runs cancel`, in its own module

runs.add_command(runs_cancel)
