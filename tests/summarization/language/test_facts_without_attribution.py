"""A key fact is what was said, not who said it: ", the U.S. Consumer Product Safety Commission said
Thursday" is cut like ", police said on Monday", and a fact never keeps the attribution beside a
broken verb phrase ("Brightway Appliances melt, the ... Commission said Thursday")."""

from __future__ import annotations

import pytest

from sumjudge.summarization.language.facts import atomic_facts
from sumjudge.summarization.offline.lexical import LexicalJudge

SOURCE = (
    "Brightway Appliances is recalling 84,000 dryers whose coils overheat and melt, the U.S. Consumer "
    "Product Safety Commission said Thursday. The company has received 38 reports of overheating. "
    "Owners should contact Brightway for a free repair."
)


@pytest.mark.parametrize("when", ["Thursday", "Thursday night", "on Thursday", "Thursday in a statement"])
def test_an_attribution_with_a_bare_weekday_is_cut(when: str) -> None:
    sentence = f"Brightway Appliances is recalling 84,000 dryers, the U.S. Consumer Product Safety Commission said {when}."
    assert atomic_facts(sentence, "en") == ["Brightway Appliances is recalling 84,000 dryers"]


def test_no_question_keeps_an_attribution_or_a_verb_without_its_subject() -> None:
    questions = LexicalJudge().questions(SOURCE, 6).questions
    assert not any("said" in q or "Brightway Appliances melt" in q for q in questions), questions
    assert any("recalling 84,000 dryers" in q for q in questions), questions
