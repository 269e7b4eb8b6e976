"""OpenTelemetry: one trace per evaluation with the judge calls as children, GenAI attributes, no-op without it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from scripted import answers, claims, judge, questions

from sumjudge import ModelConfig, create_summarization_scorer, run_evals_sync
from sumjudge.errors import JudgeRequestError
from sumjudge.testing.judge_server import Fault, JudgeServer

trace = pytest.importorskip("opentelemetry.trace")
sdk_trace = pytest.importorskip("opentelemetry.sdk.trace")
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402
from opentelemetry.util._once import Once  # noqa: E402


@pytest.fixture
def spans() -> Any:
    """A global SDK tracer provider exporting to memory for this test (OpenTelemetry's own tests reset it so)."""
    exporter = InMemorySpanExporter()
    provider = sdk_trace.TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    saved = trace._TRACER_PROVIDER, trace._TRACER_PROVIDER_SET_ONCE
    trace._TRACER_PROVIDER, trace._TRACER_PROVIDER_SET_ONCE = None, Once()
    trace.set_tracer_provider(provider)
    try:
        yield exporter
    finally:
        provider.shutdown()
        trace._TRACER_PROVIDER, trace._TRACER_PROVIDER_SET_ONCE = saved


def scripted_scorer(**kw: Any):
    return create_summarization_scorer(
        model=judge(claims(("the summary", True), ("summary", False)), questions("Q1?", "Q2?"), answers(True, True)), **kw
    )


def by_name(exporter: InMemorySpanExporter) -> tuple[list[Any], list[Any]]:
    finished = exporter.get_finished_spans()
    return [s for s in finished if s.name.startswith("evaluate ")], [s for s in finished if s.name.startswith("chat ")]


def test_one_evaluation_is_one_trace_with_the_judge_calls_as_children(spans: InMemorySpanExporter) -> None:
    result = scripted_scorer().run_sync(input="the source", output="the summary")
    (evaluation,), calls = by_name(spans)

    assert sorted(c.attributes["sumjudge.step"] for c in calls) == ["alignment", "coverage", "questions"]
    for call in calls:
        assert call.context.trace_id == evaluation.context.trace_id
        assert call.parent.span_id == evaluation.context.span_id
        assert call.kind == trace.SpanKind.CLIENT
        assert call.name == "chat judge"
        assert call.attributes["gen_ai.operation.name"] == "chat"
        assert call.attributes["gen_ai.request.model"] == "judge"
        assert call.attributes["gen_ai.provider.name"] == "scripted"
        assert call.attributes["gen_ai.usage.input_tokens"] == 10
        assert call.attributes["gen_ai.usage.output_tokens"] == 5
    a = evaluation.attributes
    assert evaluation.name == "evaluate summarization-scorer" and evaluation.parent is None
    assert a["gen_ai.evaluation.name"] == "summarization-scorer" and a["gen_ai.request.model"] == "judge"
    assert a["gen_ai.evaluation.score.value"] == result.score == 0.5
    assert a["sumjudge.alignment_score"] == 0.5 and a["sumjudge.coverage_score"] == 1.0
    assert a["sumjudge.claims"] == 2 and a["sumjudge.supported_claims"] == 1
    assert a["sumjudge.questions"] == 2 and a["sumjudge.answered_questions"] == 2
    assert a["sumjudge.judge_calls"] == 3
    assert a["gen_ai.usage.input_tokens"] == 30 and a["gen_ai.usage.output_tokens"] == 15
    assert a["sumjudge.run_id"] == result.run_id
    (event,) = evaluation.events
    assert event.name == "gen_ai.evaluation.result"
    assert event.attributes["gen_ai.evaluation.score.value"] == 0.5
    assert event.attributes["gen_ai.evaluation.explanation"] == result.reason


def test_concurrent_evaluations_keep_their_own_traces(spans: InMemorySpanExporter) -> None:
    scorer = scripted_scorer()
    data = [{"input": "same source", "output": f"summary {i}"} for i in range(4)]
    run_evals_sync(data, [scorer], concurrency=4)
    evaluations, calls = by_name(spans)
    assert len(evaluations) == 4 and len({e.context.trace_id for e in evaluations}) == 4
    parents = {e.context.span_id: e for e in evaluations}
    for call in calls:
        assert call.parent.span_id in parents
        assert call.context.trace_id == parents[call.parent.span_id].context.trace_id
    # the questions of the shared source were asked once: 4 alignment + 1 questions + 4 coverage calls
    assert len(calls) == 9
    assert sum(c.attributes["sumjudge.step"] == "questions" for c in calls) == 1


def test_openai_compatible_judge_over_http_reports_model_server_and_token_usage(spans: InMemorySpanExporter) -> None:
    with JudgeServer() as server:
        config = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="x", temperature=0.0)
        create_summarization_scorer(model=config).run_sync(input="A source with facts.", output="A summary.")
        usage = dict(server.usage)
        port = server.port
    (evaluation,), calls = by_name(spans)
    assert len(calls) == 3
    for call in calls:
        assert call.name == "chat test-model"
        assert call.attributes["gen_ai.provider.name"] == "openai"
        assert call.attributes["server.address"] == "127.0.0.1" and call.attributes["server.port"] == port
        assert call.attributes["gen_ai.request.temperature"] == 0.0
    assert sum(c.attributes["gen_ai.usage.input_tokens"] for c in calls) == usage["prompt_tokens"]
    assert sum(c.attributes["gen_ai.usage.output_tokens"] for c in calls) == usage["completion_tokens"]
    assert evaluation.attributes["gen_ai.usage.input_tokens"] == usage["prompt_tokens"]


