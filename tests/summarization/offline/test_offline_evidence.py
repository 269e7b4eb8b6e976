"""The default offline judge on news text it was not tuned to.

Evidence from the whole document (a surname read with the full name given earlier), words the
source does not have (extrinsic), names and numbers taken from another part of the source
(intrinsic swaps), a pronoun that points at no one, and one default judge whatever extras are
installed, with an identity to put in a run's key.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sumjudge.errors import ConfigurationError
from sumjudge.judges.base import WrappedJudge, judge_identity
from sumjudge.judges.registry import resolve_judge
from sumjudge.summarization.offline import create_offline_judge
from sumjudge.summarization.offline.lexical import RULES_VERSION, LexicalJudge

NEWS = (
    "As the model for a famous wartime painting, Mary Doyle Keefe became a symbol of women working on the "
    "home front. She grew up in a small town and trained as a telephone operator after school. "
    "Her family later moved to Simsbury, Connecticut, where she raised four children. "
    "In 1958 she helped found a local choir that still performs every winter. "
    "Friends remember her as modest about the fame that came with the picture. "
    "As a 19-year-old telephone operator, Keefe posed for the painting in 1943. "
    "Keefe was paid $10 for two mornings of modeling work."
)


def _verdicts(judge: LexicalJudge, summary: str) -> list[tuple[bool, str]]:
    return [(v.supported, v.reason) for v in judge.align(NEWS, summary).alignment]


@pytest.fixture
def judge() -> LexicalJudge:
    made = create_offline_judge("lexical")
    assert isinstance(made, LexicalJudge)
    return made


def test_a_faithful_compression_with_the_surname_resolved_across_sentences_passes(judge: LexicalJudge) -> None:
    # "Mary Doyle" is five sentences away from "Keefe posed": the full name lends its parts to the surname
    [(supported, reason)] = _verdicts(judge, "Mary Doyle Keefe posed for the painting as a 19-year-old telephone operator.")
    assert supported, reason
    assert "sentence 6" in reason


def _unchecked(judge: LexicalJudge, summary: str) -> list[tuple[bool, bool, str]]:
    return [(v.supported, v.unchecked, v.reason) for v in judge.align(NEWS, summary).alignment]


def test_an_extrinsic_name_or_number_fails_and_a_word_is_left_unchecked(judge: LexicalJudge) -> None:
    # a word the source lacks shows no error (a paraphrase looks the same), so the claim is
    # supported, flagged unchecked, and the reason names the word and the passage
    [(ok_word, flag, word)] = _unchecked(judge, "As a 19-year-old telephone operator, Keefe reluctantly posed for the painting in 1943.")
    assert ok_word and flag and "no contradiction found" in word and "'reluctantly'" in word and "sentence 6" in word
    [(ok_swap, flag, swap)] = _unchecked(judge, "Keefe was paid $10 for two evenings of modeling work.")
    assert ok_swap and flag and "'evenings'" in swap and "a paraphrase cannot be checked by words" in swap
    [(ok_name, name)] = _verdicts(judge, "As a 19-year-old telephone operator, Keefe posed for the painting in Boston.")
    assert not ok_name and "'Boston' does not occur in the source" in name
    [(ok_number, number)] = _verdicts(judge, "Keefe was paid $25 for two mornings of modeling work.")
    assert not ok_number and "'25' does not occur in the source; it says '10'" in number


def test_forms_of_source_words_and_words_without_a_fact_are_not_extrinsic(judge: LexicalJudge) -> None:
    # "sang"/"posing": inflections; "reportedly": states no fact of its own
    [(supported, reason)] = _verdicts(judge, "Keefe reportedly posed for the painting in 1943.")
    assert supported, reason


def test_an_intrinsic_swap_fails_with_the_passage_and_its_own_figure(judge: LexicalJudge) -> None:
    [(ok_year, year)] = _verdicts(judge, "As a 19-year-old telephone operator, Keefe posed for the painting in 1958.")
    assert not ok_year
    assert "'1958' is in the source (sentence 4) but not in the passage that states the rest" in year
    assert "it says '1943'" in year
    # a name from elsewhere with no other name in its place shows no error (a summary joins distant
    # facts): supported, unchecked, and the reason says where the source has it
    [(ok_place, flag, place)] = _unchecked(judge, "As a 19-year-old telephone operator, Keefe posed for the painting in Simsbury.")
    assert ok_place and flag and "'simsbury'" in place and "(sentence 6:" in place


def test_a_pronoun_that_opens_the_summary_points_at_no_one(judge: LexicalJudge) -> None:
    [(supported, reason)] = _verdicts(judge, "She posed for the painting in 1943.")
    assert not supported and "'She' points back to no one" in reason
    named = _verdicts(judge, "Keefe posed for the painting in 1943. She was paid $10 for two mornings of modeling work.")
    assert [s for s, _ in named] == [True, True], named


def test_the_korean_copula_is_an_inflection_not_an_unknown_word(judge: LexicalJudge) -> None:
    source = "부산시는 3일 도시철도 5호선 건설 계획을 발표했다. 새 노선은 총 길이 12킬로미터이며 정거장 10곳을 지난다."
    verdicts = judge.align(source, "새 노선은 12킬로미터 길이다.").alignment
    assert [v.supported for v in verdicts] == [True], [v.reason for v in verdicts]


_PROBE = r"""
import json, sys
for name in sys.argv[1:]:
    sys.modules[name] = None  # the module cannot be imported, as on a plain install
