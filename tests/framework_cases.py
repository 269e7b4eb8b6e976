"""What the evaluation-framework tests share: the bundled examples, sumjudge's own results for them
(what each framework must show), a judge that fails, and a kept exam."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from scripted import answers, judge, questions

from sumjudge import create_summarization_scorer
from sumjudge.summarization.exam import Exam, ExamEntry, source_sha256
from sumjudge.summarization.prompts import PROMPT_VERSION

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "summaries.jsonl"
JUDGE_DOWN = "the judge is down (scripted)"


def example_rows() -> list[dict[str, Any]]:
    """The bundled examples: ``id``, ``source``, ``summary`` (three documents, six summaries each)."""
    rows = [json.loads(line) for line in EXAMPLES.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [{"id": r["id"], "source": r["source"], "summary": r["summary"]} for r in rows]


def own_results(rows: list[dict[str, Any]], model: Any = "offline/lexical", **options: Any) -> dict[str, Any]:
    """sumjudge's own result for each row (by id), scored directly with the same judge and options."""
    scorer = create_summarization_scorer(model, options or None)
    return {r["id"]: scorer.run_sync(input=r["source"], output=r["summary"]) for r in rows}


def failing_judge() -> Any:
    """A judge whose every call raises: each framework must show a failure, never a score."""
    down = RuntimeError(JUDGE_DOWN)
    return judge(down, down, answers(True))


def scripted_judge() -> Any:
    """A judge that answers: every claim supported, two questions, one answered (score 0.5)."""
    return judge({"alignment": [{"claim": "c", "supported": True, "reason": "ok"}]}, questions("q1?", "q2?"),
                 answers(True, False))


def exam_for(rows: list[dict[str, Any]], question: str = "Is it true that the project was approved?") -> Exam:
    """A kept exam of one question per source: a scorer given it asks the judge for no questions."""
    sources = {r["source"] for r in rows}
    return Exam.of(
        ExamEntry(source_sha256=source_sha256(s), questions=[question], judge="offline/lexical",
                  prompt_version=PROMPT_VERSION, max_questions=10)
        for s in sorted(sources)
    )


LOCAL_HOSTS = {"127.0.0.1", "::1", "localhost", ""}


class NetworkRefused(OSError):
    """A connection beyond 127.0.0.1 in a framework test: a download, a telemetry ping."""


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refuses every connection and name lookup beyond 127.0.0.1 (AF_UNIX sockets stay allowed):
    a framework that downloads something or sends telemetry fails the test, naming the address."""
    real_connect, real_connect_ex, real_getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo

    def local(address: Any) -> bool:
        return not isinstance(address, tuple) or str(address[0]) in LOCAL_HOSTS

    def connect(self: socket.socket, address: Any) -> Any:
        if not local(address):
            raise NetworkRefused(f"a framework test tried to reach {address!r}")
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> Any:
        if not local(address):
            raise NetworkRefused(f"a framework test tried to reach {address!r}")
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and str(host if not isinstance(host, bytes) else host.decode()) not in LOCAL_HOSTS:
            raise NetworkRefused(f"a framework test tried to look up {host!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.fixture(scope="session")
def mlflow_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty MLflow sqlite store with its tables made (MLflow's migrations take ~10 s): each test
    starts from a copy of it instead of migrating a store of its own."""
    import mlflow

    path = tmp_path_factory.mktemp("mlflow-template") / "mlflow.db"
    mlflow.MlflowClient(tracking_uri=f"sqlite:///{path}").search_experiments()
    return path


def fresh_mlflow(monkeypatch: pytest.MonkeyPatch, template: Path, path: Path) -> str:
    """A copy of the template store at ``path``, MLflow's global state (tracking URI, active experiment)
    undone after the test, its evaluation kept small and synchronous. Returns the store's URI."""
    import shutil

    import mlflow
    import mlflow.tracking.fluent as fluent

    shutil.copyfile(template, path)
    monkeypatch.setenv("MLFLOW_GENAI_EVAL_MAX_WORKERS", "2")
    monkeypatch.setenv("MLFLOW_ENABLE_ASYNC_TRACE_LOGGING", "false")
    monkeypatch.setenv("MLFLOW_EXPERIMENT_ID", "")  # set_experiment writes it: undone after the test
    monkeypatch.delenv("MLFLOW_EXPERIMENT_ID")
    monkeypatch.setattr(fluent, "_active_experiment_id", None)
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{path}")
    mlflow.set_tracking_uri(None)  # from the environment: the copy
    return f"sqlite:///{path}"
