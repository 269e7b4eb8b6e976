"""The pytest plugin in real pytest sessions (pytester) on generated test files: passing and failing
checks, the failure message, JUnit XML properties, the terminal section, pytest-xdist, the async
form, and LLM judges reached over the bundled judge server by the session's options."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from sumjudge.testing.judge_server import SummarizationBrain

from openai_endpoint import openai_endpoint

SOURCE = (
    "The city council approved 120 new homes on Monday. Construction will start in March. "
    "The mayor, Ana Ruiz, said the homes will be affordable."
)

OFFLINE_TESTS = f"""
from sumjudge.testing import assert_summary

SOURCE = {SOURCE!r}

def test_faithful():
    assert_summary(SOURCE, SOURCE)

def test_faithful_but_short():
    assert_summary(SOURCE, "The city council approved 120 new homes on Monday.", min_alignment=1.0)

def test_invented_number():
    assert_summary(SOURCE, SOURCE.replace("120", "950"), min_score=0.9)
"""


def run(pytester, *args: str, subprocess: bool = False):
    """A pytest session in the generated files' folder (in this process unless ``subprocess``)."""
    quiet = ("-o", "asyncio_default_fixture_loop_scope=function")
    return (pytester.runpytest_subprocess if subprocess else pytester.runpytest)(*quiet, *args)


@pytest.fixture(autouse=True)
def no_model_from_the_environment(monkeypatch):
    monkeypatch.delenv("SUMJUDGE_MODEL", raising=False)


@pytest.fixture
def server(monkeypatch):
    with openai_endpoint(monkeypatch, SummarizationBrain(claims=3, unsupported=1, questions=4, unanswered=1)) as srv:
        yield srv


def properties(junit_file) -> dict[str, dict[str, list[str]]]:
    """Test name -> property name -> values, read from a JUnit XML file."""
    found: dict[str, dict[str, list[str]]] = {}
    for case in ET.parse(junit_file).getroot().iter("testcase"):
        props = found.setdefault(case.get("name"), {})
        for prop in case.iter("property"):
            props.setdefault(prop.get("name"), []).append(prop.get("value"))
    return found


def test_a_faithful_summary_passes_and_an_invented_number_fails_quoting_the_claim(pytester):
    pytester.makepyfile(test_summaries=OFFLINE_TESTS)
    result = run(pytester)
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    failure = out.split("test_invented_number", 1)[1]
    assert "summary failed on score (judge: offline/lexical)" in failure
    assert "score     0.50  <  min_score 0.9" in failure
    assert "alignment 0.67  (no bound)" in failure
    assert "unsupported claims (1 of 3):" in failure
    assert '"The city council approved 950 new homes on Monday."' in failure
    assert "'950' does not occur in the source" in failure
    # another number for the fact contradicts it, so the question is unanswered too
    assert "unanswered questions (1 of 2):" in failure
    assert "the summary contradicts it: it says '950' where the source has '120'" in failure
    # the traceback stops at the test's own call, not inside sumjudge
    assert "sumjudge/integrations" not in failure


def test_junit_xml_carries_score_axes_and_judge_of_each_scored_test(pytester):
    pytester.makepyfile(test_summaries=OFFLINE_TESTS)
    result = run(pytester, "--junitxml=report.xml")
    result.assert_outcomes(passed=2, failed=1)
    props = properties(pytester.path / "report.xml")
    assert props["test_faithful"] == {
        "sumjudge_score": ["1.0"],
        "sumjudge_alignment": ["1.0"],
        "sumjudge_coverage": ["1.0"],
        "sumjudge_judge": ["offline/lexical"],
        "sumjudge_passed": ["True"],
        "sumjudge_scale": ["1.0"],
        "sumjudge_unsupported_claims": ["0"],
    }
    invented = props["test_invented_number"]
    assert invented["sumjudge_score"] == ["0.5"] and invented["sumjudge_passed"] == ["False"]
    assert invented["sumjudge_alignment"] == ["0.6667"] and invented["sumjudge_coverage"] == ["0.5"]
    short = props["test_faithful_but_short"]
    assert short["sumjudge_alignment"] == ["1.0"] and float(short["sumjudge_coverage"][0]) < 1


