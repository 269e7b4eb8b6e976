"""What reaches a terminal from the data or a judge is made inert: a control character (ESC, which
starts an ANSI escape sequence that can recolour, clear or retitle the terminal; BEL; backspace; a
carriage return that overwrites a line; the C1 controls; DEL) is written as its ``\\xNN`` escape, so
``\\x1b[2J`` in a summary is printed as text, never obeyed. Newlines and tabs stay.

:func:`inert` is the rule; :func:`inert_console` is a rich console that applies it to every piece of
text it writes (its own styling, which rich adds as separate control codes, is kept)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def inert(text: str) -> str:
    """``text`` with every control character but newline and tab written as its ``\\xNN`` escape."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text) if text else text


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
