"""Korean key facts asked as Korean questions even where the morpheme analyser is not installed: a fact
cut on a connective is closed as a statement, a noun phrase asked with the copula, never quoted."""

from __future__ import annotations

import pytest

from sumjudge.summarization.language import Reading, korean
from sumjudge.summarization.language.questions import fact_of_question, phrase_question

SOURCE = (
    "프로축구 포항 스틸러스가 19일 홈경기에서 수원 삼성을 2-0으로 꺾고 5연승을 거두며, 리그 선두 자리를 굳혔다. "
    "포항은 전반 12분 선제골을 넣었고, 후반 30분 추가골을 더했다. 관중 1만 2,000명이 경기장을 찾았다."
)


@pytest.mark.parametrize(
    ("fact", "question"),
    [
        ("포항이 5연승을 거두며", "포항이 5연승을 거둔다는 것이 사실입니까?"),
        ("투표율은 41.6%로 낮았으며", "투표율은 41.6%로 낮았다는 것이 사실입니까?"),
        ("박정민 후보의 당선", "박정민 후보의 당선이라는 것이 사실입니까?"),
    ],
)
def test_a_fragment_is_asked_as_a_closed_korean_question(fact: str, question: str) -> None:
    assert phrase_question(fact, "ko") == question
    assert fact_of_question(question).startswith(fact.split()[0])


def test_without_the_analyser_no_question_quotes_or_ends_on_a_connective(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(korean, "_kiwi", lambda: None)
    questions = Reading().questions(SOURCE, 10)
    assert questions
    for q in questions:
        assert q.endswith("니까?") and not any(mark in q for mark in "\"“”"), q
        assert not fact_of_question(q).endswith(("며", "고", "지만", "는데", "면서")), q