def test_a_failing_call_marks_its_span_and_the_evaluations_as_errors(spans: InMemorySpanExporter) -> None:
    with JudgeServer() as server:
        server.script(Fault.status(400, "bad request"), step="alignment")
        scorer = create_summarization_scorer(model=ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="x"))
        with pytest.raises(JudgeRequestError):
            scorer.run_sync(input="A source.", output="A summary.")
    (evaluation,), calls = by_name(spans)
    (failed,) = [c for c in calls if c.attributes["sumjudge.step"] == "alignment"]
    assert not failed.status.is_ok and failed.attributes["error.type"] == "JudgeRequestError"
    assert not evaluation.status.is_ok and evaluation.attributes["error.type"] == "JudgeRequestError"


def test_replies_from_the_cache_are_marked_and_cost_no_tokens(spans: InMemorySpanExporter, tmp_path: Path) -> None:
    cache = tmp_path / "cache.db"
    with JudgeServer() as server:
        config = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="x")
        create_summarization_scorer(model=config, cache=cache).run_sync(input="Source.", output="Summary.")
        spans.clear()
        create_summarization_scorer(model=config, cache=cache).run_sync(input="Source.", output="Summary.")
        served = server.chat_calls
    evaluations, calls = by_name(spans)
    assert len(evaluations) == 1 and served == 3  # the second scorer sent nothing
    assert len(calls) == 3 and all(c.attributes["sumjudge.cache_hit"] for c in calls)
    assert all(c.attributes["gen_ai.usage.input_tokens"] == 0 for c in calls)


RUN = """
import sys
{block}
from sumjudge import create_summarization_scorer
scorer = create_summarization_scorer(model="offline/lexical")
result = scorer.run_sync(input="The bridge opened in 1932. It cost 4 million dollars.", output="The bridge opened in 1932.")
print(result.score, type(scorer.judge).__name__, sorted(m for m, v in sys.modules.items() if m.startswith("opentelemetry") and v is not None))
"""

BLOCK_OTEL = 'sys.modules["opentelemetry"] = None  # as if not installed: import fails, find_spec finds nothing'


def _run(block: str) -> list[str]:
    code = textwrap.dedent(RUN.format(block=block))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.strip().split(maxsplit=2)


def test_without_opentelemetry_nothing_changes_and_nothing_is_imported() -> None:
    absent = _run(BLOCK_OTEL)
    installed_unused = _run("")
    assert absent[0] == installed_unused[0]  # same score
    assert absent[1:] == ["LexicalJudge", "[]"]
    # installed but not used by the application: nothing of OpenTelemetry is imported
    assert installed_unused[1:] == ["LexicalJudge", "[]"]


def test_samples_of_one_run_share_its_evaluation_span(spans: InMemorySpanExporter) -> None:
    scorer = create_summarization_scorer(
        model=judge(claims(("the summary", True)), questions("Q1?"), answers(True)), options={"samples": 3}
    )
    scorer.run_sync(input="the source", output="the summary")
    (evaluation,), calls = by_name(spans)
    assert sum(c.attributes["sumjudge.step"] == "alignment" for c in calls) == 3
    assert all(c.parent.span_id == evaluation.context.span_id for c in calls)


_STUB_EXPORTER = '''
"""A stand-in for opentelemetry-exporter-otlp-proto-http: POSTs each batch to the endpoint, as the real one."""
import urllib.request

from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult


class OTLPSpanExporter(SpanExporter):
    def __init__(self, endpoint):
        self.endpoint = endpoint

    def export(self, spans):
        request = urllib.request.Request(self.endpoint, data=b"spans", method="POST")
        with urllib.request.urlopen(request, timeout=10) as reply:  # a refused connection raises, as requests does
            return SpanExportResult.SUCCESS if reply.status == 200 else SpanExportResult.FAILURE

    def shutdown(self):
        pass
'''


def _run_the_example(tmp_path: Path, endpoint: str) -> subprocess.CompletedProcess[str]:
    stub = tmp_path / "stub" / "opentelemetry" / "exporter" / "otlp" / "proto" / "http"
    stub.mkdir(parents=True)
    (stub / "trace_exporter.py").write_text(_STUB_EXPORTER, encoding="utf-8")
    root = Path(__file__).resolve().parents[1]
    import os

    env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "SUMJUDGE_MODEL": "offline/lexical",
           "PYTHONPATH": os.pathsep.join([str(tmp_path / "stub"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, str(root / "examples" / "otel_traces.py")], env=env, capture_output=True,
                          text=True, timeout=300)


def test_the_otel_example_says_its_traces_were_not_exported_when_no_collector_listens(tmp_path: Path) -> None:
    import socket

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, never listening: connections are refused
        done = _run_the_example(tmp_path, f"http://127.0.0.1:{port}")
    assert done.returncode == 1, done.stderr
    assert "traced to" not in done.stdout
    assert "NOT exported" in done.stderr and f"http://127.0.0.1:{port}/v1/traces" in done.stderr


def test_the_otel_example_says_how_many_spans_reached_a_collector(tmp_path: Path) -> None:
    import http.server
    import threading

    class Collector(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        done = _run_the_example(tmp_path, f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
    assert done.returncode == 0, done.stderr
    assert "evaluations scored" in done.stdout and "spans traced to http://127.0.0.1:" in done.stdout
