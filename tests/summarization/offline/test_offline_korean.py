"""The offline judge on Korean, read by morphemes: a faithful retelling in other endings is never
called unsupported, while a wrong number, name, negation, reversed decision or swapped winner is
shown; without the analyser one line says what to install and what it cannot read stays unchecked.
In a language it has no lexicon for, a word form it cannot read is unchecked, never unsupported."""

from __future__ import annotations

import pytest

from sumjudge.summarization.language import korean
from sumjudge.summarization.offline.lexical import LexicalJudge
from sumjudge.summarization.verdicts import AlignmentVerdict

ELECTION = (
    "지난 16일 치러진 통영시장 보궐선거에서 무소속 박정민 후보가 정당 후보들을 큰 표 차로 제치고 당선됐다. "
    "박 당선인은 유효투표의 47.3%인 2만 628표를 얻어 미래연합당 이창호 후보를 4,500여 표 차로 따돌렸다. "
    "최종 투표율은 41.6%로 지난 선거보다 13.6%포인트 낮았다."
)
RECALL = (
    "대성전자는 화재 위험이 확인된 전기레인지 12만 4천여 대를 자발적으로 리콜한다고 3일 밝혔다. "
    "세진대학교 윤하린 교수 연구팀이 부품을 시험했다. 법원은 주민들의 집행정지 신청을 인용했다. "
    "노동자들은 2일 0시를 기해 파업에 돌입했다."
)


def _align(source: str, summary: str) -> list[AlignmentVerdict]:
    return LexicalJudge().align(source, summary).alignment


def _one(source: str, summary: str) -> AlignmentVerdict:
    verdicts = _align(source, summary)
    assert len(verdicts) == 1, verdicts
    return verdicts[0]


kiwi = pytest.mark.skipif(not korean.installed(), reason="needs sumjudge[korean] (kiwipiepy)")


@kiwi
def test_a_faithful_retelling_in_other_endings_is_not_unsupported() -> None:
    summary = "16일 치러진 통영시장 보궐선거에서 무소속 박정민 후보가 이창호 후보를 4,500여 표 차로 제치고 당선됐다."
    assert all(v.supported for v in _align(ELECTION, summary))
    v = _one(ELECTION, "투표율은 41.6%로 13%포인트 넘게 낮았다.")
    assert v.supported  # 13.6%포인트 retold as "more than 13 points"


@kiwi
def test_a_wrong_number_with_korean_units_is_shown() -> None:
    v = _one(RECALL, "대성전자가 전기레인지 약 21만 4천 대를 자발적으로 리콜한다.")
    assert not v.supported and "21만 4천 대" in v.reason and "12만 4천여 대" in v.reason
    assert _one(RECALL, "대성전자가 전기레인지 약 12만 4천 대를 자발적으로 리콜한다.").supported
    v = _one(RECALL, "노동자들은 12일 0시를 기해 파업에 돌입했다.")
    assert not v.supported and "12일" in v.reason


@kiwi
def test_another_name_in_the_place_of_the_sources_is_shown() -> None:
    v = _one(RECALL, "세진대학교 한지수 교수 연구팀이 부품을 시험했다.")
    assert not v.supported and "한지수" in v.reason and "윤하린" in v.reason


@kiwi
def test_a_winner_named_as_the_loser_is_shown() -> None:
    v = _one(ELECTION, "미래연합당 이창호 후보가 무소속 박정민 후보를 4,500여 표 차로 꺾었다.")
    assert not v.supported and "swap roles" in v.reason


@kiwi
def test_a_reversed_decision_and_a_negation_are_shown() -> None:
    v = _one(RECALL, "법원은 주민들의 집행정지 신청을 기각했다.")
    assert not v.supported and "기각" in v.reason and "인용" in v.reason
    v = _one(RECALL, "노동자들은 2일 0시를 기해 파업에 돌입하지 않았다.")
    assert not v.supported and "negation" in v.reason


@kiwi
def test_a_key_fact_left_out_is_shown_missing() -> None:
    judge = LexicalJudge()
    questions = judge.questions(ELECTION, 10).questions
    kept = judge.cover(questions, "무소속 박정민 후보가 16일 치러진 통영시장 보궐선거에서 정당 후보들을 큰 표 차로 제쳤다.")
    left_out = judge.cover(questions, "최종 투표율은 41.6%로 지난 선거보다 13.6%포인트 낮았다.")
    assert kept.coverage[0].answered and not left_out.coverage[0].answered


