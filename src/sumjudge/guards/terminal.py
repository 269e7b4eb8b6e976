"""What reaches a terminal from the data or a judge is made inert: a control character (ESC, which
starts an ANSI escape sequence that can recolour, clear or retitle the terminal; BEL; backspace; a
carriage return that overwrites a line; the C1 controls; DEL) is written as its ``\\xNN`` escape, so
``\\x1b[2J`` in a summary is printed as text, never obeyed. Newlines and tabs stay.

The rule lives below every layer, so the command line (:mod:`sumjudge.cli.consoles`, its consoles) and the
libraries' messages (``assert_summary``'s failure under pytest) apply the same one."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def inert(text: str) -> str:
    """``text`` with every control character but newline and tab written as its ``\\xNN`` escape."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text) if text else text


__all__ = ["inert"]
