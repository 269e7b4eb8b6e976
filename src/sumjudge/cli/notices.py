"""What an in-process judge says while a command judges (loading the model, reading the claims), on
standard error. Apart from the progress bars so that ``check``, which judges one pair, loads no bar."""

from __future__ import annotations

from typing import Any

from rich.console import Console


class JudgeNotices:
    """What an in-process judge says it is doing (:mod:`sumjudge.judges.progress`), shown on standard
    error while a command judges: on a terminal, with ``spinner``, one line that changes (loading the
    model, reading the claims); elsewhere, and for ``score`` (its bar shows the reading), the loading
    lines only. Silent when the console is quiet."""

    def __init__(self, console: Console, *, spinner: bool) -> None:
        self.console = console
        self.spinner = spinner and console.is_terminal
        self._status: Any = None
        self._listening: Any = None

    def _hear(self, kind: str, message: str) -> None:
        if self._status is not None:
            self._status.update(f"sumjudge: {message}")
        elif kind in ("load", "loaded"):
            self.console.print(f"sumjudge: {message}", markup=False, highlight=False)

    def __enter__(self) -> JudgeNotices:
        from ..judges.progress import listening

        if self.console.quiet:
            return self
        if self.spinner:
            self._status = self.console.status("sumjudge: judging")
            self._status.start()
        self._listening = listening(self._hear)
        self._listening.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._listening is not None:
            self._listening.__exit__(None, None, None)
            self._listening = None
        if self._status is not None:
            self._status.stop()
            self._status = None