def test_without_the_analyser_one_line_says_what_to_install_and_nothing_is_unsupported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(korean, "_kiwi", lambda: None)
    summary = "16일 실시된 보궐선거에서 무소속 박정민 후보가 득표율 47.3%로 시장에 뽑혔다. 투표율은 41.6%에 그쳤다."
    judge = LexicalJudge()
    verdicts = judge.align(ELECTION, summary).alignment + judge.align(ELECTION, summary).alignment
    assert all(v.supported for v in verdicts)
    assert any(v.unchecked for v in verdicts)
    err = capsys.readouterr().err
    assert err.count("sumjudge[korean]") == 1 and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        (
            "Der Bürgermeister der Stadt eröffnete am Montag die neue Brücke über den Fluss. "
            "Die Bauarbeiten hatten drei Jahre gedauert und kosteten 12 Millionen Euro.",
            "Die Brückeneröffnung durch den Stadtbürgermeister fand am Montag statt. Die Baukosten betrugen 12 Millionen Euro.",
        ),
        (
            "市長は月曜日に川に架かる新しい橋を開通させた。工事は三年かかり、費用は1200万ユーロだった。",
            "新しい橋が月曜日に市長によって開通された。橋の工事には三年かかった。",
        ),
    ],
    ids=["german-compounds", "japanese-endings"],
)
def test_word_forms_it_cannot_read_are_unchecked_never_unsupported(source: str, summary: str) -> None:
    verdicts = _align(source, summary)
    assert verdicts and all(v.supported for v in verdicts)
    assert any(v.unchecked for v in verdicts)


def test_a_wrong_german_name_or_number_is_still_shown() -> None:
    source = "Der Bürgermeister Klaus Weber eröffnete am Montag die neue Brücke. Sie kostete 12 Millionen Euro."
    assert not _one(source, "Der Bürgermeister Klaus Schmidt eröffnete am Montag die neue Brücke.").supported
    assert not _one(source, "Die neue Brücke kostete 15 Millionen Euro.").supported


@kiwi
def test_a_number_is_not_taken_for_one_that_counts_something_else() -> None:
    source = "이날 승리로 전북은 승점 55가 돼 2위 울산과의 격차를 4점으로 벌리며 선두를 지켰다."
    assert _one(source, "전북은 2위 울산과의 승점 차를 4점으로 벌렸다.").supported  # a rank, not the points


@kiwi
@pytest.mark.parametrize("summary, supported", [
    ("누리소프트의 3분기 영업이익이 지난해보다 38% 증가했다.", False),
    ("누리소프트의 3분기 영업이익이 지난해보다 38% 감소했다.", True),
    ("누리소프트의 3분기 매출은 지난해보다 5% 감소했다.", False),
])
def test_a_change_told_with_the_other_directions_noun_is_shown(summary: str, supported: bool) -> None:
    source = (
        "누리소프트는 올해 3분기 영업이익이 412억 원으로 지난해 같은 기간보다 38% 줄었다고 6일 공시했다. "
        "같은 기간 매출은 2,870억 원으로 5% 늘었다."
    )
    v = _one(source, summary)
    assert v.supported is supported, v.reason


@kiwi
@pytest.mark.parametrize("source, summary", [
    # its time of day and its second day: one day dates the fact
    ("경북 의성군 단촌면 야산에서 15일 오후 2시 10분께 발생한 산불이 17시간 만인 16일 오전 7시께 완전히 꺼졌다.",
     "15일 경북 의성군 단촌면 야산에서 발생한 산불이 17시간 만에 완전히 꺼졌다."),
    # its place in a series and the year in the event's name
    ("전북 현대가 23일 정규리그 33라운드 홈경기에서 울산 HD를 3-1로 꺾었다.", "전북 현대가 23일 홈경기에서 울산 HD를 3-1로 꺾었다."),
    ("지난 12일 열린 2026 경주국제마라톤에 참가자 4만 8,200여 명이 몰렸다.", "12일 열린 경주국제마라톤에 참가자 4만 8,200여 명이 몰렸다."),
])
def test_a_fact_told_without_its_detail_numbers_is_answered(source: str, summary: str) -> None:
    judge = LexicalJudge()
    questions = judge.questions(source, 10).questions
    [v] = judge.cover(questions[:1], summary).coverage
    assert v.answered, v.reason


