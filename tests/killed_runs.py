"""Kill a batch command in the middle of its run: the helper of the resume tests (score and probe)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path


def finished_ids(db: Path) -> set[str]:
    """The ids of the items the run store holds as scored (read-only; empty before the tables exist)."""
    if not db.exists():
        return set()
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return {r[0] for r in con.execute("SELECT item_id FROM items WHERE status = 'ok'")}
    except sqlite3.OperationalError:  # tables not created yet
        return set()
    finally:
        con.close()


def kill_once_finished(
    cmd: Sequence[str], env: Mapping[str, str], store: Path, at_least: int, *, within: float = 60,
) -> subprocess.Popen[bytes]:
    """Start ``cmd``, wait until ``store`` holds ``at_least`` scored items, then SIGKILL it (nothing of
    its own shutdown runs). Fails when the command exits or makes no progress ``within`` seconds."""
    proc = subprocess.Popen(list(cmd), env=dict(env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + within
        while len(finished_ids(store)) < at_least:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "the run made no progress"
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        if proc.stderr:
            proc.stderr.close()
    return proc
