"""The offline judge on small everyday cases, with the verdicts a reader gives.

Each row is a source, a summary and what a reader says about it: the share of the summary's claims
the source supports (alignment) and, where the row says so, the share of the source's facts the
summary keeps (coverage). English, German and Korean (with a few French and Spanish negations):
faithful, paraphrased, negated, antonym, swapped roles, changed number / date / name, omitted fact.

The verdicts are those of the default judge, which reads only the word data of the core install,
so they hold with or without the ``wordfreq`` and ``lemmas`` extras. The rows marked
``lemmas`` need irregular forms brought to one lemma ("froze" and "frozen" are forms of "freeze"):
the judge's own table of English irregular verbs does that now.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from sumjudge import create_summarization_scorer
from sumjudge.summarization.offline import create_offline_judge
from sumjudge.summarization.offline.lexical import LexicalJudge

BRIDGE = "The bridge opened in 1932 and cost 4 million dollars. Its architect was Ada Lind."
MATCH = "Smith defeated Jones in the final on Sunday. The match lasted three hours. Smith did not drop a set."
SALES = "Sales rose 5% in March, the company said. Its shares fell after the report."
BRUECKE = "Die Brücke wurde 1932 eröffnet und kostete 4 Millionen Dollar. Ihre Architektin war Ada Lind."
SPIEL = "Bayern besiegte Dortmund am Samstag mit 2:0. Das Stadion war nicht ausverkauft."
BUSAN = (
    "부산시는 3일 도시철도 5호선 건설 계획을 발표했다. 새 노선은 총 길이 12킬로미터이며 정거장 10곳을 지난다. "
    "박형준 시장은 이 노선이 교통 혼잡을 크게 줄일 것이라고 말했다."
)
EXPORT = "올해 수출은 10% 증가했다. 삼성이 애플을 이겼다."
PONT = "Le pont a été ouvert en 1932. Son architecte était Ada Lind."
PUENTE = "El puente se abrió en 1932. Su arquitecta fue Ada Lind."
DOG = "The dog bit the postman on Monday morning. The council approved the budget on Tuesday."
RIVER = "The river froze in January. The old mill was sold to a bakery for 2 million euros."


@dataclass(frozen=True)
class Case:
    name: str
    source: str
    summary: str
    alignment: float
    coverage: float | None = None
    lemmas: bool = False
    """The verdict needs irregular word forms brought to one lemma (the core's irregular-verb table)."""


CASES = [
    # English: the README's quick-start pair and its variants
    Case("en-faithful-paraphrase", BRIDGE, "The bridge, designed by Ada Lind, opened in 1932.", 1.0, 2 / 3),
    Case("en-verbatim", BRIDGE, BRIDGE, 1.0, 1.0),
    Case("en-omitted-facts", BRIDGE, "The bridge opened in 1932.", 1.0, 1 / 3),
    Case(
        "en-all-negated",
        BRIDGE,
        "The bridge did not open in 1932 and did not cost 4 million dollars. Its architect was not Ada Lind.",
        0.0,
        0.0,
    ),
    Case("en-negated-contraction", BRIDGE, "The bridge didn't open in 1932.", 0.0, 0.0),
    # no word shows the error ("designed" is a word the source lacks): supported, unchecked
    Case("en-swapped-roles-passive", BRIDGE, "Ada Lind was designed by the bridge in 1932.", 1.0),
    Case("en-changed-number", BRIDGE, "The bridge opened in 1932 and cost 9 million dollars.", 0.0),
    Case("en-changed-date", BRIDGE, "The bridge opened in 1935.", 0.0, 0.0),
    Case("en-changed-name", BRIDGE, "Its architect was Ada Lund.", 0.0),
    Case("en-antonym", BRIDGE, "The bridge closed in 1932.", 0.0),
    Case("en-one-of-two-claims-wrong", BRIDGE, "The bridge opened in 1932. Its architect was Ben Ross.", 0.5),
    # English: who did what to whom, and negation in the source
    Case("en-swapped-roles", MATCH, "Jones defeated Smith in the final on Sunday.", 0.0),
    Case("en-swapped-roles-of-things", DOG, "The postman bit the dog on Monday morning.", 0.0),
    Case("en-swapped-roles-of-bodies", DOG, "The budget approved the council on Tuesday.", 0.0),
    Case("en-faithful-roles-of-things", DOG, "The dog bit the postman on Monday.", 1.0),
    Case("en-passive-paraphrase", MATCH, "Jones was defeated by Smith in the final on Sunday.", 1.0),
    Case("en-faithful-negation", MATCH, "Smith did not drop a set.", 1.0),
    Case("en-drops-the-source-negation", MATCH, "Smith dropped a set.", 0.0),
    Case("en-number-word-changed", MATCH, "The match lasted five hours.", 0.0),
    Case("en-number-word-kept", MATCH, "The match lasted 3 hours.", 1.0),
    # English: antonym pairs and negation against a positive source
    Case("en-antonym-rose-fell", SALES, "Sales fell 5% in March.", 0.0),
    Case("en-faithful-reordered", SALES, "The company said sales rose 5% in March.", 1.0),
    Case("en-negated-second-fact", SALES, "Its shares did not fall after the report.", 0.0),
    Case("en-faithful-second-fact", SALES, "Its shares fell after the report.", 1.0),
    Case("en-changed-percent", SALES, "Sales rose 15% in March.", 0.0),
    # English: irregular verbs, one fact whatever the tense
    # the summary lacks the fact's date ("in January"), so the question is unanswered
    Case("en-irregular-verb-perfect", RIVER, "The river has frozen.", 1.0, 0.0, lemmas=True),
    Case("en-irregular-verb-present", RIVER, "The river freezes in January.", 1.0, 1 / 2, lemmas=True),
    Case("en-irregular-verb-negated", RIVER, "The river did not freeze in January.", 0.0, 0.0, lemmas=True),
    Case("en-irregular-verb-negated-fall", SALES, "Its shares did not fall after the report.", 0.0, 0.0, lemmas=True),
    # German
    Case("de-verbatim", BRUECKE, BRUECKE, 1.0, 1.0),
    Case("de-omitted-facts", BRUECKE, "Die Brücke wurde 1932 eröffnet.", 1.0, 1 / 3),
    Case("de-negated", BRUECKE, "Die Brücke wurde 1932 nicht eröffnet.", 0.0, 0.0),
    Case("de-negated-name", BRUECKE, "Ihre Architektin war nicht Ada Lind.", 0.0),
    Case("de-kein", BRUECKE, "Die Brücke kostete keine 4 Millionen Dollar.", 0.0),
    Case("de-changed-number", BRUECKE, "Die Brücke kostete 7 Millionen Dollar.", 0.0),
    Case("de-changed-date", BRUECKE, "Die Brücke wurde 1936 eröffnet.", 0.0),
    Case("de-changed-name", BRUECKE, "Ihre Architektin war Eva Lind.", 0.0),
    Case("de-antonym", BRUECKE, "Die Brücke wurde 1932 geschlossen.", 0.0),
    Case("de-swapped-roles", SPIEL, "Dortmund besiegte Bayern am Samstag mit 2:0.", 0.0),
    Case("de-passive-paraphrase", SPIEL, "Dortmund wurde am Samstag von Bayern mit 2:0 besiegt.", 1.0),
    Case("de-faithful-negation", SPIEL, "Das Stadion war nicht ausverkauft.", 1.0),
    Case("de-drops-the-source-negation", SPIEL, "Das Stadion war ausverkauft.", 0.0),
    # Korean
    Case("ko-verbatim", BUSAN, BUSAN, 1.0, 1.0),
    Case("ko-omitted-facts", BUSAN, "부산시는 3일 도시철도 5호선 건설 계획을 발표했다.", 1.0, 1 / 3),
    Case("ko-negated", BUSAN, "부산시는 3일 도시철도 5호선 건설 계획을 발표하지 않았다.", 0.0, 0.0),
    Case("ko-changed-number", BUSAN, "새 노선은 총 길이 25킬로미터이며 정거장 10곳을 지난다.", 0.0),
    Case("ko-changed-date", BUSAN, "부산시는 7일 도시철도 5호선 건설 계획을 발표했다.", 0.0),
    Case("ko-changed-name", BUSAN, "김영수 시장은 이 노선이 교통 혼잡을 크게 줄일 것이라고 말했다.", 0.0),
    Case("ko-faithful-quote", BUSAN, "박형준 시장은 이 노선이 교통 혼잡을 줄일 것이라고 말했다.", 1.0),
    Case("ko-antonym", EXPORT, "올해 수출은 10% 감소했다.", 0.0),
    Case("ko-negated-antonym-source", EXPORT, "올해 수출은 증가하지 않았다.", 0.0),
    Case("ko-swapped-roles", EXPORT, "애플이 삼성을 이겼다.", 0.0),
    Case("ko-faithful-roles", EXPORT, "삼성이 애플을 이겼다.", 1.0),
    # French and Spanish negation
    Case("fr-negated", PONT, "Le pont n'a pas été ouvert en 1932.", 0.0),
    Case("fr-faithful", PONT, "Son architecte était Ada Lind.", 1.0),
    Case("es-negated", PUENTE, "El puente no se abrió en 1932.", 0.0),
    Case("es-faithful", PUENTE, "Su arquitecta fue Ada Lind.", 1.0),
]


def _shares(judge: LexicalJudge, source: str, summary: str) -> tuple[float, float, list[str], list[str]]:
    claims = judge.align(source, summary).alignment
    questions = judge.questions(source, 10).questions
    answers = judge.cover(questions, summary).coverage
    alignment = sum(v.supported for v in claims) / len(claims)
    coverage = sum(v.answered for v in answers) / len(questions)
    return alignment, coverage, [v.reason for v in claims], [v.reason for v in answers]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_verdicts_match_what_a_reader_says(case: Case) -> None:
    judge = create_offline_judge("lexical")
    assert isinstance(judge, LexicalJudge)
    alignment, coverage, claim_reasons, answer_reasons = _shares(judge, case.source, case.summary)
    assert alignment == pytest.approx(case.alignment), claim_reasons
    if case.coverage is not None:
        assert coverage == pytest.approx(case.coverage), answer_reasons


def test_the_table_covers_every_kind_in_three_languages() -> None:
    assert len(CASES) >= 40
    for lang in ("en", "de", "ko"):
        kinds = {c.name.split("-", 1)[1] for c in CASES if c.name.startswith(lang + "-")}
        for kind in ("verbatim", "negated", "antonym", "swapped-roles", "changed-number", "changed-name", "omitted-facts"):
            assert any(k.startswith(kind) for k in kinds), (lang, kind)


def test_quick_start_pair_through_the_scorer() -> None:
    """The README's quick-start pair, scored as a user scores it (score = min of both axes)."""
    scorer = create_summarization_scorer("offline/lexical")
    faithful = scorer.run_sync(input=BRIDGE, output="The bridge, designed by Ada Lind, opened in 1932.")
    assert (faithful.alignment_score, round(faithful.coverage_score, 2), faithful.score) == (1.0, 0.67, 0.67)
    negated = scorer.run_sync(
        input=BRIDGE,
        output="The bridge did not open in 1932 and did not cost 4 million dollars. Its architect was not Ada Lind.",
    )
    assert negated.score == 0
    swapped = scorer.run_sync(input=BRIDGE, output="Ada Lind was designed by the bridge in 1932.")
    # no word shows the error, so the claim is supported and flagged unchecked
    assert swapped.alignment_score == 1.0 and swapped.preprocess_step_result.alignment[0].unchecked


def test_one_question_per_fact_phrased_naturally() -> None:
    judge = LexicalJudge()
    assert judge.questions(BRIDGE, 10).questions == [
        "Is it true that the bridge opened in 1932?",  # a sentence's main fact before its second one
        "Is it true that the bridge cost 4 million dollars?",
        "Is it true that its architect was Ada Lind?",
    ]


def test_reasons_quote_both_sides_of_a_contradiction() -> None:
    judge = LexicalJudge()
    (negated,) = judge.align(BRIDGE, "Its architect was not Ada Lind.").alignment
    assert '"Its architect was not Ada Lind."' in negated.reason and '"Its architect was Ada Lind."' in negated.reason
    (antonym,) = judge.align(SALES, "Sales fell 5% in March.").alignment
    assert "'fell'" in antonym.reason and "'rose'" in antonym.reason
    questions = judge.questions(BRIDGE, 10).questions
    answers = judge.cover(questions, "The bridge did not open in 1932.").coverage
    opened = next(v for v in answers if "opened" in v.question)
    assert not opened.answered and "did not open" in opened.reason and "opened in 1932" in opened.reason


def test_a_changed_number_is_shown_beside_the_source_figure_in_its_place() -> None:
    judge = LexicalJudge()
    (cost,) = judge.align(BRIDGE, "The bridge cost 9 million dollars.").alignment
    assert not cost.supported and cost.reason.startswith("'9' does not occur in the source; it says '4'")
    (year,) = judge.align(BRIDGE, "The bridge opened in 1935.").alignment
    assert year.reason.startswith("'1935' does not occur in the source; it says '1932'")
    (price,) = judge.align(RIVER, "The old mill was sold to a bakery for 3 million euros.").alignment
    assert price.reason.startswith("'3' does not occur in the source; it says '2'")
