"""``local/reader``'s contrast: each claim asked beside its alternatives built from the source (a value
the source attaches to something else swapped in), after the same read of the source. A claim whose
alternative the model finds clearly more probable is unsupported, both P in the reason; a claim whose
alternatives score lower stays supported. The model is scripted (its P chosen per claim text)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sumjudge.judges.base import JudgeRequest, ModelConfig, StepInputs
from sumjudge.summarization.reader.contrast import alternatives, values
from sumjudge.summarization.reader.judge import ReaderJudge
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, AlignmentOutput, AlignmentVerdict

from reader_scripts import SilentWords, TailModel

SOURCE = (
    "The Dunmore city budget sets aside $18.5 million for the new bus line. "
    "Road repairs get $25 million, the largest share. "
    "Chief executive Nora Vance and founder Piet Olsen presented the plan on Monday. "
    "The council approved the budget."
)
SENTENCES = [s.strip() + "." for s in SOURCE.split(". ") if s]




def _judge(tmp_path: Path, p_yes: Callable[[str], float], **extra: object) -> tuple[ReaderJudge, TailModel]:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    model = TailModel(p_yes)
    config = ModelConfig(id=f"local/reader:{gguf}", extra=dict(extra))
    return ReaderJudge(f"reader:{gguf}", config, llm=model, words=SilentWords()), model  # type: ignore[arg-type]


def _align(judge: ReaderJudge, summary: str) -> list[AlignmentVerdict]:
    request = JudgeRequest(step=ALIGNMENT_STEP, messages=[], output_type=AlignmentOutput,
                           inputs=StepInputs(source=SOURCE, summary=summary))
    return judge.answer(request).output.alignment


def _truth(claim: str) -> float:
    """What a reader would answer: the source's own facts near 1, anything else lower."""
    if "bus line gets $18.5 million" in claim or "Nora Vance and founder Piet Olsen" in claim:
        return 0.98
    if "council" in claim:
        return 0.95 if "approved" in claim else 0.3
    return 0.82 if "gets" in claim or "Chief executive" in claim else 0.3


def test_a_value_the_source_attaches_to_something_else_is_unsupported_by_its_alternative(tmp_path: Path) -> None:
    judge, model = _judge(tmp_path, _truth)
    (verdict,) = _align(judge, "The bus line gets $25 million.")
    assert any("The bus line gets $18.5 million." in t for t in model.tails)  # the alternative asked after the source
    assert not verdict.supported  # P 0.82 alone would pass the threshold 0.5
    assert "0.820" in verdict.reason and "0.980" in verdict.reason and '"$25 million" -> "$18.5 million"' in verdict.reason
    assert verdict.probability is not None and verdict.probability < 0.5
    assert verdict.decided_by == "contrast"  # a calibrated threshold leaves this decision alone


def test_two_people_s_roles_swapped_are_unsupported_by_the_swap_back(tmp_path: Path) -> None:
    judge, _ = _judge(tmp_path, _truth)
    (verdict,) = _align(judge, "Chief executive Piet Olsen and founder Nora Vance presented the plan.")
    assert not verdict.supported and "Nora Vance" in verdict.reason.split("alternative", 1)[1]


def test_a_faithful_claim_whose_alternatives_score_lower_stays_supported(tmp_path: Path) -> None:
    judge, model = _judge(tmp_path, _truth)
    (verdict,) = _align(judge, "The council approved the budget.")
    assert any("The council rejected the budget." in t for t in model.tails)  # a decision's alternative: its reversal
    assert verdict.supported and verdict.probability == 0.95
    assert "0.950" in verdict.reason and "0.300" in verdict.reason and "best alternative" in verdict.reason
    # where the source attaches the claim's words to its own values, no swap is built: nothing to ask
    (roles,) = _align(judge, "Chief executive Nora Vance and founder Piet Olsen presented the plan.")
    assert roles.supported and "alternative" not in roles.reason


def test_an_alternative_within_the_margin_does_not_decide(tmp_path: Path) -> None:
    judge, _ = _judge(tmp_path, lambda c: 0.9 if "$18.5" in c else 0.86)  # log-odds apart by 0.38 < 1
    (verdict,) = _align(judge, "The bus line gets $25 million.")
    assert verdict.supported
    strict, _ = _judge(tmp_path, lambda c: 0.9 if "$18.5" in c else 0.86, contrast_margin=0.3)
    assert not _align(strict, "The bus line gets $25 million.")[0].supported


def test_without_alternatives_only_the_claims_are_asked(tmp_path: Path) -> None:
    judge, model = _judge(tmp_path, _truth, alternatives=0)
    (verdict,) = _align(judge, "The bus line gets $25 million.")
    assert len(model.tails) == 1 and verdict.supported and "alternative" not in verdict.reason
    assert judge.fingerprint != _judge(tmp_path, _truth)[0].fingerprint  # another judge, another run key


def test_alternatives_take_the_value_the_source_writes_among_the_claim_s_words() -> None:
    alts = alternatives("The bus line gets $25 million.", SENTENCES, 4)
    assert alts and alts[0].now == "$18.5 million" and alts[0].text == "The bus line gets $18.5 million."
    swapped = alternatives("Chief executive Piet Olsen and founder Nora Vance met.", SENTENCES, 4)
    assert swapped[0].text == "Chief executive Nora Vance and founder Piet Olsen met."
    assert alternatives("The bus line gets $25 million.", SENTENCES, 0) == []
    assert alternatives("The bus line gets $18.5 million.", SENTENCES, 4) == []  # faithful: $25 million is said of roads
    # nothing the source holds of its kind: no alternative (a word that opens a sentence is no name)
    assert alternatives("Drivers were pleased.", SENTENCES, 4) == []


def test_values_are_read_by_kind() -> None:
    found = [(v.kind, v.text) for v in values("Road repairs get $25 million, 40% more than in March 2024 under Nora Vance.")]
    assert found == [("money", "$25 million"), ("share", "40%"), ("month", "March"), ("year", "2024"), ("name", "Nora Vance")]