from sumjudge.summarization.offline import create_offline_judge
texts = json.load(sys.stdin)
judge = create_offline_judge("lexical")
out = {"fingerprint": judge.fingerprint, "verdicts": []}
for source, summary in texts:
    out["verdicts"].append([v.model_dump() for v in judge.align(source, summary).alignment])
    qs = judge.questions(source, 10).questions
    out["verdicts"].append([qs, [v.model_dump() for v in judge.cover(qs, summary).coverage]])
print(json.dumps(out, sort_keys=True))
"""


def _probe(hidden: list[str], texts: list[tuple[str, str]]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *hidden], input=json.dumps(texts), capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_the_default_judges_alike_with_and_without_the_optional_extras() -> None:
    from test_offline_reader_cases import CASES

    texts = [(c.source, c.summary) for c in CASES] + [
        (NEWS, "Mary Doyle Keefe posed for the painting as a 19-year-old telephone operator."),
        (NEWS, "Keefe froze when she was paid $25 for the painting."),
    ]
    everything = _probe([], texts)
    plain = _probe(["wordfreq", "simplemma", "Stemmer"], texts)
    assert plain == everything


def test_the_opt_in_judge_shows_in_its_id_and_needs_its_extras() -> None:
    pytest.importorskip("wordfreq")
    pytest.importorskip("simplemma")
    judge = resolve_judge("offline/lexical+wordfreq")
    assert judge.model_id == "offline/lexical+wordfreq"
    assert "wordfreq=" in judge_identity(judge)
    code = "import sys; sys.modules['wordfreq'] = None\nfrom sumjudge.summarization.offline import create_offline_judge\n"
    code += "create_offline_judge('lexical+wordfreq')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0 and "pip install 'sumjudge[wordfreq,lemmas]'" in done.stderr
    assert ConfigurationError.__name__ in done.stderr


def test_a_judge_has_an_identity_for_the_run_key(judge: LexicalJudge) -> None:
    identity = judge_identity(judge)
    assert identity == judge.fingerprint
    assert identity.startswith(f"offline/lexical@{RULES_VERSION}+snowballstemmer=")
    assert judge.judge_version.startswith(f"rules {RULES_VERSION}")
    assert judge_identity(WrappedJudge(judge)) == identity  # a cache or meter answers for its judge

    class Remote:
        model_id = "openai/gpt-4o-mini"

    assert judge_identity(Remote()) == "openai/gpt-4o-mini"  # type: ignore[arg-type]
    assert identity != judge_identity(LexicalJudge(type(judge.settings)(window=3)))


def test_a_word_added_in_no_slot_of_the_passage_passes_while_most_of_the_claim_is_found(judge: LexicalJudge) -> None:
    # "iconic" stands between "posed" and "painting", which the passage has side
    # by side: an addition (what paraphrase adds), not a substitution
    [(supported, reason)] = _verdicts(judge, "As a 19-year-old telephone operator, Keefe posed for the iconic painting in 1943.")
    assert supported, reason
    # three added words leave half of the claim's weight found: not checked, and said so
    [(supported, flag, reason)] = _unchecked(judge, "Keefe posed for the iconic, glamorous, celebrated painting.")
    assert supported and flag and "3 of 6 content words not in the source: 'iconic', 'glamorous', 'celebrated'" in reason


def test_a_source_word_put_in_another_words_slot_is_unchecked_with_the_word_it_displaced(judge: LexicalJudge) -> None:
    # "choir" is in the source (sentence 4), but here it stands where the passage has "town"
    # a word in another's slot is what an edit and a paraphrase both look like: unchecked
    [(supported, flag, reason)] = _unchecked(judge, "Keefe grew up in a small choir.")
    assert supported and flag
    assert "'choir' (the passage has 'town' there)" in reason, reason
    [(supported, reason)] = _verdicts(judge, "Keefe grew up in a quiet small town.")
    assert supported, reason


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("The French president met workers at the plant on Monday.", "France's president met workers at the plant on Monday.", True),
        ("The Danish shipping group Maersen reported a profit.", "Denmark's Maersen reported a profit.", True),
        ("Britain's prime minister visited the plant.", "The British prime minister visited the plant.", True),
        # another country is still another country
        ("The French president met workers at the plant on Monday.", "Germany's president met workers at the plant on Monday.", False),
    ],
)
def test_a_country_and_its_peoples_adjective_name_the_same_place(source: str, summary: str, supported: bool) -> None:
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported is supported, v.reason
