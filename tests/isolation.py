"""Run a test in a child process, so that a native crash fails one test instead of killing the suite.

llama.cpp runs in the test process for ``local/...`` judges; a build that does not suit the CPU
(e.g. one compiled with ``-march=native`` elsewhere) can die of SIGSEGV or SIGILL inside a
generation, and that takes pytest down with every test after it. A test marked
``@pytest.mark.in_subprocess(what="llama.cpp")`` is run by a fresh ``python -m pytest <nodeid>`` in a
child process instead; the parent reports the child's outcome as the test's own:

- passed: passed; skipped: skipped with the child's reason;
- failed: failed, with the child's report;
- killed by a signal: failed with "SIGSEGV in the llama.cpp subprocess" and the tail of its output.

Loaded as a plugin by ``conftest.py`` (``pytest_plugins``). The child runs with
``SUMJUDGE_TEST_CHILD=1`` and runs the test body itself. Under pytest-xdist the child of worker ``gwN``
may run on one CPU of the worker's affinity only (the Nth): llama.cpp's default threads are the CPUs a
process may use, and its spinning threads beside the other workers' tests are many times slower than
one thread (docs/design-notes.md); run alone (``-n 0``) the child has every CPU.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

CHILD_ENV = "SUMJUDGE_TEST_CHILD"
CHILD_TIMEOUT_S = 1800
"""A guard against a child that hangs for ever, far above any test's run time (not a speed check)."""
MARKER = "in_subprocess"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(what='...'): run the test in a child pytest process; a native crash there fails this "
        "test naming the signal instead of killing the suite",
    )


def describe_exit(returncode: int, what: str) -> str:
    """``"SIGSEGV in the llama.cpp subprocess (signal 11)"`` for a child killed by a signal, else
    ``"the llama.cpp subprocess exited with 3"``."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"{name} in the {what} subprocess (signal {-returncode})"
    return f"the {what} subprocess exited with {returncode}"


def _child_outcome(junit: Path) -> tuple[str, str]:
    """(``passed`` | ``failed`` | ``skipped`` | ``missing``, message) of the one test in the child's JUnit XML."""
    try:
        case = ET.parse(junit).getroot().find(".//testcase")
    except (ET.ParseError, OSError):
        return "missing", ""
    if case is None:
        return "missing", ""
    for tag in ("failure", "error"):
        node = case.find(tag)
        if node is not None:
            return "failed", f"{node.get('message', '')}\n{node.text or ''}".strip()
    node = case.find("skipped")
    if node is not None:
        return "skipped", node.get("message", "") or (node.text or "")
    return "passed", ""


def _one_cpu_per_worker() -> None:
    """In the child, before it starts: under xdist, worker gwN's child keeps the Nth CPU of its affinity."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw") and worker[2:].isdigit() and hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[int(worker[2:]) % len(cpus)]})


def run_in_child(item: pytest.Item, what: str) -> None:
    """Run ``item`` alone in a child pytest and turn its outcome into this test's (see the module)."""
    root = Path(str(item.config.rootpath))
    env = dict(os.environ, **{CHILD_ENV: "1"})
    with tempfile.TemporaryDirectory(prefix="sumjudge-child-") as tmp:
        junit = Path(tmp) / "child.xml"
        command = [
            sys.executable, "-m", "pytest", item.nodeid, "-q", "-p", "no:cacheprovider",
            "-o", "addopts=", f"--junitxml={junit}", "--rootdir", str(root),
        ]  # fmt: skip
        try:
            done = subprocess.run(
                command, cwd=root, env=env, capture_output=True, text=True, errors="replace", timeout=CHILD_TIMEOUT_S,
                preexec_fn=_one_cpu_per_worker,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"the {what} subprocess did not finish within {CHILD_TIMEOUT_S} s", pytrace=False)
        tail = (done.stdout + done.stderr)[-4000:]
        if done.returncode < 0:
            pytest.fail(f"{describe_exit(done.returncode, what)}; its output ended with:\n{tail}", pytrace=False)
        outcome, message = _child_outcome(junit)
        if outcome == "passed" and done.returncode == 0:
            return
        if outcome == "skipped":
            pytest.skip(message)
        if outcome == "failed":
            pytest.fail(f"failed in the {what} subprocess:\n{message}", pytrace=False)
        pytest.fail(f"{describe_exit(done.returncode, what)} without a result; its output ended with:\n{tail}", pytrace=False)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    marker = pyfuncitem.get_closest_marker(MARKER)
    if marker is None or os.environ.get(CHILD_ENV):
        return None  # not marked, or already the child: run the body here
    run_in_child(pyfuncitem, str(marker.kwargs.get("what", "test")))
    return True
