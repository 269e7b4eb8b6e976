"""The probe's table: detection needs a lower score and a lower expected axis, Wilson intervals,
McNemar's exact test, gates."""

from __future__ import annotations

from pathlib import Path

import pytest

from sumjudge.analysis.probe.selection import ProbePlan
from sumjudge.analysis.probe.table import mcnemar_exact, paired_kinds, probe_table, wilson
from sumjudge.analysis.probe.variants import ProbeRow, Variant
from sumjudge.store.records import FailedItem, ScoredItem, Verdicts
from sumjudge.summarization.verdicts import AlignmentVerdict


def scored(item_id: str, score: float, alignment: float, coverage: float, unsupported: tuple[str, ...] = ()) -> ScoredItem:
    claims = [AlignmentVerdict(claim=c, reason="r", supported=False) for c in unsupported]
    return ScoredItem(id=item_id, score=score, alignment_score=alignment, coverage_score=coverage, reason="",
                      verdicts=Verdicts(alignment=claims, questions=[], coverage=[]))


def test_wilson_matches_the_textbook_values():
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(8, 10)
    assert (low, high) == (pytest.approx(0.4902, abs=1e-4), pytest.approx(0.9433, abs=1e-4))
    assert wilson(0, 0) == (None, None)


def test_mcnemar_exact_is_a_binomial_test_on_the_discordant_pairs():
    assert mcnemar_exact(0, 6) == pytest.approx(2 / 64)
    assert mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(1, 9) == pytest.approx(2 * 11 / 1024)


ROW = ProbeRow(id="r", source="s", summary="Tom won. Ann lost.")


def variant(kind: str, axis: str, text: str = "Tom won. Ann won.") -> Variant:
    return Variant(row_id="r", kind=kind, axis=axis, summary=text, original_span=(13, 17), variant_span=(13, 16),
                   change="x")  # type: ignore[arg-type]


def test_detected_needs_the_score_and_the_expected_axis_lower_and_failures_are_left_out():
    plan = ProbePlan(seed=0, kinds=["number", "dropped_fact", "antonym", "negation", "reorder"], per_kind=None,
                     applicable={"number": 1, "dropped_fact": 1, "antonym": 1, "negation": 1, "reorder": 1},
                     originals=[ROW], variants=[variant("number", "alignment"), variant("dropped_fact", "coverage"),
                                                variant("antonym", "alignment"), variant("negation", "alignment"),
                                                variant("reorder", "control")])
    outcomes = {
        "r": scored("r", 0.8, 1.0, 0.8),
        "r/number/0": scored("r/number/0", 0.5, 0.5, 0.8, unsupported=("Ann won",)),  # caught, in the right sentence
        "r/dropped_fact/0": scored("r/dropped_fact/0", 0.5, 0.5, 0.8),  # lower, but on the wrong axis
        "r/antonym/0": scored("r/antonym/0", 0.8, 0.9, 0.8),  # alignment lower, score not (coverage is lower)
        "r/negation/0": FailedItem(id="r/negation/0", error="boom"),
        "r/reorder/0": scored("r/reorder/0", 0.7, 1.0, 0.7),
    }
    table = probe_table(plan, outcomes, {"model": "m"}, min_detection=0.5, max_false_alarm=0.0)
    rows = {k.kind: k for k in table.kinds + table.controls}
    assert (rows["number"].detected, rows["number"].localized) == (1, 1)
    assert rows["dropped_fact"].detected == 0
    assert (rows["antonym"].detected, rows["antonym"].axis_lower) == (0, 1)
    assert (rows["negation"].probes, rows["negation"].failed) == (0, 1)
    assert rows["reorder"].flagged == 1
    # one probe a kind: 1 of 1 and 0 of 1 leave the Wilson interval across 0.5 (inconclusive); a control
    # flagged once fails a bar of 0 (no control may be flagged: a fact about these probes)
    assert [(g.kind, g.outcome) for g in table.gates] == [("number", "inconclusive"), ("dropped_fact", "inconclusive"),
                                                          ("antonym", "inconclusive"), ("reorder", "fail")]
    assert table.passed is False and table.outcome == "fail"
    assert "more probes" in table.gates[0].line
    assert [g.outcome for g in probe_table(plan, outcomes, {"model": "m"}, min_detection=0.5, max_false_alarm=0.0,
                                           on_inconclusive="pass").gates] == ["pass", "pass", "pass", "fail"]
    doc = table.as_json()
    assert "flagged" in doc["controls"][0] and "detected" not in doc["controls"][0]
    assert "detected" in doc["kinds"][0] and "flagged" not in doc["kinds"][0]


def test_paired_kinds_count_what_each_judge_caught_alone():
    plan = ProbePlan(seed=0, kinds=["number"], per_kind=None, applicable={"number": 1}, originals=[ROW],
                     variants=[variant("number", "alignment")])
    a = {"r": scored("r", 1, 1, 1), "r/number/0": scored("r/number/0", 0.5, 0.5, 1)}
    b = {"r": scored("r", 1, 1, 1), "r/number/0": scored("r/number/0", 1, 1, 1)}
    [pk] = paired_kinds(plan, a, b)
    assert (pk.pairs, pk.only_a, pk.only_b, pk.p_value) == (1, 1, 0, 1.0)


