"""Hostile use, over real HTTP on 127.0.0.1: a judge that writes a
verdict's ``probability`` itself (5.0, -3.0, NaN), that sends log-probabilities that are none (+1000, +inf,
positive figures), or that sets the fields only the scorer sets (``evidence`` spans, ``unchecked``). Each
is ignored where the verdict is parsed, so no score leaves [0, scale], no NaN reaches the run store or
an export, and asking for log-probabilities never fails a run."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from sumjudge import create_summarization_scorer
from sumjudge.judges.base import ModelConfig, TokenLogprob
from sumjudge.judges.registry import resolve_judge
from sumjudge.judges.structured import parse_output
from sumjudge.summarization.probabilities import verdict_probabilities
from sumjudge.summarization.verdicts import AlignmentOutput, AlignmentVerdict, CoverageVerdict
from sumjudge.testing.brains import SummarizationBrain
from sumjudge.testing.judge_server import JudgeServer
from sumjudge.testing.logprobs import logprobs_payload

from cli_invoke import invoke

pytestmark = pytest.mark.integration

SOURCE = "The council approved 120 homes on Tuesday. Building starts in May."
SUMMARY = "The council approved 120 homes."


def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"id": "a", "source": SOURCE, "summary": SUMMARY}) + "\n")
    return path


def dressed(**fields: Any) -> Any:
    """A brain whose every verdict carries ``fields`` (what only the scorer or the judge object sets;
    ``evidence`` on claims only, the one verdict that has it)."""
    brain = SummarizationBrain(claims=2, questions=2)

    def answer(request: Any) -> Any:
        reply = brain(request)
        for name in ("alignment", "coverage"):
            for verdict in reply.get(name, []):
                verdict.update({k: v for k, v in fields.items() if k != "evidence" or name == "alignment"})
        return reply

    return answer


def score_run(tmp_path: Path, server: JudgeServer, *extra: str) -> tuple[int, str]:
    return invoke("score", str(data_file(tmp_path)), "--model", "vllm/test-model", "--store", str(tmp_path / "runs.db"),
                  "--out", str(tmp_path / "out.jsonl"), "--timeout", "5", "--quiet", *extra,
                  env={"VLLM_BASE_URL": server.base_url})


def scores(tmp_path: Path) -> dict[str, Any]:
    return json.loads((tmp_path / "out.jsonl").read_text())


# -- point 1 and 2: a probability the judge writes itself ---------------------------------------------


@pytest.mark.parametrize("probability", [5.0, -3.0, math.nan, math.inf])
def test_a_probability_the_judge_writes_is_ignored_and_the_graded_score_stays_in_range(tmp_path: Path,
                                                                                       probability: float) -> None:
    with JudgeServer(dressed(probability=probability)) as server:
        code, text = score_run(tmp_path, server, "--graded", "--min-item-score", "0.5")
    assert code == 0, text
    line = scores(tmp_path)
    assert line["score"] == 1.0  # every verdict counts as its boolean: the judge's figure is not believed
    assert "NaN" not in (tmp_path / "out.jsonl").read_text()
    code, shown = invoke("runs", "show", "latest", "--store", str(tmp_path / "runs.db"))
    assert code == 0 and "damaged" not in shown, shown
    code, exported = invoke("runs", "export", "latest", "--store", str(tmp_path / "runs.db"))
    assert code == 0 and "NaN" not in exported and "Infinity" not in exported
    for row in exported.splitlines():
        json.loads(row, parse_constant=lambda c: pytest.fail(f"{c} in the export"))


def test_a_probability_of_5_cannot_lift_a_wrong_summary_past_the_gate(tmp_path: Path) -> None:
    brain = SummarizationBrain(claims=2, unsupported=2, questions=2, unanswered=2)

    def answer(request: Any) -> Any:
        reply = brain(request)
        for name in ("alignment", "coverage"):
            for verdict in reply.get(name, []):
                verdict["probability"] = 5.0
        return reply

    with JudgeServer(answer) as server:
        code, text = score_run(tmp_path, server, "--graded", "--min-item-score", "0.5")
    assert code == 1, text  # below the gate: 0, not 5.0
    assert scores(tmp_path)["score"] == 0.0


def test_a_verdict_holds_no_probability_outside_0_to_1() -> None:
    for bad in (5.0, -3.0, math.nan, math.inf, -math.inf):
        assert AlignmentVerdict(claim="c", reason="r", supported=True, probability=bad).probability is None
        assert CoverageVerdict(question="q", reason="r", answered=True, probability=bad).probability is None
    assert AlignmentVerdict(claim="c", reason="r", supported=True, probability=0.25).probability == 0.25


# -- point 3: log-probabilities that are none ----------------------------------------------------------


def tok(token: str, logprob: float, *top: tuple[str, float]) -> TokenLogprob:
    return TokenLogprob(token=token, logprob=logprob, top=top)


@pytest.mark.parametrize("figure", [1000.0, math.inf, math.nan, 0.5])
def test_a_log_probability_above_0_or_nan_gives_no_probability_and_no_error(figure: float) -> None:
    tokens = [tok('{"supported":', 0.0), tok("true", figure, ("true", figure), ("false", -1.0)), tok("}", 0.0)]
    assert verdict_probabilities(tokens, "supported", [True]) is None
    # +inf or a positive figure on the other value says nothing either (it gave P 0 to a "true")
    tokens = [tok('{"supported":', 0.0), tok("true", -0.1, ("true", -0.1), ("false", figure)), tok("}", 0.0)]
    assert verdict_probabilities(tokens, "supported", [True]) is None


def test_minus_infinity_is_a_log_probability_of_0() -> None:
    tokens = [tok('{"supported":', 0.0), tok("true", 0.0, ("true", 0.0), ("false", -math.inf)), tok("}", 0.0)]
    assert verdict_probabilities(tokens, "supported", [True]) == [1.0]


def _broken_logprobs(figure: float) -> Any:
    def payload(body: dict[str, Any], text: str) -> dict[str, Any] | None:
        if not body.get("logprobs"):
            return None
        made = logprobs_payload(text, 0.9, int(body.get("top_logprobs") or 0))
        for entry in made["content"]:
            if entry["token"] in ("true", "false"):
                entry["logprob"] = figure
                for alt in entry["top_logprobs"]:
                    alt["logprob"] = figure
        return made

    return payload


@pytest.mark.parametrize("figure", [1000.0, math.inf, 3.0])
async def test_log_probabilities_of_plus_1000_or_inf_never_fail_an_item(figure: float) -> None:
    with JudgeServer(SummarizationBrain(claims=2, questions=2)) as server:
        server._logprobs = _broken_logprobs(figure)  # type: ignore[method-assign]
        judge = resolve_judge(ModelConfig(id="vllm/test-model", base_url=server.base_url, api_key="t", max_retries=0))
        scorer = create_summarization_scorer(model=judge, options={"max_questions": 2, "graded": True})
        result = await scorer.run(input=SOURCE, output=SUMMARY)
        assert any(r.body.get("logprobs") for r in server.chat_requests())  # they were asked for
    assert result.score == 1.0
    verdicts = [*result.preprocess_step_result.alignment, *result.analyze_step_result.coverage]
    assert all(v.probability is None for v in verdicts)


def test_log_probabilities_of_plus_1000_leave_a_cli_run_whole(tmp_path: Path) -> None:
    with JudgeServer(SummarizationBrain(claims=2, questions=2)) as server:
        server._logprobs = _broken_logprobs(1000.0)  # type: ignore[method-assign]
        code, text = score_run(tmp_path, server, "--graded")
    assert code == 0, text
    assert scores(tmp_path)["score"] == 1.0 and scores(tmp_path).get("error") is None


# -- point 4: the fields only the scorer sets ----------------------------------------------------------


def test_evidence_spans_and_unchecked_sent_by_the_judge_are_dropped(tmp_path: Path) -> None:
    fields = {"evidence": [{"start": -100, "end": 10**12}, {"start": 50, "end": 3}], "unchecked": True,
              "quote_offsets": [0, 5], "verified": True}
    with JudgeServer(dressed(**fields)) as server:
        code, text = score_run(tmp_path, server)
    assert code == 0, text
    line = scores(tmp_path)
    claims = line["verdicts"]["alignment"]
    assert claims and all("evidence" not in c and not c.get("unchecked") for c in claims)
    assert all(c.get("quote_offsets") is None for c in claims)  # the scorer's own check: no quote, none found
    code, shown = invoke("runs", "show", "latest", "--store", str(tmp_path / "runs.db"))
    assert "0% (0 of 2)" in next(line for line in shown.splitlines() if "unchecked claims" in line), shown


def test_the_parse_boundary_drops_every_field_the_schema_does_not_ask_for() -> None:
    reply = {"alignment": [{"claim": "c", "quote": "", "reason": "r", "supported": True, "probability": 0.7,
                            "evidence": [{"start": 0, "end": 4}], "unchecked": True, "verified": True,
                            "quote_offsets": [1, 2]}]}
    parsed = parse_output(json.dumps(reply), AlignmentOutput).alignment[0]
    assert (parsed.probability, parsed.evidence, parsed.unchecked, parsed.verified, parsed.quote_offsets) == (
        None, None, False, None, None)
    with pytest.raises(ValueError, match="Extra inputs"):  # a key no field has is still refused (and re-asked)
        parse_output(json.dumps({"alignment": [{"claim": "c", "reason": "r", "supported": True, "x": 1}]}),
                     AlignmentOutput)
