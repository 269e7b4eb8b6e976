"""What every ``sumjudge`` command shares: exit codes, the two consoles, the usage-error exit, the run store."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

EXIT_OK, EXIT_BELOW, EXIT_USAGE, EXIT_INCONCLUSIVE, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 3, 130, 143


def stderr_console(quiet: bool = False) -> Any:
    """Progress, notices and the end table go to standard error (standard output may carry ``--out -``)."""
    from .consoles import inert_console

    # markup off: file names, ids and model ids are the user's text, never rich markup; controls made inert
    console = inert_console(stderr=True, quiet=quiet, highlight=False, markup=False)
    if not console.is_terminal:
        console.width = max(console.width, 160)  # logs: do not wrap or cut at 80 columns
    return console


def stdout_console() -> Any:
    from .consoles import inert_console

    console = inert_console(highlight=False, markup=False)  # an ESC in a summary is shown, never obeyed
    if not console.is_terminal:
        console.width = max(console.width, 200)
    return console


def say(message: str) -> None:
    """One line on standard error, credentials hidden (:func:`sumjudge.guards.redact.redact`); printed even
    under ``--quiet``, so use it for what decides the exit code."""
    from ..guards.redact import redact
    from .consoles import inert

    click.echo(inert(redact(message)), err=True)


def fail(message: str) -> None:
    """Print an input or usage error and exit 2."""
    say(f"sumjudge: error: {message}")
    sys.exit(EXIT_USAGE)


on_inconclusive_option = click.option(
    "--on-inconclusive", type=click.Choice(["inconclusive", "pass", "fail"]), default="inconclusive",
    show_default=True,
    help="What a gate whose 95% interval crosses its bar counts as: inconclusive (exit 3, with what would "
         "settle it), or pass / fail for a CI that must have two outcomes.",
)


def gate_exit(failures: list[str], unsure: list[str]) -> int:
    """Say every failed and inconclusive gate (even under --quiet: the exit code needs its reason)
    and pick the exit code: 1 when one failed, else 3 when one could not decide, else 0."""
    for failure in failures:
        say(f"sumjudge: gate failed: {failure}")
    for line in unsure:
        say(f"sumjudge: gate inconclusive: {line}")
    return EXIT_BELOW if failures else EXIT_INCONCLUSIVE if unsure else EXIT_OK


store_option = click.option(
    "--store", "store_path", type=click.Path(dir_okay=False), default=None,
    help="Run store (SQLite). Default: .sumjudge/runs.db",
)


def open_store(store_path: str | None) -> Any:
    """The run store at ``store_path`` (default ``.sumjudge/runs.db``), opened read-only: listing,
    showing and exporting never write to it. Exit 2 when there is none or it cannot be read."""
    from ..errors import SumjudgeError
    from ..store.database import DEFAULT_STORE_PATH, RunStore

    try:
        return RunStore(Path(store_path) if store_path else DEFAULT_STORE_PATH, readonly=True)
    except SumjudgeError as exc:
        fail(str(exc))


@contextmanager
def store_errors(store_path: str | None) -> Iterator[None]:
    """A damaged run store (``database disk image is malformed``, a record that is not JSON) met while
    reading it is one line and exit 2, as ``sumjudge score`` says it, never a traceback."""
    import sqlite3

    from ..errors import SumjudgeError
    from ..store.database import DEFAULT_STORE_PATH, store_error

    try:
        yield
    except sqlite3.Error as exc:
        fail(str(store_error(Path(store_path) if store_path else DEFAULT_STORE_PATH, exc)))
    except SumjudgeError as exc:
        fail(str(exc))


FORMATS_HELP = "JSONL (.jsonl, .ndjson), a JSON array (.json), CSV (.csv), TSV (.tsv), Parquet (.parquet, .pq)"
"""Every format the one row reader (:mod:`sumjudge.data.datasets`) takes, for help texts."""


def input_options(command: Any) -> Any:
    """The flags that say how to read DATA, for every command that reads a dataset (``score``,
    ``estimate``): field names, format, encoding and delimiter. The command takes them as the keyword
    arguments ``source_field, summary_field, id_field, fmt, encoding, delimiter`` and opens the data
    with :func:`open_dataset`."""
    from ..data.datasets import FORMATS

    options = [
        click.option("--source-field", default="source", show_default=True,
                     help="Field (or CSV/TSV/Parquet column) holding the source text."),
        click.option("--summary-field", default="summary", show_default=True,
                     help="Field (or column) holding the summary."),
        click.option("--id-field", default="id", show_default=True,
                     help="Field (or column) holding the item id (else the row number)."),
        click.option("--format", "fmt", type=click.Choice(list(FORMATS)), default=None,
                     help="Input format (default: from the extension; sniffed for standard input)."),
        click.option("--encoding", default=None, metavar="NAME",
                     help="Text encoding of DATA (default utf-8, a byte-order mark is skipped), e.g. cp1252."),
        click.option("--delimiter", default=None, metavar="CHAR",
                     help="CSV delimiter (default: sniffed among , ; tab |; tab for .tsv)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def open_dataset(
    data: str, *, source_field: str, summary_field: str, id_field: str,
    fmt: str | None, encoding: str | None, delimiter: str | None,
) -> Any:
    """DATA opened with the :func:`input_options` flags (a :class:`~sumjudge.data.Dataset`); exit 2 with
    one line when the flags or the file cannot be used."""
    from ..data.datasets import Dataset, Fields
    from ..errors import SumjudgeError

    try:
        return Dataset(
            data, fields=Fields(source=source_field, summary=summary_field, id=id_field),
            format=fmt, encoding=encoding, delimiter=delimiter,  # type: ignore[arg-type]
        )
    except SumjudgeError as exc:
        fail(str(exc))


def default_databases(store_path: str | None) -> dict[str, Any]:
    """The SQLite files no command may write over: the run store (``--store`` or the default) and the
    default reply cache (each with its sidecars, see :class:`sumjudge.data.files.OutputPlan`)."""
    from ..judges.cache import DEFAULT_CACHE_PATH
    from ..store.database import DEFAULT_STORE_PATH

    return {"the run store": store_path or DEFAULT_STORE_PATH, "the reply cache": DEFAULT_CACHE_PATH}


def exit_codes(*codes: str) -> str:
    """A command's exit codes as the epilog of its ``--help`` (``\\b``: click keeps the lines as written)."""
    return "\b\nExit codes:\n" + "\n".join(f"  {code}" for code in codes)


