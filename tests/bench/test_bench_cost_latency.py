"""The cost/latency benchmark's own parts: the sized brain behind the simulated server, the
critical-path count, and the guard that keeps benchmark processes off the network.

These are what the figures in docs/results.md rest on: if the brain's replies did not
validate, or did not follow its sizing rule, or the round count were wrong, the published
comparison with DeepEval would be wrong too.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel

BENCH = Path(__file__).resolve().parents[2] / "bench" / "peers"  # cost_latency.py, offline_guard.py
sys.path[:0] = [str(BENCH), str(BENCH.parent / "common")]  # sim_brain.py

from cost_latency import rounds  # noqa: E402
from sim_brain import SizedBrain, facts, step_of_schema  # noqa: E402

from sumjudge import ModelConfig, create_summarization_scorer  # noqa: E402
from sumjudge.testing.judge_server import JudgeServer  # noqa: E402

SOURCE = (
    "The council approved the new bridge on Monday . Construction starts in May . "
    "It will cost 40 million euros . The mayor called it a turning point . "
    "Opponents said the money should go to schools ."
)
SUMMARY = "The council approved a bridge costing 40 million euros . Work begins in May ."


@pytest.mark.integration
async def test_sumjudge_steps_against_the_sized_brain_validate_and_follow_the_sizing_rule() -> None:
    brain = SizedBrain(questions=3)
    brain.register(SOURCE, SUMMARY)
    with JudgeServer(brain) as server:
        scorer = create_summarization_scorer(
            ModelConfig(id="openai/bench-model", base_url=server.base_url, api_key="sk-test"), {"max_questions": 3}
        )
        result = await scorer.run(input=SOURCE, output=SUMMARY)
        steps = [r.step for r in server.chat_requests()]
    assert sorted(steps) == ["alignment", "coverage", "questions"]
    assert len(result.preprocess_step_result.alignment) == facts(SUMMARY) == 2
    assert len(result.preprocess_step_result.questions) == 3  # min(max_questions, 5 source sentences)
    assert [v.answered for v in result.analyze_step_result.coverage] == [True, True, True]
    assert result.score == 1.0
    assert result.usage.calls == 3 and result.usage.completion_tokens > 0


# DeepEval's SummarizationMetric schemas (deepeval 4.3.1, metrics/summarization/schema.py and
# metrics/faithfulness/schema.py), copied so that this test runs without DeepEval installed.
class Truths(BaseModel):
    truths: list[str]


class Claims(BaseModel):
    claims: list[str]


class Verdict(BaseModel):
    verdict: Literal["yes", "no", "idk"]
    reason: str | None = None


class Verdicts(BaseModel):
    verdicts: list[Verdict]


class Questions(BaseModel):
    questions: list[str]


class Answers(BaseModel):
    answers: list[str]


class Reason(BaseModel):
    reason: str


def _ask(brain: SizedBrain, model: type[BaseModel], prompt: str) -> BaseModel:
    schema = model.model_json_schema()
    return model.model_validate(brain.answer(step_of_schema(schema), schema, prompt))


def test_deepeval_shaped_schemas_get_valid_replies_sized_by_the_same_rule() -> None:
    brain = SizedBrain(questions=4)
    brain.register(SOURCE, SUMMARY)
    truths = _ask(brain, Truths, f"Extract every truth.\nText:\n{SOURCE}\nJSON:")
    claims = _ask(brain, Claims, f"Extract every claim.\nAI Output:\n{SUMMARY}\nJSON:")
    assert len(truths.truths) == facts(SOURCE) == 5  # type: ignore[attr-defined]
    assert len(claims.claims) == facts(SUMMARY) == 2  # type: ignore[attr-defined]
    verdicts = _ask(brain, Verdicts, f"Original Text:\n{truths}\nSummary Claims:\n{claims.claims}\nJSON:")  # type: ignore[attr-defined]
    assert [v.verdict for v in verdicts.verdicts] == ["yes", "yes"]  # type: ignore[attr-defined]
    assert all(v.reason is None for v in verdicts.verdicts)  # its prompt asks reasons for 'no'/'borderline' only
    questions = _ask(brain, Questions, f"Generate 4 questions.\nText:\n{SOURCE}\nJSON:")
    assert len(questions.questions) == 4  # type: ignore[attr-defined]
    answers = _ask(brain, Answers, f"Text:\n{SUMMARY}\nQuestions:\n{questions.questions}\nJSON:")  # type: ignore[attr-defined]
    assert answers.answers == ["yes"] * 4  # type: ignore[attr-defined]
    assert len(_ask(brain, Reason, "Give a reason.").reason.split()) == brain.summary_reason_words  # type: ignore[attr-defined]


def test_an_extractive_summary_is_told_apart_from_the_source_that_contains_it() -> None:
    lead = "The council approved the new bridge on Monday . Construction starts in May ."
    brain = SizedBrain()
    brain.register(SOURCE, lead)
    brain.register(SOURCE, SUMMARY)
    prompt = f"SOURCE:\n{SOURCE}\nSUMMARY:\n{lead}\n"
    assert brain.summary_in(prompt) == lead
    assert brain.source_in(prompt) == SOURCE


def test_rounds_is_the_longest_chain_of_requests_that_waited_for_one_another() -> None:
    # sumjudge uncached: A and B at once, C after them -> 2; DeepEval: 2, then 1 + 2 in a chain, then 1 -> 4
    assert rounds([0.0, 0.01, 1.02], [[0.0, 2.0]], latency=1.0) == [2]
    deepeval = [0.0, 0.0, 1.01, 1.01, 2.02, 2.03, 3.05]
    assert rounds(deepeval, [[0.0, 4.0]], latency=1.0) == [4]
    # two evaluations one after the other are counted apart
    assert rounds([0.0, 1.01, 5.0, 5.0], [[0.0, 2.1], [5.0, 6.1]], latency=1.0) == [2, 1]


def test_the_offline_guard_refuses_the_network_but_not_loopback() -> None:
    code = textwrap.dedent(
        f"""
        import socket, sys
        sys.path.insert(0, {str(BENCH)!r})
        import offline_guard
        offline_guard.install()
        try:
            socket.create_connection(("pypi.org", 443), timeout=1)
            print("reached by name")
        except PermissionError:
            pass
        raw = socket.socket()
        raw.settimeout(1)
        try:
            raw.connect(("93.184.216.34", 80))
            print("reached by address")
        except PermissionError:
            pass
        raw.close()
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        socket.create_connection(listener.getsockname(), timeout=1).close()
        print("loopback ok", offline_guard.blocked())
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "reached" not in out.stdout
    assert "loopback ok ['lookup pypi.org', 'connect 93.184.216.34:80']" in out.stdout
