"""What an in-process judge says while a command judges reaches standard error: loading lines always,
the changing "reading" line only on a terminal, nothing on a quiet console."""

from __future__ import annotations

import io

from rich.console import Console

from sumjudge.cli.notices import JudgeNotices
from sumjudge.judges.progress import notify


def _said(console: Console, *, spinner: bool) -> str:
    with JudgeNotices(console, spinner=spinner):
        notify("load", "loading qwen.gguf")
        notify("read", "reading claim 1 of 3")
        notify("loaded", "qwen.gguf ready")
    notify("load", "after the command: heard by nobody")
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_off_a_terminal_the_loading_lines_are_printed_and_the_reading_is_not() -> None:
    out = _said(Console(file=io.StringIO(), width=200), spinner=True)
    assert out.splitlines() == ["sumjudge: loading qwen.gguf", "sumjudge: qwen.gguf ready"]


def test_a_quiet_console_hears_nothing() -> None:
    assert _said(Console(file=io.StringIO(), quiet=True), spinner=False) == ""
