"""The offline judge reads any length: its window only chooses the long-source path, and a summary of
any size is scored, never refused as past a context ("offline/lexical takes 8192; raise
ModelConfig.context_window", which it does not read, refused every summary over about 7 KB)."""

from __future__ import annotations

import pytest

from sumjudge import create_summarization_scorer
from sumjudge.errors import ContextOverflowError
from sumjudge.judges.base import ChatMessage, JudgeRequest, ModelConfig, StepInputs
from sumjudge.judges.budget import TokenBudget
from sumjudge.summarization.verdicts import CLAIMS_STEP, ClaimsOutput


def facts(n: int, tail: str = " on Monday") -> str:
    return " ".join(f"The council of Town{i} approved {100 + i} homes{tail}." for i in range(n))


@pytest.mark.parametrize("source_facts", [20, 400])
def test_the_offline_judge_scores_a_summary_of_any_length(source_facts: int) -> None:
    summary = facts(300, "")  # about 13 KB, past the nominal window
    result = create_summarization_scorer("offline/lexical").run_sync(input=facts(source_facts), output=summary)
    assert len(summary) > 12_000 and result.preprocess_step_result.alignment and result.score >= 0


def test_a_judge_whose_window_is_a_limit_still_refuses_what_does_not_fit() -> None:
    request = JudgeRequest(step=CLAIMS_STEP, messages=[ChatMessage(role="user", content=facts(600))],
                           output_type=ClaimsOutput, inputs=StepInputs(summary="x"), reply_tokens=100)
    with pytest.raises(ContextOverflowError):
        TokenBudget.for_config(ModelConfig(id="openai/gpt-4o-mini", context_window=4096)).check(request)
    offline = TokenBudget.of(create_summarization_scorer("offline/lexical").judge)
    assert not offline.limit and offline.check(request) > 4096
