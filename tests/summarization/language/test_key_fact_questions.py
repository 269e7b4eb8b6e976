"""Coverage asks the source's key facts, one atomic fact per question, in the shape a
person writes them, not whole copied sentences; a weekday beside a date is detail that fails no
fact; hosted judges are asked for the same shape, and what they answer is the exam that is kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.summarization.offline.lexical import LexicalJudge
from sumjudge.summarization.prompts import PROMPT_VERSION
from sumjudge.summarization.language.facts import atomic_facts
from sumjudge.summarization.language.questions import fact_of_question
from sumjudge.testing.recorded import RecordedRequest

from openai_endpoint import openai_endpoint

NEWS = (
    "Two charity founders are among the survivors of the earthquake in Kathmandu, Nepal. "
    "Anuradha Koirala, who rescues victims of trafficking, runs a shelter in Kathmandu that is home to 425 girls. "
    '"We are suffering with rain and strong wind," said Koirala, the founder of the charity Maiti Nepal. '
    "Pictured: a volunteer carries water to the shelter. "
    "By Sarah Griffiths. "
    "What happens to the girls now? "
    "The public has been warned not to use the main water line because of the risk of cholera. "
    "Koirala has offered to take in 200 other girls orphaned by the disaster. #NepalQuake"
)


def _questions(source: str, n: int = 10) -> list[str]:
    return LexicalJudge().questions(source, n).questions


def test_questions_ask_short_facts_not_quotes_captions_bylines_or_questions() -> None:
    qs = _questions(NEWS, 5)
    facts = [fact_of_question(q) for q in qs]
    assert qs and all(q.startswith("Is it true that ") and q.endswith("?") for q in qs)
    text = " ".join(facts)
    assert "suffering" not in text  # quoted speech asks nothing
    assert "volunteer" not in text  # a caption's text only fills places that the body leaves free
    every = " ".join(fact_of_question(q) for q in _questions(NEWS, 10))
    assert "suffering" not in every  # however many are allowed: what someone said is no fact to ask
    assert "Griffiths" not in text and "What happens" not in text and "#" not in text
    assert all(len(f.split()) <= 20 for f in facts), facts
    assert "earthquake" in facts[0]  # what the article is about comes first



@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        # cut to size after the predicate, never before it: "A win for mcilroy on the hallowed grounds" asks nothing
        ("A win for McIlroy on the hallowed grounds at Augusta this week would also be his third major in a row "
         "after his success at the Open and the USPGA championship .", "would also be"),
        # a relative clause's fact is about its antecedent, not about the clause before it
        ("The team will need Miller , who has played in 159 straight games , as it tries to secure a playoff spot .",
         "Miller has played in 159 straight games"),
        # a name in -s is no verb: its relative clause keeps it
        ("Chris Williams , who founded the charity in 2004 , runs a shelter in Leeds .",
         "Chris Williams founded the charity in 2004"),
        # a closing quotation mark left at the start by a cut-off quotation goes
        ("’ most of the colourful spots of bacteria were found to be harmless .", "most of the colourful spots"),
    ],
)
def test_each_fact_keeps_its_subject_and_predicate(sentence: str, fact: str) -> None:
    facts = atomic_facts(sentence, "en", 20)
    assert any(f.startswith(fact) or fact in f for f in facts), facts
    assert all(f[:1] not in "’'\"" for f in facts), facts
    assert not any(f.lower() == "a win for mcilroy on the hallowed grounds" for f in facts), facts
    assert not any(f.startswith("The team will need Miller has") for f in facts), facts


@pytest.mark.parametrize("sentence", [
    "Friday , April 3 .", "inspires others to think before judging them .",
    "say that just as antibiotics are used to make farm animals put on weight .",
])
def test_a_date_line_or_a_predicate_without_its_subject_is_no_fact(sentence: str) -> None:
    assert atomic_facts(sentence, "en", 20) == []

def test_a_long_sentence_gives_each_of_its_facts_with_its_subject() -> None:
    facts = atomic_facts(
        "Anuradha Koirala, who rescues victims of trafficking, runs a shelter in Kathmandu that is home to 425 girls.",
        "en",
    )
    assert facts[0].startswith("Anuradha Koirala runs a shelter")
    assert "Anuradha Koirala rescues victims of trafficking" in facts
    # who says it is not the fact; the speaker's description is not either
    (said,) = atomic_facts("The bridge will reopen in May, officials said on Monday.", "en")
    assert said == "The bridge will reopen in May"
    # "told X that": whom it was told is attribution too, up to its "that", not a fact's subject
    (told,) = atomic_facts("The tour manager told a local TV station that the bus stopped after a tire blew out.", "en")
    assert told == "the bus stopped after a tire blew out"
    # ", says it will grow" is what was said, not who said it: the fact keeps its predicate
    facts = atomic_facts("The park is small, but Ana Lopez, the mayor, says it will grow.", "en")
    assert facts == ["The park is small", "Ana Lopez says it will grow"]
    # a date before the subject stays with the fact, after it
    (dated,) = atomic_facts("In 1903, the museum was rebuilt for 30 million dollars.", "en")
    assert dated == "the museum was rebuilt for 30 million dollars in 1903"


def test_a_summary_that_states_the_key_fact_in_its_own_words_answers_it() -> None:
    judge = LexicalJudge()
    source = "The council voted on Tuesday, March 3, to build a new library on Elm Street."
    (q, *_) = judge.questions(source, 5).questions
    (v,) = judge.cover([q], "On March 3 the council voted to build a new library on Elm Street.").coverage
    assert v.answered, v.reason  # the weekday of a dated event is detail: its absence fails nothing
    (v,) = judge.cover([q], "The council voted to build a stadium.").coverage
    assert not v.answered


def test_the_bundled_library_questions_are_key_facts_that_a_faithful_summary_answers() -> None:
    row = json.loads((Path(__file__).parents[3] / "examples" / "summaries.jsonl").read_text().splitlines()[0])
    judge = LexicalJudge()
    qs = judge.questions(row["source"], 10).questions
    assert "Is it true that the building will cost $4.2 million?" in qs
    assert not any("said" in q for q in qs)  # "Mayor Helen Ortiz said ..." asks what she said, not that she said it
    answered = [v.answered for v in judge.cover(qs, row["summary"]).coverage]
    assert all(answered)
    half = "The town council of Millbrook voted to build a new public library. The building will cost $4.2 million."
    assert 0 < sum(v.answered for v in judge.cover(qs, half).coverage) < len(qs)


KEY_FACTS = ["Does Town0's council approve a 100 million dollar budget?", "Did Mayor Lind0 open 3 schools?"]


class KeyFactBrain:
    """A hosted judge that answers the questions step with key facts, most important first."""

    def __call__(self, request: RecordedRequest) -> Any:
        if request.step == "questions":
            return {"questions": KEY_FACTS}
        return {}


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    with openai_endpoint(monkeypatch, KeyFactBrain()) as srv:
        yield srv


def test_hosted_judges_are_asked_for_atomic_key_facts_and_the_exam_keeps_them_in_order(tmp_path, server) -> None:
    data = tmp_path / "data.jsonl"
    source = "The council of Town0 approved a budget of 100 million dollars. Mayor Lind0 opened 3 schools."
    data.write_text(json.dumps({"id": "a", "source": source, "summary": "A budget."}) + "\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["questions", str(data), "--model", "openai/test-model",
                                    "--out", str(tmp_path / "exam.jsonl")], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    (request,) = server.chat_requests(step="questions")
    assert "one atomic fact" in request.prompt and "most important facts first" in request.prompt
    assert "not quoted speech, datelines, captions, bylines" in request.prompt
    # only the key points, the main event first, max_questions a ceiling and not a quota
    assert "The first question asks the main event" in request.prompt
    assert "at most 10 and fewer for a short source (that number is a ceiling, not a quota)" in request.prompt
    assert "never a fragment without a verb" in request.prompt
    (entry,) = [json.loads(line) for line in (tmp_path / "exam.jsonl").read_text().splitlines()]
    assert entry["questions"] == KEY_FACTS and entry["prompt_version"] == PROMPT_VERSION == "4"


def test_a_run_on_sentence_gives_a_question_of_bounded_length() -> None:
    from sumjudge.summarization.offline.lexical import LexicalJudge

    source = "The committee met " + " ".join(f"member{i} and" for i in range(8000)) + " everyone agreed."
    questions = LexicalJudge().questions(source, 10).questions
    assert questions and all(len(q.split()) <= 30 for q in questions), [len(q) for q in questions]


def test_a_cut_fact_does_not_end_on_the_word_that_led_into_the_cut() -> None:
    sentence = ("The film was based on Anna Berg 's 1936 best-selling novel about a proud young widow from old Atlanta , "
                "played by Leigh , who falls for a rogue .")
    facts = atomic_facts(sentence, "en", 20)
    assert facts
    for fact in facts:
        assert fact.split()[-1].lower() not in {"played", "for", "to", "the", "and", "of", "by"}, fact


def test_a_cut_comparison_loses_the_words_whose_object_was_cut() -> None:
    sentence = ("People who walk at least 7,000 steps a day have a 47% lower risk of dying early than those who walk "
                "fewer than 4,000, according to a study published on Monday.")
    assert atomic_facts(sentence, "en", 20)[0].endswith("lower risk of dying early"), atomic_facts(sentence, "en", 20)


def test_a_long_fact_is_cut_after_its_main_verb_not_one_of_a_clause_before_it() -> None:
    sentence = ("A dress worn by Vivien Leigh when she played Scarlett O'Hara in the classic 1939 film Gone With the Wind "
                "has fetched $ 137,000 at auction .")
    [fact] = atomic_facts(sentence, "en", 20)
    assert "has fetched $ 137,000" in fact, fact


@pytest.mark.parametrize(
    ("fact", "question"),
    [
        ("Kenyan runner Faith Chepkoech won the race", "Is it true that Kenyan runner Faith Chepkoech won the race?"),
        ("The current Hour record is 52.491km", "Is it true that the current Hour record is 52.491km?"),
        ("Mayor Helen Ortiz opened the bridge", "Is it true that Mayor Helen Ortiz opened the bridge?"),
        ("Police closed the road", "Is it true that police closed the road?"),
        ("Mr Lawler worked at Clarence House", "Is it true that Mr Lawler worked at Clarence House?"),
        # a possessor that opens a sentence is a name, unless it is a common word
        ("Harwick's city council approved a budget", "Is it true that Harwick's city council approved a budget?"),
        ("Today's vote was close", "Is it true that today's vote was close?"),
    ],
)
def test_a_question_keeps_the_capital_of_a_name_or_a_people_and_drops_that_of_a_function_word(fact: str, question: str) -> None:
    from sumjudge.summarization.language.questions import phrase_question

    # "the" and "hour" stand capitalised elsewhere in the source ("Gone With The Wind", "the Hour")
    assert phrase_question(fact, "en", frozenset({"the", "hour", "helen", "ortiz"})) == question


def test_a_fact_of_two_that_clauses_is_cut_before_the_second() -> None:
    sentence = ("Developer Marcus Oyelaran of Riverline Homes had promised that 60 of the units would be rented below "
                "market rates and that the project would bring about $48 million in private investment to the east side .")
    [fact] = atomic_facts(sentence, "en", 20)
    assert fact.endswith("rented below market rates"), fact


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        # what was reported is a noun: the reporter is the fact's subject, not an attribution to cut
        ("The airline reported a net loss of 310 million dollars for the quarter , down from a profit .",
         "The airline reported a net loss of 310 million dollars"),
        # an amount opens the fact: "About" is no preposition here
        ("About one in four adults in the region has never used the new rail line .",
         "About one in four adults in the region has never used the new rail line"),
        # a quoted phrase of a few words is a phrase, not speech: the sentence still states its fact
        ('The governor called the ruling "deeply flawed" and said the state would appeal within 60 days .',
         "the state would appeal within 60 days"),
        # a long quotation after a statement: the statement is the article's own fact
        ('The coach said the club had paid 12 million pounds for the striker and praised him for "giving '
         'everything he had in every single game" .', "the club had paid 12 million pounds for the striker"),
    ],
)
def test_a_sentence_that_reports_or_quotes_still_gives_the_fact_it_states(sentence: str, fact: str) -> None:
    facts = atomic_facts(sentence, "en", 20)
    assert any(fact in f for f in facts), facts


@pytest.mark.parametrize(
    ("sentence", "broken"),
    [
        # a second subject whose verb is left out is no predicate to give the first subject
        ("Half the volunteers received the vaccine and half a placebo .", "volunteers half"),
        # "speed boats" is no verb: a list of nouns is not split into predicates
        ("Twelve fishing trawlers , speed boats and rescue craft from police and marine authorities assisted in "
         "the operation .", "trawlers , rescue"),
        # a modal's verb is a base form: never "would called"
        ("The union said it would fight the closure and called a strike for next Monday .", "would called"),
        # a weekday goes with its preposition: no fact ends on "for"
        ("The union said it would fight the closure and called a strike for next Monday .", " for"),
    ],
)
def test_a_split_or_cut_never_leaves_a_broken_fact(sentence: str, broken: str) -> None:
    facts = atomic_facts(sentence, "en", 20)
    assert facts and not any(broken in f or f.endswith(broken) for f in facts), facts


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        # a clause ends at a comma, never at a number's thousands separator
        ("The bridge, which carries about 18,000 vehicles a day, will stay shut for at least six weeks.",
         "The bridge will stay shut for at least six weeks"),
        ("The union, which represents 2,400 nurses, is demanding a 9% pay rise over two years.",
         "The union is demanding a 9% pay rise over two years"),
        ("The total paid out was £203,066, giving an average sum of £92.68.", "The total paid out was £203,066"),
    ],
)
def test_a_number_with_a_thousands_separator_stays_whole(sentence: str, fact: str) -> None:
    assert atomic_facts(sentence, "en", 20)[0] == fact


@pytest.mark.parametrize(
    "sentence",
    [
        'He said : "We will fight this decision all the way to the highest court in the land ."',
        "It was the best day of my life and I will never forget it , ' she added .",
    ],
)
def test_speech_gives_no_fact_where_nothing_stands_before_it(sentence: str) -> None:
    assert atomic_facts(sentence, "en", 20) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "The drug cut the risk of a second heart attack by 21 percent.",
        "The storm hit the coast near the harbour.",
        "The company put the plan on hold.",
    ],
)
def test_a_fact_whose_past_is_its_base_is_asked(sentence: str) -> None:
    [question] = LexicalJudge().questions(sentence, 3).questions
    assert fact_of_question(question).rstrip(".").lower() == sentence.rstrip(".").lower()


def test_a_noun_of_the_same_form_is_no_verb() -> None:
    assert LexicalJudge().questions("A sharp cut in the interest rate.", 3).questions == []


@pytest.mark.parametrize("sentence", [
    "The court upheld the ban on street parking in the old town.",
    "Rebels overthrew the elected government of the province in 2014.",
    "The city rebuilt the harbour wall after the storm of 1987.",
    "A jury found the former mayor guilty of fraud on Friday.",
])
def test_a_fact_whose_verb_is_an_irregular_compound_past_is_asked(sentence: str) -> None:
    [question] = LexicalJudge().questions(sentence, 1).questions
    assert sentence.rstrip(".").split()[2] in question, question


def test_rose_to_is_the_verb_of_what_was_said_so_who_said_it_is_cut() -> None:
    sentence = "The World Health Organization said on Thursday that measles cases in Europe rose to 127,000 last year."
    assert atomic_facts(sentence, "en", 20)[0] == "measles cases in Europe rose to 127,000 last year"


@pytest.mark.parametrize(
    ("sentence", "second"),
    [
        ("The company will close its plant in May and move production to Spain.", "The company will move production to Spain"),
        ("Halford's said it would close 45 of its 310 stores and cut about 2,100 jobs.", "Halford's said it would cut about 2,100 jobs"),
        # a second predicate in the past keeps no modal: never "would called"
        ("The union said it would fight the closure and called a strike for next Monday.", "The union said it called a strike"),
    ],
)
def test_a_second_predicate_keeps_the_modal_of_the_first(sentence: str, second: str) -> None:
    assert atomic_facts(sentence, "en", 20)[1] == second


@pytest.mark.parametrize(
    ("sentence", "second"),
    [
        (
            "A wildfire that started near Pine Hollow on Friday had burned about 3,200 hectares by Saturday and "
            "forced roughly 1,800 residents to leave their homes.",
            "A wildfire had forced roughly 1,800 residents to leave their homes",
        ),
        ("The man who was arrested on Monday was charged and released on bail.", "The man was released on bail"),
    ],
)
def test_a_second_predicate_takes_the_subject_without_its_relative_clause(sentence: str, second: str) -> None:
    # never "a wildfire that forced ...": a question with a subject and no verb
    assert atomic_facts(sentence, "en", 20)[1] == second


@pytest.mark.parametrize(
    ("sentence", "facts"),
    [
        # the speaker's second verb of saying: what follows is said too, not done by the first fact's subject
        ("The minister said the economy was growing, but warned that inflation could rise again.",
         ["the economy was growing", "inflation could rise again"]),
        # without the comma the verb may be the first fact's subject's own: it stays with it
        ("Witnesses told reporters that Bieber argued with security and said he could not stand in the crowd.",
         ["Bieber argued with security and said he could not stand in the crowd"]),
    ],
)
def test_a_second_thing_a_speaker_said_is_a_fact_of_its_own(sentence: str, facts: list[str]) -> None:
    assert atomic_facts(sentence, "en", 20) == facts


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        # a phrase that points back to another sentence goes; a date moves to the end and stays
        ("Until then, the company advised owners to limit charging to 80 percent.",
         "the company advised owners to limit charging to 80 percent"),
        ("In 1903, the museum was rebuilt after a fire.", "the museum was rebuilt after a fire in 1903"),
    ],
)
def test_an_opening_phrase_that_points_back_is_dropped_and_a_date_kept(sentence: str, fact: str) -> None:
    assert atomic_facts(sentence, "en", 20)[0] == fact
