"""What every ``sumjudge`` command shares: exit codes, the two consoles, the usage-error exit, the run store."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

EXIT_OK, EXIT_BELOW, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 130, 143


def stderr_console(quiet: bool = False) -> Any:
    """Progress, notices and the end table go to standard error (standard output may carry ``--out -``)."""
    from rich.console import Console

    # markup off: file names, ids and model ids are the user's text, never rich markup
    console = Console(stderr=True, quiet=quiet, highlight=False, markup=False)
    if not console.is_terminal:
        console.width = max(console.width, 160)  # logs: do not wrap or cut at 80 columns
    return console


def stdout_console() -> Any:
    from rich.console import Console

    console = Console(highlight=False, markup=False)
    if not console.is_terminal:
        console.width = max(console.width, 200)
    return console


def say(message: str) -> None:
    """One line on standard error, credentials hidden (:func:`sumjudge.redact.redact`); printed even
    under ``--quiet``, so use it for what decides the exit code."""
    from ..redact import redact

    click.echo(redact(message), err=True)


def fail(message: str) -> None:
    """Print an input or usage error and exit 2."""
    say(f"sumjudge: error: {message}")
    sys.exit(EXIT_USAGE)


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


def default_databases(store_path: str | None) -> dict[str, Any]:
    """The SQLite files no command may write over: the run store (``--store`` or the default) and the
    default reply cache (each with its sidecars, see :class:`sumjudge.data.files.OutputPlan`)."""
    from ..judges.cache import DEFAULT_CACHE_PATH
    from ..store.database import DEFAULT_STORE_PATH

    return {"the run store": store_path or DEFAULT_STORE_PATH, "the reply cache": DEFAULT_CACHE_PATH}
