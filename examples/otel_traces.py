"""Send sumjudge's traces to an OTLP backend (Jaeger, Phoenix, an OpenTelemetry Collector...).

    pip install 'sumjudge[otel]' opentelemetry-sdk opentelemetry-exporter-otlp-proto-http
    python examples/otel_traces.py      # OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318

One trace per evaluation: the ``evaluate summarization-scorer`` span, with a ``chat ...`` child per
judge call. See docs/integrations.md.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

from sumjudge import create_summarization_scorer, run_evals_sync

endpoint = os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4318").rstrip("/")
provider = TracerProvider(resource=Resource.create({"service.name": "sumjudge-example"}))
provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=f"{endpoint}/v1/traces")))
trace.set_tracer_provider(provider)

rows = [json.loads(line) for line in (Path(__file__).parent / "summaries.jsonl").read_text().splitlines() if line.strip()]
scorer = create_summarization_scorer(model=os.environ.get("SUMJUDGE_MODEL", "offline/lexical"))
result = run_evals_sync([{"id": r["id"], "input": r["source"], "output": r["summary"]} for r in rows], [scorer])
provider.shutdown()  # flush the spans before exiting
print(f"{result.summary.total_items} evaluations traced to {endpoint}; mean score {result.scores[scorer.id]:.2f}")
