"""Send sumjudge's traces to an OTLP backend (Jaeger, Phoenix, an OpenTelemetry Collector...).

    pip install 'sumjudge[otel]' opentelemetry-sdk opentelemetry-exporter-otlp-proto-http
    python examples/otel_traces.py      # OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318

One trace per evaluation: the ``evaluate summarization-scorer`` span, with a ``chat ...`` child per
judge call. See docs/integrations.md.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

from sumjudge import create_summarization_scorer, run_evals_sync


class CountedExporter(SpanExporter):
    """The OTLP exporter, counting the spans it delivered and those it could not (and why)."""

    def __init__(self, inner: SpanExporter) -> None:
        self.inner, self.sent, self.lost, self.why = inner, 0, 0, ""

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        try:
            result = self.inner.export(spans)
        except Exception as exc:  # a refused connection, say: the processor would only log it
            result, self.why = SpanExportResult.FAILURE, f"{type(exc).__name__}: {exc}"
        if result is SpanExportResult.SUCCESS:
            self.sent += len(spans)
        else:
            self.lost += len(spans)
        return result

    def shutdown(self) -> None:
        self.inner.shutdown()


endpoint = os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4318").rstrip("/")
exporter = CountedExporter(OTLPSpanExporter(endpoint=f"{endpoint}/v1/traces"))
provider = TracerProvider(resource=Resource.create({"service.name": "sumjudge-example"}))
provider.add_span_processor(BatchSpanProcessor(exporter))
trace.set_tracer_provider(provider)

rows = [json.loads(line) for line in (Path(__file__).parent / "summaries.jsonl").read_text().splitlines() if line.strip()]
scorer = create_summarization_scorer(model=os.environ.get("SUMJUDGE_MODEL", "offline/lexical"))
result = run_evals_sync([{"id": r["id"], "input": r["source"], "output": r["summary"]} for r in rows], [scorer])
provider.shutdown()  # flush the spans before exiting
scored = f"{result.summary.total_items} evaluations scored, mean score {result.scores[scorer.id]:.2f}"
if exporter.lost or not exporter.sent:
    why = f" ({exporter.why})" if exporter.why else ""
    print(f"{scored}; their traces were NOT exported: {exporter.lost} of {exporter.lost + exporter.sent} spans "
          f"could not be sent to {endpoint}/v1/traces{why}. Is an OTLP collector listening there? "
          "Set OTEL_EXPORTER_OTLP_ENDPOINT to its address.", file=sys.stderr)
    sys.exit(1)
print(f"{scored}; {exporter.sent} spans traced to {endpoint}")