SCORE_EXIT_CODES = exit_codes(
    "0    scored, every gate passed",
    "1    a gate failed: --fail-under, --min-item-score, --pass-rate, failed items beyond",
    "     --allow-errors, or no item could be scored",
    "2    bad input or usage (one line naming the row, field or file)",
    "3    no gate failed, but one is inconclusive: its 95% interval crosses the bar",
    "     (--on-inconclusive pass|fail counts it as one of the two)",
    "130  interrupted (Ctrl-C): what finished is saved; the same command resumes",
    "143  terminated (SIGTERM): saved and resumable likewise",
)
CHECK_EXIT_CODES = exit_codes(
    "0    judged (and at or above --fail-under, when given)",
    "1    the score is below --fail-under, or the judge failed",
    "2    bad input or usage",
)
COMPARE_EXIT_CODES = exit_codes(
    "0    compared (with --fail-if-worse: B is not worse than A beyond --margin)",
    "1    the verdict is 'worse' and --fail-if-worse was given",
    "2    the runs cannot be compared (no such run or file, an empty run, different data,",
    "     judges or options)",
    "3    --fail-if-worse, and the interval of B - A reaches below -margin without B being",
    "     significantly worse: too few items to tell (--on-inconclusive pass|fail)",
)
ESTIMATE_EXIT_CODES = exit_codes("0    forecast printed", "2    bad input or usage")
PROBE_EXIT_CODES = exit_codes(
    "0    probed, every gate passed",
    "1    a gate failed: a kind's detection rate below --min-detection, or a control flagged",
    "     more often than --max-false-alarm",
    "2    bad input or usage (no variant could be made, a bad rate, a bad row or file)",
    "3    no gate failed, but one is inconclusive: its interval crosses the bar",
    "     (--on-inconclusive pass|fail counts it as one of the two)",
    "130  interrupted (Ctrl-C): what finished is saved; the same command resumes",
    "143  terminated (SIGTERM): saved and resumable likewise",
)
AGREEMENT_EXIT_CODES = exit_codes(
    "0    agreement measured",
    "2    bad input or configuration (a missing field, an unreadable file, an unknown judge,",
    "     --no-judge without a --metric, a run without labels)",
)
