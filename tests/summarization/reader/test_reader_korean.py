"""``local/reader`` on Korean: its word proofs read by morphemes, as the offline judge does, so a faithful
claim in other endings (치른 for 치르겠다) is left to the model, never declared unsupported by word form,
while a wrong number is still shown by words. The model is scripted (see test_reader_words.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sumjudge.judges.base import JudgeRequest, ModelConfig, StepInputs
from sumjudge.judges.next_token import YesNoAnswer
from sumjudge.summarization.language import korean
from sumjudge.summarization.reader.judge import ReaderJudge
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, AlignmentOutput

pytestmark = pytest.mark.skipif(not korean.installed(), reason="needs sumjudge[korean] (kiwipiepy)")

SOURCE = (
    "프로축구 전북 현대가 23일 전주월드컵경기장에서 열린 홈경기에서 울산 HD를 3-1로 꺾었다. "
    "전북은 다음 달 파이널 라운드에서 울산과 다시 경기를 치르겠다고 밝혔다. "
    "경기장에는 시즌 최다인 3만 2,418명의 관중이 들어찼다."
)


class _Yes:
    def ask(self, prompts: list[tuple[str, str]]) -> list[YesNoAnswer]:
        return [YesNoAnswer(p_yes=0.8, prompt_tokens=10, evaluated=10) for _ in prompts]


def _align(tmp_path: Path, summary: str) -> AlignmentOutput:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    judge = ReaderJudge(f"reader:{gguf}", ModelConfig(id=f"local/reader:{gguf}"), llm=_Yes())  # type: ignore[arg-type]
    request = JudgeRequest(step=ALIGNMENT_STEP, messages=[], output_type=AlignmentOutput,
                           inputs=StepInputs(source=SOURCE, summary=summary))
    return judge.answer(request).output


def test_a_faithful_korean_claim_in_other_endings_is_left_to_the_model(tmp_path: Path) -> None:
    out = _align(tmp_path, "전북은 다음 달 파이널 라운드에서 울산과 다시 경기를 치른다. 관중 3만 2,418명이 경기장을 찾았다.")
    assert out.alignment and all(v.supported and "shown by words" not in v.reason for v in out.alignment)


def test_a_wrong_korean_number_is_still_shown_by_words(tmp_path: Path) -> None:
    (verdict,) = _align(tmp_path, "경기장에는 시즌 최다인 2만 3,418명의 관중이 들어찼다.").alignment
    assert not verdict.supported and "shown by words" in verdict.reason and "3만 2,418명" in verdict.reason


class _Asked:
    def __init__(self) -> None:
        self.system: list[str] = []

    def ask(self, prompts: list[tuple[str, str]]) -> list[YesNoAnswer]:
        self.system += [system for system, _ in prompts]
        return [YesNoAnswer(p_yes=0.8, prompt_tokens=10, evaluated=10) for _ in prompts]


def test_instructions_around_korean_text_are_the_language_chosen_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sumjudge.summarization.reader import prompts

    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")

    def systems() -> list[str]:
        model = _Asked()
        judge = ReaderJudge(f"reader:{gguf}", ModelConfig(id=f"local/reader:{gguf}"), llm=model)  # type: ignore[arg-type]
        request = JudgeRequest(step=ALIGNMENT_STEP, messages=[], output_type=AlignmentOutput,
                               inputs=StepInputs(source=SOURCE, summary="경기장에는 관중 3만 2,418명이 들어찼다."))
        judge.answer(request)
        return model.system

    assert set(systems()) == {prompts.ENGLISH.system}  # the default: the better of the two measured
    monkeypatch.setitem(prompts.IN_TEXT_LANGUAGE, "ko", prompts.KOREAN)
    assert set(systems()) == {prompts.KOREAN.system}
