"""A calibration re-decides what the judge already said: thresholds on probabilities, how the offline
judge's unchecked verdicts count; a file for another judge or a broken file is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted import answers, claims, judge, questions

from sumjudge import create_summarization_scorer
from sumjudge.analysis.calibration_fit import LightItem, Params, share
from sumjudge.errors import ConfigurationError, InputError
from sumjudge.summarization.calibration import Calibration, read_calibration
from sumjudge.summarization.verdicts import AlignmentVerdict, CoverageVerdict

SOURCE = "The bridge opened in 1932. It cost 4 million dollars. Ada Lind designed it."


def _cal(**kw) -> Calibration:
    return Calibration(judge="scripted/judge", labels_digest="sha256:x", labels=50, **kw)


def test_thresholds_re_decide_claims_and_questions_from_their_probabilities() -> None:
    cal = _cal(claim_threshold=0.9, question_threshold=0.7, unsure_margin=0.05)
    claim = AlignmentVerdict(claim="c", reason="r", supported=True, probability=0.85)
    assert cal.claim(claim).supported is False
    assert cal.claim(claim.model_copy(update={"probability": 0.95})).supported is True
    answer = CoverageVerdict(question="q?", reason="r", answered=False, probability=0.72)
    decided = cal.answer(answer)
    assert decided.answered is True and decided.unchecked is True  # within 0.05 of 0.7: unsure
    assert cal.answer(answer.model_copy(update={"probability": 0.9})).unchecked is False


def test_the_offline_judges_unchecked_verdicts_count_as_the_calibration_says() -> None:
    cal = _cal(unchecked_claims="unsupported", unsettled_presence=0.1)
    unchecked = AlignmentVerdict(claim="c", reason="r", supported=True, unchecked=True)
    assert cal.claim(unchecked).supported is False
    unsettled = CoverageVerdict(question="q?", reason="r", answered=False, unchecked=True, probability=0.31)
    assert cal.answer(unsettled).probability == 0.1
    claims_, answers_, changed = cal.redecide([unchecked], [unsettled])
    assert changed == 2


def test_the_fit_scores_an_item_as_the_calibrated_scorer_does() -> None:
    scripted = judge(
        {"alignment": [{"claim": "The bridge opened in 1932.", "supported": True, "reason": "ok"},
                       {"claim": "It was painted red.", "supported": True, "reason": "ok"}]},
        questions("Q1?", "Q2?", "Q3?"), answers(True, False, False))
    plain = create_summarization_scorer(scripted).run_sync(input=SOURCE, output="The bridge opened in 1932. It was painted red.")
    # the scripted verdicts carry no probability: give the fit's light item the same verdicts with some
    item = LightItem("x", ((0.95, False, True, False), (0.6, False, True, False)), ((0.9, False, True), (0.65, False, False), (0.2, False, False)), 3)
    params = Params(claim_threshold=0.7, question_threshold=0.6, unsure_margin=0.1)
    cal = _cal(**params.as_dict())
    claims_ = [v.model_copy(update={"probability": p}) for v, (p, _, _) in zip(plain.preprocess_step_result.alignment, (c[:3] for c in item.claims))]
    answers_ = [v.model_copy(update={"probability": p}) for v, (p, _, _) in zip(plain.analyze_step_result.coverage, item.answers)]
    new_claims, new_answers, _ = cal.redecide(claims_, answers_)
    from sumjudge.summarization.axes import alignment_value, coverage_value

    expected = min(alignment_value(new_claims), coverage_value(new_answers, 3))
    assert share(item, params) == pytest.approx(expected)
    assert expected == pytest.approx(min(1 / 2, (1 + 0.65) / 3))  # the 0.65 answer is unsure: it counts as its P


@pytest.mark.parametrize("rule", ["peer", "contrast", "words"])
def test_a_threshold_does_not_undo_a_rejection_a_judge_s_rule_made(rule: str) -> None:
    # the reader's peer rule rejects a claim whose own P (0.62) clears the threshold; a calibrated
    # threshold re-decides claims by P, and must leave that decision, and the fit must score it the same
    cal = _cal(claim_threshold=0.5)
    ruled = AlignmentVerdict(claim="The mayor resigned.", reason="r", supported=False, probability=0.62, decided_by=rule)
    assert cal.claim(ruled) is ruled
    plain = ruled.model_copy(update={"decided_by": None})
    assert cal.claim(plain).supported is True  # the threshold alone decides a verdict no rule decided
    item = LightItem("x", ((0.9, False, True, False), (0.62, False, False, True)), ((0.9, False, True),), 1)
    assert share(item, Params(claim_threshold=0.5)) == pytest.approx(0.5)
    assert share(item, Params(claim_threshold=0.5), graded=True) == pytest.approx((0.9 + 0.62) / 2)


def test_a_fitted_question_threshold_keeps_the_judge_s_own_doubt() -> None:
    import numpy as np

    from sumjudge.analysis.calibration_fit import fit_params, judge_margin

    # the reader's way: unsure answers within 0.1 of its threshold 0.6; the team passes the items whose
    # first answer (P 0.45, a firm no to the judge) it reads as answered, so the fit lowers the threshold
    def item(n: int, first: float, unsure: float) -> LightItem:
        return LightItem(f"i{n}", ((0.9, False, True, False),),
                         ((first, False, False), (0.9, False, True), (unsure, True, unsure >= 0.6)), 3)

    spread = (0.52, 0.55, 0.58, 0.63, 0.66, 0.69)
    items = [item(n, 0.45 if n % 2 else 0.2, p) for n, p in enumerate(spread * 4)]
    assert judge_margin(items) == 0.1
    assert judge_margin([LightItem("x", (), ((0.2, False, False), (0.9, False, True)), 2)]) == 0.0
    truth = np.array([i.answers[0][0] > 0.3 for i in items])
    params = fit_params(items, truth, "probabilities", False)
    assert params.question_threshold is not None and params.question_threshold < 0.45
    assert params.unsure_margin is not None  # written in the file: not silently 0


def test_a_calibration_for_another_judge_is_refused_before_any_call() -> None:
    scripted = judge(claims(("c", True)), questions("Q?"), answers(True))
    other = Calibration(judge="offline/lexical", labels_digest="sha256:x", labels=50, bound=0.5)
    with pytest.raises(ConfigurationError, match="fitted for the judge 'offline/lexical'"):
        create_summarization_scorer(scripted, {"calibration": other})
    assert scripted.requests == []


@pytest.mark.parametrize("text, message", [
    ("not json", "cannot be read as JSON"),
    ('{"a": 1}', "not a sumjudge calibration file"),
    ('{"format": "sumjudge-calibration", "version": 1, "judge": "j", "labels_digest": "d", "labels": 5, '
     '"claim_threshold": 1.5}', "claim_threshold"),
    ('{"format": "sumjudge-calibration", "version": 9, "judge": "j", "labels_digest": "d", "labels": 5}', "version"),
])
def test_a_broken_calibration_file_is_one_clear_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "cal.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_calibration(path)
    with pytest.raises(InputError, match="no such file"):
        read_calibration(tmp_path / "none.json")


def test_a_calibration_round_trips_through_its_file_with_the_same_digest(tmp_path: Path) -> None:
    cal = _cal(claim_threshold=0.8, bound=0.6, bound_interval=(0.5, 0.7))
    path = tmp_path / "cal.json"
    path.write_text(cal.text(), encoding="utf-8")
    again = read_calibration(path)
    assert again == cal and again.digest == cal.digest and cal.digest.startswith("sha256:")
    assert _cal(claim_threshold=0.75).digest != cal.digest


def test_the_bound_separates_pass_from_fail_and_an_empty_fold_is_chance_not_a_crash() -> None:
    import numpy as np

    from sumjudge.analysis.calibration_fit import best_bound

    bound, accuracy = best_bound(np.array([0.2, 0.3, 0.7, 0.9]), np.array([False, False, True, True]))
    assert 0.3 < bound < 0.7 and accuracy == 1.0
    assert best_bound(np.array([]), np.array([], dtype=bool)) == (0.5, 0.5)
