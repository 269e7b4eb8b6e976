"""``local/reader`` sets each claim against its summary's best other claim: a detail the source does
not hold reads far below the summary's true claims even where its P clears the threshold, and it is
unsupported when it falls ``peer_margin`` log-odds or more below the best of them. The model is
scripted (its P chosen per claim text); no alternative is built (``alternatives=0``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sumjudge.errors import ConfigurationError
from sumjudge.judges.base import JudgeRequest, ModelConfig, StepInputs
from sumjudge.judges.next_token import YesNoAnswer
from sumjudge.summarization.reader.claim_verdict import best_of_others
from sumjudge.summarization.reader.judge import ReaderJudge
from sumjudge.summarization.reader.settings import check_options
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, AlignmentOutput, AlignmentVerdict

from reader_scripts import SilentWords, TailModel

SOURCE = "The council approved the budget on Monday. The bus line gets $18.5 million. Road repairs get $25 million."
FAITHFUL = "The council approved the budget on Monday. The bus line gets $18.5 million."
ADDED = FAITHFUL + " The mayor resigned in protest."




def _reads(claim: str) -> float:
    """The source's own facts read high; the added detail above the threshold, far below them."""
    if "mayor" in claim:
        return 0.62  # log-odds 0.49: 2.45 below the council's 2.94
    return 0.95 if "council" in claim else 0.8  # the bus line: 1.56 below the council


def _align(summary: str, tmp_path: Path, **extra: object) -> tuple[list[AlignmentVerdict], ReaderJudge]:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    config = ModelConfig(id=f"local/reader:{gguf}", extra={"alternatives": 0, **extra})
    judge = ReaderJudge(f"reader:{gguf}", config, llm=TailModel(_reads), words=SilentWords())  # type: ignore[arg-type]
    request = JudgeRequest(step=ALIGNMENT_STEP, messages=[], output_type=AlignmentOutput,
                           inputs=StepInputs(source=SOURCE, summary=summary, claims=summary.split(". ")))
    return judge.answer(request).output.alignment, judge


def test_a_claim_far_below_the_summary_s_best_claim_is_unsupported_though_above_the_threshold(tmp_path: Path) -> None:
    verdicts, _ = _align(ADDED, tmp_path)
    assert [v.supported for v in verdicts] == [True, True, False]
    added = verdicts[2]
    assert added.probability == 0.62  # its own P kept: the graded axis still reads the model
    assert "2.5 log-odds below the summary's best other claim" in added.reason and "P = 0.950" in added.reason
    assert [v.decided_by for v in verdicts] == [None, None, "peer"]


def test_faithful_claims_within_the_margin_of_each_other_stay_supported(tmp_path: Path) -> None:
    verdicts, _ = _align(FAITHFUL, tmp_path)
    assert [v.supported for v in verdicts] == [True, True]  # 1.56 log-odds apart, under 2


def test_the_margin_is_a_setting_and_0_turns_it_off(tmp_path: Path) -> None:
    off, judge_off = _align(ADDED, tmp_path, peer_margin=0)
    assert all(v.supported for v in off)
    strict, judge_strict = _align(FAITHFUL, tmp_path, peer_margin=1.5)
    assert [v.supported for v in strict] == [True, False]
    assert len({judge_off.fingerprint, judge_strict.fingerprint, _align(FAITHFUL, tmp_path)[1].fingerprint}) == 3


def test_a_lone_claim_has_no_other_to_be_set_against(tmp_path: Path) -> None:
    (verdict,), _ = _align("The mayor resigned in protest.", tmp_path)
    assert verdict.supported and verdict.probability == 0.62


def test_each_claim_is_set_against_the_most_probable_of_the_others() -> None:
    answers = [YesNoAnswer(p, 10, 1) for p in (0.6, 0.9, 0.7)]
    best = best_of_others(answers)
    assert [b.p_yes if b else None for b in best] == [0.9, 0.7, 0.9]
    assert best_of_others([answers[0]]) == [None]


def test_a_margin_out_of_its_range_is_refused_naming_it() -> None:
    with pytest.raises(ConfigurationError, match=r"peer_margin=30.0 is out of range: 0 to 20"):
        check_options({"peer_margin": 30})
