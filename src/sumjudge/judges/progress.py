"""What a judge that works on this machine is doing, for whoever shows it (the CLI's progress).

A judge in process (llama.cpp's ``local/``, ``local/reader``) spends seconds where nothing else is
seen to happen: loading a model file, checking its digest, reading a source. It says so with
:func:`notify`; a command that shows progress listens with :func:`listening`. Nobody listening: a
notice costs a lock and an empty loop. Listeners are called in the judge's thread and must be quick.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Listener = Callable[[str, str], None]
"""``(kind, message)``: ``kind`` is ``"load"`` (a model being loaded), ``"loaded"`` (it is ready),
``"read"`` (what the model reads now)."""

_lock = threading.Lock()
_listeners: list[Listener] = []


def notify(kind: str, message: str) -> None:
    """Tell every listener (none: nothing happens); a listener that raises is ignored."""
    with _lock:
        listeners = list(_listeners)
    for listener in listeners:
        try:
            listener(kind, message)
        except Exception:  # noqa: BLE001 - showing progress must never fail a judgment
            pass


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """``listener`` hears every notice while the block runs."""
    with _lock:
        _listeners.append(listener)
    try:
        yield
    finally:
        with _lock:
            _listeners.remove(listener)


__all__ = ["Listener", "listening", "notify"]
