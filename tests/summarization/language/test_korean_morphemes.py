"""Korean read by morphemes: the same verb in its many endings is one word, a name is a proper noun,
a number is read with its Korean units, and the source's key facts are asked as Korean questions."""

from __future__ import annotations

import pytest

pytest.importorskip("kiwipiepy")

from sumjudge.summarization.language import Reading  # noqa: E402

SOURCE = (
    "지난 16일 치러진 통영시장 보궐선거에서 무소속 박정민 후보가 정당 후보들을 큰 표 차로 제치고 당선됐다. "
    "박 당선인은 유효투표의 47.3%인 2만 628표를 얻어 미래연합당 이창호 후보를 4,500여 표 차로 따돌렸고, "
    "새시대당 정은숙 후보는 15.9%를 얻는 데 머물렀다. "
    "세진대학교 윤하린 교수 연구팀은 태양전지의 수명을 크게 늘리는 기술을 개발했다고 24일 밝혔다. "
    "박 당선인은 \"시민만 바라보고 일하겠다\"며 \"100일 안에 계획을 점검하겠다\"고 말했다."
)


def _ko(text: str):
    return Reading().analyser("ko").analyse(text)


def test_inflected_forms_of_one_verb_share_its_lemma() -> None:
    said, planned = _ko("선수들이 경기를 치른 뒤 쉬었다."), _ko("선수들은 경기를 치르겠다고 했다.")
    assert "치르다" in said.units & planned.units
    assert "낮다" in _ko("투표율은 낮았다.").units & _ko("낮은 투표율").units


def test_numbers_are_read_with_their_korean_units() -> None:
    assert _ko("4만 8,200여 명이 모였다.").numbers == ("48200",)
    assert _ko("850억 원이 들었다.").numbers == ("85000000000",)
    assert _ko("약 12만 4천 대를 리콜한다.").numbers == ("124000",)
    assert _ko("투표율은 41.6%였다.").numbers == ("41.6%",)


def test_an_object_particle_after_a_percent_is_no_word_of_the_sentence() -> None:
    offered = _ko("병원은 3.5%를 제시했다.")
    assert offered.numbers == ("3.5%",)
    assert offered.units == {"병원", "제시", "#3.5%"}  # not 르, which the analyser reads in 3.5%를


def test_proper_nouns_are_names_without_capitals() -> None:
    assert "윤하린" in _ko("윤하린 교수 연구팀이 기술을 내놓았다.").names


def test_case_particles_say_who_did_what_to_whom() -> None:
    roles = _ko("미래연합당 이창호 후보가 무소속 박정민 후보를 꺾었다.").case_roles
    assert roles == {"이창호": "subject", "박정민": "object"}


def test_questions_read_as_korean_questions() -> None:
    questions = Reading().questions(SOURCE, 10)
    assert questions
    for q in questions:
        assert q.endswith("니까?"), q  # the formal ending: …입니까? / …습니까?
        assert not any(mark in q for mark in "\"“”"), q  # never a quote inside a question
        fact = q.removesuffix("는 것이 사실입니까?").removesuffix("라는 것이 사실입니까?")
        assert not fact.endswith(("며", "고", "지만", "는데", "면서")), q  # never left on a connective


def test_a_question_asks_what_was_reported_not_who_announced_it() -> None:
    questions = Reading().questions(SOURCE, 10)
    research = [q for q in questions if "윤하린" in q]
    assert research and all("밝혔" not in q and "24일" not in q for q in research)
    assert not any("시민만" in q for q in questions)  # quoted speech asks nothing


def test_a_clause_joined_by_a_connective_is_asked_closed() -> None:
    questions = Reading().questions(SOURCE, 10)
    assert any(q.startswith("지난 16일") and "제쳤다는 것이 사실입니까?" in q for q in questions)


@pytest.mark.parametrize("sentence, reported", [
    ("누리소프트는 3분기 영업이익이 지난해보다 38% 줄었다고 6일 공시했다.", "누리소프트는 3분기 영업이익이 지난해보다 38% 줄었다"),
    ("대성전자는 전기레인지를 리콜한다고 3일 발표했다.", "대성전자는 전기레인지를 리콜한다"),
    ("회사는 이번 조치가 예방 차원이라고 설명했다.", "회사는 이번 조치가 예방 차원이다"),
    ("교육부는 논란을 없애기 위한 조치라고 설명했다.", "교육부는 논란을 없애기 위한 조치이다"),
])
def test_what_a_noun_verb_of_saying_reports_is_the_fact(sentence: str, reported: str) -> None:
    questions = Reading().questions(sentence, 10)
    assert questions and questions[0].startswith(reported.removesuffix("이다").removesuffix("다")), questions
    assert "다는 것" not in questions[0] or not reported.endswith("이다"), questions  # 조치라는, never 조치다는
    assert not any(w in questions[0] for w in ("공시", "발표", "설명", "6일", "3일")), questions
