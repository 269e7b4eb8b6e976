"""Shared by the provider batch tests: a data set, a judge brain that answers by the texts it reads,
and the results of a run without the fields that differ between two runs (ids, usage)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from sumjudge.testing.brains import SummarizationBrain
from sumjudge.testing.recorded import RecordedRequest, content_text

_FENCE = re.compile(r"[0-9a-f]{16,64}")


class TextBrain:
    """The summarization brain, with each verdict decided by the texts of the request (fence tokens
    left out): deterministic, different from item to item, and the same in every process."""

    def __init__(self) -> None:
        self.inner = SummarizationBrain(claims=3, questions=4)

    def __call__(self, request: RecordedRequest) -> Any:
        answer = self.inner(request)
        step = request.step or ""
        name = {"alignment": "supported", "coverage": "answered"}.get(step)
        if name is None:
            return answer
        first = []  # the request as first asked: a re-ask (after an assistant turn) is answered alike
        for m in request.messages:
            if m.get("role") == "assistant":
                break
            first.append(content_text(m.get("content")))
        digest = hashlib.sha256(_FENCE.sub("", "\n".join(first)).encode()).digest()
        for i, verdict in enumerate(answer[step]):
            verdict[name] = bool(digest[i] % 3)
        return answer


def write_data(path: Path, n: int, *, sources: int | None = None) -> Path:
    """``n`` rows; ``sources`` distinct sources (default: one per row)."""
    sources = sources or n
    rows = [
        {"id": f"doc-{i:03d}", "source": f"ITEM-{i % sources:03d} The bridge opened in {1900 + i % sources}. "
         f"It cost {i % sources + 1} million dollars.", "summary": f"ITEM-{i:03d} The bridge opened in {1900 + i}."}
        for i in range(n)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def results(out: Path) -> list[dict[str, Any]]:
    """Each item's id, scores and verdicts, in input order."""
    keep = ("id", "score", "alignment_score", "coverage_score", "verdicts", "error")
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return [{k: line.get(k) for k in keep} for line in lines]
