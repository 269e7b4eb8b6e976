"""``sumjudge view``: the run store as a local web page where people read runs and label verdicts
(needs the ``view`` extra: ``pip install "sumjudge[view]"``).

Binds 127.0.0.1 unless ``--host`` says otherwise (then it warns: anyone who can reach the port reads
the store, and with the page's token may label). ``--read-only`` refuses every write.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
import sys
from pathlib import Path

import click

from .common import EXIT_USAGE, fail, stderr_console, store_option


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, or exit 2 with one line: the port in use names it and ``--port``."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        fail(f"cannot listen on {host!r}: {exc.strerror or exc}; give an address with --host (default 127.0.0.1)")
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            fail(f"port {port} on {host} is in use (another `sumjudge view`, or a server such as the bundled judge's?); "
                 "pick another with --port N (--port 0: any free one)")
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}; pick another --host or --port")
    return sock


@click.command()
@store_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (others than loopback are warned about).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port (0: any free one).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the browser once the server is up.")
@click.option("--read-only", is_flag=True, help="Show labels but take none (the store is opened read-only).")
@click.option("--seed", type=int, default=None, help="Seed of the review queue's random order.")
def view(store_path: str | None, host: str, port: int, open_browser: bool, read_only: bool, seed: int | None) -> None:
    """Browse the run store in a local web page and label the judge's verdicts."""
    from ..errors import MissingDependencyError, SumjudgeError
    from ..store.database import DEFAULT_STORE_PATH

    try:
        import uvicorn

        from ..view.app import ViewSettings, create_app
    except ImportError:
        fail(str(MissingDependencyError("the viewer (starlette, uvicorn)", 'pip install "sumjudge[view]"')))
    except MissingDependencyError as exc:
        fail(str(exc))
    store = Path(store_path) if store_path else DEFAULT_STORE_PATH
    loopback = is_loopback(host)
    console = stderr_console()
    extra = {} if seed is None else {"seed": seed}
    roots = (Path("."), store.resolve().parent.parent)
    try:
        settings = ViewSettings(
            store=store, read_only=read_only, data_roots=roots,
            allowed_hosts=("127.0.0.1", "localhost", "[::1]", host) if loopback else None, **extra,
        )
        app = create_app(settings)
    except SumjudgeError as exc:
        fail(str(exc))
    if not loopback:
        console.print(
            f"warning: binding {host}, not 127.0.0.1: anyone who can reach this port can read every run in {store}"
            + ("" if read_only else " and, from the page, label them; add --read-only to refuse labels")
        )
    sock = listening_socket(host, port)  # a port in use is one line, before the server starts
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)

    async def serve() -> None:
        import asyncio

        task = asyncio.ensure_future(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.05)
        if server.started:
            bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
            shown = f"[{host}]" if ":" in host else host
            address = f"http://{shown}:{bound}/"
            console.print(f"sumjudge view: {address} (store {store}{', read-only' if read_only else ''}); Ctrl-C stops it")
            if open_browser:
                import webbrowser

                webbrowser.open(address)
        await task

    import asyncio

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass
    if not server.started:
        sys.exit(EXIT_USAGE)