def test_terminal_section_lists_scored_tests_lowest_first(pytester):
    pytester.makepyfile(test_summaries=OFFLINE_TESTS, test_other="def test_plain():\n    assert True\n")
    result = run(pytester)
    result.assert_outcomes(passed=3, failed=1)
    out = result.stdout.str()
    section = out.split("sumjudge scores", 1)[1].split("short test summary info", 1)[0]
    assert (
        "3 summaries scored by offline/lexical (offline/lexical is the default; name a judge with --sumjudge-model)"
        in section
    )
    rows = [line for line in section.splitlines() if "test_summaries.py::" in line]
    assert [r.split("::")[1] for r in rows] == [
        "test_faithful_but_short",
        "test_invented_number",
        "test_faithful",
    ]
    assert "FAILED" in rows[1] and rows[2].split()[0] == "1.00"
    assert "test_plain" not in section


def test_the_plugin_is_inert_until_a_test_scores_a_summary(pytester):
    pytester.makepyfile("def test_plain():\n    assert 1 + 1 == 2\n")
    result = run(pytester)
    result.assert_outcomes(passed=1)
    assert "sumjudge scores" not in result.stdout.str()
    assert "sumjudge" not in result.stderr.str()


def test_works_under_xdist_with_a_scorer_per_worker(pytester):
    pytester.makepyfile(
        test_summaries=OFFLINE_TESTS,
        test_more=f"""
from sumjudge.testing import assert_summary
SOURCE = {SOURCE!r}

def test_session_scorer_is_shared_within_the_worker(sumjudge_scorer, request):
    assert sumjudge_scorer is request.getfixturevalue("sumjudge_scorer")
    assert_summary(SOURCE, SOURCE, model=sumjudge_scorer)

def test_another():
    assert_summary(SOURCE, SOURCE, min_coverage=1.0)
""",
    )
    result = run(pytester, "-n", "2", "--junitxml=report.xml", subprocess=True)
    result.assert_outcomes(passed=4, failed=1)
    out = result.stdout.str()
    assert "2 workers" in out
    assert "5 summaries scored by offline/lexical" in out
    assert "'950' does not occur in the source" in out
    props = properties(pytester.path / "report.xml")
    assert props["test_another"]["sumjudge_score"] == ["1.0"]
    assert props["test_invented_number"]["sumjudge_passed"] == ["False"]


def test_async_tests_await_the_async_form(pytester):
    pytester.makepyfile(
        f"""
import pytest
from sumjudge.testing import assert_summary, assert_summary_async
SOURCE = {SOURCE!r}

@pytest.mark.asyncio
async def test_async_pass():
    result = await assert_summary_async(SOURCE, SOURCE, min_score=1.0)
    assert result.score == 1.0

@pytest.mark.asyncio
async def test_async_fail():
    await assert_summary_async(SOURCE, "The council approved 950 new homes.", min_alignment=0.5)

@pytest.mark.asyncio
async def test_sync_form_inside_a_running_loop():
    assert_summary(SOURCE, SOURCE)
"""
    )
    result = run(pytester, "-p", "asyncio")
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    assert "alignment 0.00  <  min_alignment 0.5" in out and '"The council approved 950 new homes."' in out
    assert "3 summaries scored" in out


# -- the session's judge: --sumjudge-model, ini, SUMJUDGE_MODEL, over the bundled server --------------

LLM_TESTS = f"""
import pytest
from sumjudge.testing import assert_summary
SOURCE = {SOURCE!r}

def test_one():
    assert_summary(SOURCE, "A summary.", min_score=0.5)

def test_two(sumjudge_scorer):
    assert sumjudge_scorer.judge.model_id == "openai/test-model"
    assert_summary(SOURCE, "Another summary.", min_score=0.9)
"""


def test_an_llm_judge_named_by_the_option_is_reached_over_http(pytester, server):
    pytester.makepyfile(LLM_TESTS)
    result = run(pytester, "--sumjudge-model", "openai/test-model", "--junitxml=report.xml")
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "summary failed on score (judge: openai/test-model)" in out
    assert '"Another summary.": The source does not say this.' in out
    assert '"Does the source state fact 1?": The summary does not say.' in out
    assert "unanswered questions (1 of 4):" in out
    assert "2 summaries scored by openai/test-model, lowest first" in out
    # one scorer for the session: the source's questions were asked once for both tests
    assert len(server.chat_requests(step="questions")) == 1
    assert len(server.chat_requests(step="alignment")) == 2
    assert properties(pytester.path / "report.xml")["test_one"]["sumjudge_judge"] == ["openai/test-model"]