def test_the_report_draws_each_rate_and_escapes_what_the_data_and_the_judge_wrote(tmp_path):
    from sumjudge.report.probe_html import write_probe_report

    row = ProbeRow(id="r", source="s", summary="Tom won. <script>alert(1)</script> lost.")
    v = Variant(row_id="r", kind="antonym", axis="alignment", summary="Tom lost. <script>alert(1)</script> lost.",
                original_span=(4, 7), variant_span=(4, 8), change="'won' -> 'lost'")
    plan = ProbePlan(seed=0, kinds=["antonym"], per_kind=None, applicable={"antonym": 1}, originals=[row], variants=[v])
    outcomes = {"r": scored("r", 1, 1, 1), "r/antonym/0": scored("r/antonym/0", 0.5, 0.5, 1, unsupported=("<img src=x>",))}
    table = probe_table(plan, outcomes, {"model": "<judge>", "data": "d"}, min_detection=0.9)
    path = tmp_path / "probe.html"
    write_probe_report(path, plan, [(table, outcomes)])
    page = path.read_text(encoding="utf-8")
    assert "<script>alert" not in page and "<img src=x>" not in page and "&lt;judge&gt;" in page
    assert page.count('class="rate"') == 1 and 'class="gate"' in page
    assert '<del class="change">won</del>' in page and '<ins class="change">lost</ins>' in page
    assert "caught" in page


def test_a_bar_of_every_probe_or_no_control_is_a_fact_about_these_probes():
    plan = ProbePlan(seed=0, kinds=["number", "reorder"], per_kind=None, applicable={"number": 1, "reorder": 1},
                     originals=[ROW], variants=[variant("number", "alignment"), variant("reorder", "control")])
    outcomes = {
        "r": scored("r", 0.8, 1.0, 0.8),
        "r/number/0": scored("r/number/0", 0.5, 0.5, 0.8, unsupported=("Ann won",)),  # caught
        "r/reorder/0": scored("r/reorder/0", 0.8, 1.0, 0.8),  # not flagged
    }
    table = probe_table(plan, outcomes, {"model": "m"}, min_detection=1.0, max_false_alarm=0.0)
    assert [g.outcome for g in table.gates] == ["pass", "pass"]  # one probe can still meet "all" and "none"
    # a bar strictly inside (0, 1) needs the interval: one probe cannot show 0.9
    assert [g.outcome for g in probe_table(plan, outcomes, {"model": "m"}, min_detection=0.9).gates] == ["inconclusive"]
def test_a_gate_line_is_the_comparison_it_makes_in_words():
    """"gate INCONCLUSIVE min-detection number: 1.000 < 0.8" read false; a line now says the
    figure, what it needs and whether that is met."""
    from sumjudge.analysis.probe.table import Gate

    assert Gate(name="min-detection", kind="date", value=0.6, threshold=0.8, passed=False, outcome="fail").line == (
        "min-detection date: detection 0.60, needs >= 0.80: NOT MET")
    assert Gate(name="min-detection", kind="number", value=1.0, threshold=0.8, passed=True).line == (
        "min-detection number: detection 1.00, needs >= 0.80: met")
    assert Gate(name="max-false-alarm", kind="reorder", value=0.25, threshold=0.1, passed=False, outcome="fail").line == (
        "max-false-alarm reorder: false alarms 0.25, needs <= 0.10: NOT MET")
    one = Gate(name="min-detection", kind="number", value=1.0, threshold=0.8, passed=False, outcome="inconclusive",
               low=0.21, high=1.0, settle="more probes would decide it")
    assert one.line == ("min-detection number: detection 1.00 (95% interval 0.21–1.00), needs >= 0.80: cannot tell "
                        "yet, the interval crosses the bar; more probes would decide it")
    assert "<" not in one.line


def test_a_probe_with_no_gate_says_so_and_never_passed(tmp_path):
    from click.testing import CliRunner

    from sumjudge.cli import main

    pairs = str(Path(__file__).resolve().parents[2] / "examples" / "pairs.jsonl")
    done = CliRunner().invoke(main, ["probe", "--pairs", pairs, "--model", "offline/lexical",
                                     "--store", str(tmp_path / "runs.db")])
    assert done.exit_code == 0, done.output
    last = done.output.strip().splitlines()[-1]
    assert last.startswith("no gate set: ") and "of 4 probes detected" in last
    assert "passed" not in done.output.split("━")[-1]


def test_probe_and_agreement_help_list_their_exit_codes_and_every_probe_option_has_a_help_text():
    import click
    from click.testing import CliRunner

    from sumjudge.cli import main

    for command in ("probe", "agreement"):
        shown = CliRunner().invoke(main, [command, "--help"], terminal_width=200).output
        assert "Exit codes:" in shown and "  2    bad input" in shown, command
    probe = main.get_command(None, "probe")
    assert [p.name for p in probe.params if isinstance(p, click.Option) and not p.help] == []
    shown = CliRunner().invoke(main, ["probe", "--help"]).output
    assert "1    a gate failed" in shown
