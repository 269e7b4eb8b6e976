"""The HTTP side of the test servers (:mod:`.judge_server`, :mod:`.anthropic_server`): a request read off
its connection (:func:`read_request`), its answer written back after the answer's delay, whole, a byte
at a time (:meth:`~.faults.Fault.slow_loris`) or not at all (a dropped connection: :func:`send_answer`),
and the threaded server on 127.0.0.1 that hands each request to a server's ``handle`` (:func:`make_handler`).
What a request is answered with is the servers' own business.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .faults import TRICKLE
from .recorded import RecordedRequest

Handle = Callable[[BaseHTTPRequestHandler, str], None]
"""What a server does with a request: ``handle(handler, method)``."""


def read_request(handler: BaseHTTPRequestHandler, method: str) -> RecordedRequest:
    """The request ``handler`` is serving: its path, query, headers (lower case) and body (parsed
    JSON, ``None`` when there is none or it is not JSON; ``raw`` keeps the bytes)."""
    length = int(handler.headers.get("Content-Length") or 0)
    raw = handler.rfile.read(length) if length else b""
    try:
        body = json.loads(raw) if raw else None
    except ValueError:
        body = None
    return RecordedRequest(
        method=method,
        path=handler.path.split("?", 1)[0],
        query=handler.path.partition("?")[2],
        headers={k.lower(): v for k, v in handler.headers.items()},
        raw=raw,
        body=body,
    )


def send_answer(
    handler: BaseHTTPRequestHandler, status: int, headers: dict[str, str], payload: bytes | None, *, wait: float,
    stop: threading.Event,
) -> None:
    """Answer after ``wait`` seconds (cut short when ``stop`` is set): ``payload`` as a JSON reply, trickled
    when ``headers`` carry :data:`~.faults.TRICKLE`; ``None`` drops the connection without an answer."""
    if wait > 0:
        stop.wait(wait)
    if payload is None:
        handler.close_connection = True
        return
    if (trickle := headers.pop(TRICKLE, None)) is not None:
        _trickle(handler, status, headers, payload, trickle, stop)
        return
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(payload)))
    for key, value in headers.items():
        handler.send_header(key, value)
    handler.end_headers()
    handler.wfile.write(payload)


def _trickle(handler: BaseHTTPRequestHandler, status: int, headers: dict[str, str], payload: bytes, how: str,
             stop: threading.Event) -> None:
    """Send the reply one byte at a time (:meth:`Fault.slow_loris`) until it is sent, the client hangs
    up or the server stops."""
    every_text, _, part = how.partition(" ")
    every = float(every_text)
    lines = [f"HTTP/1.1 {status} {'OK' if status < 400 else 'Error'}", "Content-Type: application/json",
             f"Content-Length: {len(payload)}", "Connection: close",
             *(f"{k}: {v}" for k, v in headers.items())]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    handler.close_connection = True
    slow = head + payload
    try:
        if part != "all":
            handler.wfile.write(head)
            handler.wfile.flush()
            slow = payload
        for i in range(len(slow)):
            if stop.wait(every):
                return
            handler.wfile.write(slow[i:i + 1])
            handler.wfile.flush()
    except (BrokenPipeError, ConnectionResetError):  # the client gave up: what a timeout does
        return


class LocalServer(ThreadingHTTPServer):
    """A threaded HTTP server for the test servers: a deep listen queue, its threads daemons."""

    request_queue_size = 1024  # the default (5) makes bursts of connections wait for a SYN retry (1 s)
    allow_reuse_address = True
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that hangs up mid-reply (a timeout, Ctrl-C, a killed batch) is expected here.
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def make_handler(handle: Handle) -> type[BaseHTTPRequestHandler]:
    """A request handler class that hands every GET and POST to ``handle``."""
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "sumjudge-judge-server"
        # the headers and the body go out as two writes: with Nagle's algorithm on, the body waits for
        # the client's (delayed, up to 40 ms) ACK of the headers, a stall no real provider adds
        disable_nagle_algorithm = True

        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            handle(self, "POST")

        def do_GET(self) -> None:  # noqa: N802
            handle(self, "GET")

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
            return

    return Handler


__all__ = ["Handle", "LocalServer", "make_handler", "read_request", "send_answer"]