def test_the_ini_setting_and_the_environment_name_the_judge_too(pytester, server, monkeypatch):
    pytester.makepyfile(LLM_TESTS)
    pytester.makeini("[pytest]\nsumjudge_model = openai/test-model\n")
    run(pytester).assert_outcomes(passed=1, failed=1)
    assert server.chat_calls > 0

    pytester.makeini("[pytest]\n")
    monkeypatch.setenv("SUMJUDGE_MODEL", "openai/test-model")
    before = server.chat_calls
    run(pytester).assert_outcomes(passed=1, failed=1)
    assert server.chat_calls > before


def test_the_option_wins_over_the_ini_setting(pytester, server):
    pytester.makepyfile(
        f"from sumjudge.testing import assert_summary\n\ndef test_it():\n    assert_summary({SOURCE!r}, {SOURCE!r})\n"
    )
    pytester.makeini("[pytest]\nsumjudge_model = openai/test-model\n")
    result = run(pytester, "--sumjudge-model", "offline/lexical")
    result.assert_outcomes(passed=1)
    assert server.chat_calls == 0


def test_a_malformed_judge_name_stops_the_session_at_once(pytester):
    pytester.makepyfile("def test_plain():\n    pass\n")
    result = run(pytester, "--sumjudge-model", "nosuchprovider/x")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--sumjudge-model: unknown provider 'nosuchprovider'" in result.stderr.str()


def test_the_plugin_and_the_package_load_without_the_scorer_or_pydantic():
    """pytest loads the plugin in every session of an environment with sumjudge installed: it must
    not import the scorer, the judges or pydantic until a test scores a summary."""
    import subprocess
    import sys

    code = (
        "import sys, sumjudge, sumjudge.integrations.pytest_plugin\n"
        "heavy = sorted(m for m in sys.modules if m.startswith(('pydantic', 'sumjudge.summarization', 'sumjudge.evals',"
        " 'sumjudge.judges.base', 'openai')))\n"
        "print(heavy)\n"
        "sumjudge.create_summarization_scorer  # the public names still resolve, on first use\n"
        "print('pydantic' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "[]", out[0]
    assert out[1] == "True"


def test_on_inconclusive_is_the_session_s_choice_by_option_or_ini(pytester):
    pytester.makepyfile(test_scope="""
from sumjudge.integrations.scopes import current_scope

def test_choice(request):
    wanted = request.config.getoption("sumjudge_on_inconclusive") or "inconclusive"
    assert current_scope().on_inconclusive == wanted
""")
    run(pytester).assert_outcomes(passed=1)
    run(pytester, "--sumjudge-on-inconclusive", "fail").assert_outcomes(passed=1)
    pytester.makeini("[pytest]\nsumjudge_on_inconclusive = pass\n")
    pytester.makepyfile(test_ini="""
from sumjudge.integrations.scopes import current_scope

def test_ini():
    assert current_scope().on_inconclusive == "pass"
""")
    run(pytester, "test_ini.py").assert_outcomes(passed=1)
    pytester.makeini("[pytest]\nsumjudge_on_inconclusive = maybe\n")
    assert "sumjudge_on_inconclusive takes inconclusive, pass or fail" in run(pytester).stderr.str()


EXPECTED_OUTCOMES = f"""
import pytest
from sumjudge.testing import assert_summary

SOURCE = {SOURCE!r}

def test_expects_the_check_to_fail():
    with pytest.raises(AssertionError):
        assert_summary(SOURCE, "The council rejected 900 homes.", min_score=0.9)

def test_fails_after_a_passing_check():
    assert_summary(SOURCE, SOURCE)
    assert False, "something else"

@pytest.mark.xfail(strict=True)
def test_xfail_on_the_bounds():
    assert_summary(SOURCE, "The council rejected 900 homes.", min_score=0.9)
"""


def test_the_scores_section_labels_each_summary_by_its_tests_outcome(pytester):
    pytester.makepyfile(test_outcomes=EXPECTED_OUTCOMES)
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=1, xfailed=1)
    section = result.stdout.str().split("sumjudge scores", 1)[1].split("short test summary info", 1)[0]
    rows = {line.split("::")[1].split()[0]: line for line in section.splitlines() if "test_outcomes.py::" in line}
    assert "  ok  " in rows["test_expects_the_check_to_fail"] and "FAILED" not in rows["test_expects_the_check_to_fail"]
    assert "(its check failed its bounds, as the test expected)" in rows["test_expects_the_check_to_fail"]
    assert "FAILED" in rows["test_fails_after_a_passing_check"]
    assert "(its check met its bounds; the test failed otherwise)" in rows["test_fails_after_a_passing_check"]
    assert "xfail" in rows["test_xfail_on_the_bounds"] and "(the check" not in rows["test_xfail_on_the_bounds"]
