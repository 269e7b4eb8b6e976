"""What reaches a terminal from the data or a judge is made inert: a control character (ESC, which
starts an ANSI escape sequence that can recolour, clear or retitle the terminal; BEL; backspace; a
carriage return that overwrites a line; the C1 controls; DEL) is written as its ``\\xNN`` escape, so
``\\x1b[2J`` in a summary is printed as text, never obeyed. Newlines and tabs stay.

:func:`inert` is the rule (:mod:`sumjudge.guards.terminal`); :func:`inert_console` is a rich console that
applies it to every piece of text it writes (its own styling, which rich adds as separate control codes,
is kept)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..guards.terminal import inert


def inert_console(**options: Any) -> Any:
    """A :class:`rich.console.Console` (``options`` as its own) whose text is :func:`inert`."""
    from rich.console import Console
    from rich.segment import Segment

    class InertConsole(Console):
        def _render_buffer(self, buffer: Iterable[Segment]) -> str:
            return super()._render_buffer(
                s if s.control else Segment(inert(s.text), s.style, s.control) for s in buffer)

    return InertConsole(**options)


__all__ = ["inert", "inert_console"]
