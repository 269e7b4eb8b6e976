"""One process per run: the lock a batch command takes on its run in the run store.

Two identical ``sumjudge score`` commands on one store would both judge every item. The store's
``run_locks`` table holds, per run, the process scoring it (pid, host, since). :func:`claim_run`
is called inside the transaction that finds or creates the run, so two commands can never both
hold it; a lock whose process has died on this host is taken over, one held from another host
(a store on a shared disk) cannot be checked and is respected.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import time

from ..errors import RunBusyError


def claim_run(db: sqlite3.Connection, run_id: str) -> None:
    """Take the run's lock, or raise :class:`RunBusyError` naming the live process that holds it."""
    host, pid = socket.gethostname(), os.getpid()
    held = db.execute("SELECT pid, host, since FROM run_locks WHERE run_id = ?", (run_id,)).fetchone()
    if held is not None and (held[1], held[0]) != (host, pid):
        holder_pid, holder_host, since = held[0], held[1], held[2]
        if holder_host != host or _alive(holder_pid):
            at = time.strftime("%H:%M:%S", time.localtime(since))
            raise RunBusyError(
                f"run {run_id} is being scored by process {holder_pid} on {holder_host} (since {at}); "
                "wait for it to finish, or pass --fresh to start a separate run"
            )
    db.execute(
        "INSERT OR REPLACE INTO run_locks (run_id, pid, host, since) VALUES (?, ?, ?, ?)",
        (run_id, pid, host, time.time()),
    )


def release_run(db: sqlite3.Connection, run_id: str) -> None:
    """Give up this process's lock on the run."""
    db.execute(
        "DELETE FROM run_locks WHERE run_id = ? AND pid = ? AND host = ?", (run_id, os.getpid(), socket.gethostname())
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
