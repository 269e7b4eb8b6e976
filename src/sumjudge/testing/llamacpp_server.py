"""llama-cpp-python's OpenAI-compatible server (``python -m llama_cpp.server``) started on 127.0.0.1 for
a GGUF file, for integration tests and benchmarks: :class:`LlamaCppServer`, a context manager that
waits until ``/v1/models`` answers and stops the server at the end.

The server keeps its default ``logits_all=True``: llama-cpp-python 0.3.x returns ``logprobs`` on
``/v1/completions`` only with it (it refuses them otherwise), and the reader's server-backed questions
read them. Its one slot keeps the prompt it last read, so a prompt that begins with it reads only the
rest (the reader's source first, claims last).
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO

STARTUP_TIMEOUT_S = 180.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LlamaCppServer:
    """``python -m llama_cpp.server --model PATH`` on a free port of 127.0.0.1 while the block runs.

    No ``--model_alias``: the server lists the model by its file's path, which is what a judge's
    identity records then. ``url`` is ``http://127.0.0.1:PORT`` (``base_url`` adds ``/v1``)."""

    def __init__(self, model: Path, *, n_ctx: int = 4096, threads: int = 2, extra: tuple[str, ...] = ()) -> None:
        self.model = model
        self.n_ctx = n_ctx
        self.threads = threads
        self.extra = extra
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.log: IO[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def log_tail(self, chars: int = 3000) -> str:
        if self.log is None:
            return ""
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")[-chars:]

    def start(self) -> LlamaCppServer:
        self.port = free_port()
        self.log = tempfile.TemporaryFile()
        threads = str(self.threads)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(self.model), "--host", "127.0.0.1",
             "--port", str(self.port), "--n_ctx", str(self.n_ctx), "--n_threads", threads,
             "--n_threads_batch", threads, *self.extra],
            stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {self.proc.returncode} before answering:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as resp:
                    if resp.status == 200 and json.load(resp).get("data"):
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"llama_cpp.server did not answer /v1/models within {STARTUP_TIMEOUT_S:.0f}s")
            time.sleep(0.25)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)
            self.proc = None
        if self.log is not None:
            self.log.close()
            self.log = None

    def __enter__(self) -> LlamaCppServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = ["LlamaCppServer", "free_port"]
