"""`max_unsupported` and the axis floors where a library decides pass or fail: `assert_summary`, the pytest
plugin, `run_evals` and the framework adapters. An invented claim whose score ties its faithful twin's
(coverage is the lower axis) fails each of them."""

from __future__ import annotations

import pytest
from scripted import answers, judge, questions, sentence_claims

from sumjudge import create_summarization_scorer, run_evals_sync
from sumjudge.errors import ConfigurationError
from sumjudge.summarization.item_gates import ItemGates
from sumjudge.testing import assert_summary

SOURCE = "The bridge opened in 1932. It cost 4 million dollars. Ada Lind designed it."
FAITHFUL = "The bridge opened in 1932."
INVENTED = "The bridge opened in 1932. It was painted red."


def coverage_low_judge():
    """Claims split at full stops, "red" unsupported; two questions, one answered (coverage 0.5)."""
    return judge(sentence_claims("red"), questions("Did the bridge open in 1932?", "Did Ada Lind design it?"),
                 answers(True, False))


def test_assert_summary_max_unsupported_fails_what_min_score_passes() -> None:
    model = create_summarization_scorer(coverage_low_judge())
    assert assert_summary(SOURCE, INVENTED, min_score=0.5, model=model).score == 0.5
    with pytest.raises(AssertionError) as err:
        assert_summary(SOURCE, INVENTED, min_score=0.5, max_unsupported=0, model=model)
    message = str(err.value)
    assert message.splitlines()[0] == "summary failed on unsupported (judge: scripted/judge)"
    assert "  unsupported 1   >  max_unsupported 0" in message and '"It was painted red."' in message
    assert assert_summary(SOURCE, FAITHFUL, max_unsupported=0, model=model).unsupported_claims == 0
    with pytest.raises(ConfigurationError, match="max_unsupported"):
        assert_summary(SOURCE, FAITHFUL, max_unsupported=-1, model=model)


PLUGIN_TESTS = f"""
from scripted import answers, judge, questions, sentence_claims
from sumjudge import create_summarization_scorer
from sumjudge.testing import assert_summary

MODEL = create_summarization_scorer(judge(sentence_claims("red"), questions("Q1?", "Q2?"), answers(True, False)))

def test_invented():
    assert_summary({SOURCE!r}, {INVENTED!r}, model=MODEL)

def test_faithful():
    assert_summary({SOURCE!r}, {FAITHFUL!r}, model=MODEL)
"""


def test_the_plugin_option_sets_max_unsupported_for_the_session(pytester: pytest.Pytester) -> None:
    import scripted

    pytester.makepyfile(test_gates=PLUGIN_TESTS)
    pytester.syspathinsert(scripted.__file__.rsplit("/", 1)[0])
    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=2)
    result = pytester.runpytest("-p", "no:randomly", "--sumjudge-max-unsupported", "0")
    result.assert_outcomes(passed=1, failed=1)
    assert "max_unsupported 0" in result.stdout.str()
    assert "unsupported 1" in result.stdout.str()  # the terminal section shows the count
    bad = pytester.runpytest("--sumjudge-max-unsupported", "many")
    assert "max_unsupported takes a whole number" in bad.stderr.str()


def test_run_evals_counts_the_items_that_broke_each_gate() -> None:
    scorer = create_summarization_scorer(coverage_low_judge())
    data = [{"input": SOURCE, "output": FAITHFUL}, {"input": SOURCE, "output": INVENTED}]
    plain = run_evals_sync(data, [scorer])
    assert plain.summary.gate_breaks == {} and plain.summary.gates_passed
    gated = run_evals_sync(data, [scorer], gates=ItemGates(max_unsupported=0, min_coverage=0.5))
    assert gated.summary.gate_breaks == {"max_unsupported": 1, "min_coverage": 0}
    assert not gated.summary.gates_passed
    assert gated.items[0].gate_failures == {}
    assert "It was painted red." in gated.items[1].gate_failures[scorer.id][0]


def test_deepeval_metric_success_needs_the_gates() -> None:
    pytest.importorskip("deepeval")
    from deepeval.test_case import LLMTestCase

    from sumjudge.integrations.deepeval import SumjudgeSummarizationMetric

    case = LLMTestCase(input=SOURCE, actual_output=INVENTED)
    plain = SumjudgeSummarizationMetric(threshold=0.5, model=coverage_low_judge())
    plain.measure(case)
    assert plain.success
    gated = SumjudgeSummarizationMetric(threshold=0.5, model=coverage_low_judge(), max_unsupported=0)
    gated.measure(case)
    assert not gated.success and "painted red" in gated.reason


def test_pydantic_evals_adds_a_gates_assertion() -> None:
    pytest.importorskip("pydantic_evals")
    from pydantic_evals.evaluators import EvaluatorContext

    from sumjudge.integrations.pydantic_evals import summarization_evaluator

    evaluator = summarization_evaluator(coverage_low_judge(), max_unsupported=0)
    ctx = EvaluatorContext(name="c", inputs=SOURCE, metadata=None, expected_output=None, output=INVENTED,
                           duration=0.0, _span_tree=None, attributes={}, metrics={})
    import asyncio

    found = asyncio.run(evaluator.evaluate(ctx))
    assert found["sumjudge_gates"].value is False and "painted red" in found["sumjudge_gates"].reason


CALIBRATED_TESTS = """
from sumjudge.testing import assert_summary

SOURCE = "The council approved 120 homes on Monday. Construction starts in March."

def test_short_summary():
    assert_summary(SOURCE, "The council approved 120 homes.", min_score=0.01)
"""


def test_the_plugin_option_applies_a_calibration_to_every_check(pytester: pytest.Pytester) -> None:
    from sumjudge.summarization.calibration import Calibration

    pytester.makepyfile(test_cal=CALIBRATED_TESTS)
    other = Calibration(judge="openai/gpt-4o-mini", labels_digest="sha256:x", labels=50)
    (pytester.path / "cal.json").write_text(other.text(), encoding="utf-8")
    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=1)
    result = pytester.runpytest("-p", "no:randomly", "--sumjudge-calibration", "cal.json")
    result.assert_outcomes(failed=1)  # fitted for another judge: refused, never silently ignored
    assert "fitted for the judge 'openai/gpt-4o-mini'" in result.stdout.str()