@kiwi
def test_a_key_figure_left_out_of_a_korean_fact_still_counts() -> None:
    judge = LexicalJudge()
    questions = judge.questions("누리소프트의 3분기 매출은 2,870억 원으로 5% 늘었다.", 10).questions
    [v] = judge.cover(questions[:1], "누리소프트의 3분기 매출은 5% 늘었다.").coverage
    assert not v.answered or v.unchecked, v.reason
    [v] = judge.cover(questions[:1], "누리소프트의 매출은 2,870억 원으로 5% 늘었다.").coverage
    assert not v.answered or v.unchecked, v.reason  # the quarter (3분기) is a key number, not a time of day


@kiwi
@pytest.mark.parametrize("summary, supported", [
    ("산림 38헥타르와 주택 5채가 탔지만 다친 사람은 없었다.", False),
    ("산림 38헥타르와 주택 2채가 탔지만 다친 사람은 없었다.", True),
    ("창고 5동도 불에 탔다.", True),
])
def test_a_count_moved_to_another_noun_is_shown(summary: str, supported: bool) -> None:
    source = (
        "경북 의성군 야산에서 15일 발생한 산불이 꺼졌다. 산림청에 따르면 이번 불로 산림 약 38헥타르가 탔으며 "
        "인명 피해는 없었다. 주택 2채와 창고 5동도 불에 탔다."
    )
    assert all(v.supported is supported for v in _align(source, summary)) or not supported
    if not supported:
        assert any("주택 2채" in v.reason for v in _align(source, summary) if not v.supported)


@kiwi
def test_a_win_told_as_a_defeat_is_shown() -> None:
    source = "전북 현대가 23일 홈경기에서 울산 HD를 3-1로 꺾었다."
    assert not _one(source, "전북 현대가 23일 홈에서 울산 HD에 1-3으로 졌다.").supported
    assert _one(source, "전북 현대가 23일 홈에서 울산 HD를 3-1로 꺾었다.").supported


@kiwi
def test_a_count_the_source_changed_to_is_no_count_moved() -> None:
    source = "지원 대상이 되는 보증금 기준은 3억 원에서 5억 원으로 높아졌다."
    assert _one(source, "지원 보증금 기준은 5억 원으로 올라간다.").supported


@kiwi
def test_a_bill_passed_told_as_voted_down_is_shown() -> None:
    source = "국회는 28일 본회의를 열고 전세사기 피해자 지원 특별법 개정안을 찬성 251명으로 통과시켰다."
    assert not _one(source, "전세사기 피해자 지원 특별법 개정안이 28일 국회 본회의에서 부결됐다.").supported
    assert _one(source, "전세사기 피해자 지원 특별법 개정안이 28일 국회 본회의를 통과했다.").supported


@kiwi
def test_an_unsettled_korean_question_counts_even_odds_where_english_has_its_measured_rate() -> None:
    judge = LexicalJudge()
    source = "이날 승리로 전북은 승점 55가 돼 2위 울산과의 격차를 4점으로 벌렸다."
    [v] = judge.cover(judge.questions(source, 10).questions[:1], "전북은 2위 울산과의 승점 차를 4점으로 벌렸다.").coverage
    assert v.unchecked and v.probability == judge.settings.unmeasured_presence == 0.5, v
    question = "Is it true that the Jeonbuk club reached 55 points and opened a gap of four points over Ulsan?"
    [w] = judge.cover([question], "Jeonbuk opened a gap of four points over Ulsan.").coverage
    assert w.unchecked and w.probability == judge.settings.unsettled_presence == 0.31, w


@kiwi
@pytest.mark.parametrize("summary, supported", [
    ("3회 역전 3점 홈런을 친 임찬규는 시리즈 MVP에 선정됐다.", False),
    ("6이닝 동안 2실점으로 막은 문보경이 MVP에 뽑혔다.", False),
    ("3회 역전 3점 홈런을 친 문보경은 시리즈 MVP에 선정됐다.", True),
    ("임찬규는 6이닝 동안 2실점으로 막았다.", True),
    ("선발 임찬규가 6이닝 2실점으로 막았고 문보경은 3회 역전 3점 홈런을 쳤다.", True),
])
def test_a_person_given_anothers_deeds_is_shown(summary: str, supported: bool) -> None:
    source = (
        "LG는 31일 서울 잠실야구장에서 열린 한국시리즈 5차전에서 KT 위즈를 6-2로 꺾었다. 선발 투수 임찬규가 6이닝 동안 "
        "2실점으로 막았고, 4번 타자 문보경은 3회 역전 3점 홈런을 터뜨렸다. 시리즈 최우수선수(MVP)에는 타율 0.412를 "
        "기록한 문보경이 뽑혔다."
    )
    verdicts = _align(source, summary)
    assert all(v.supported for v in verdicts) is supported, [v.reason for v in verdicts]
