"""The offline judge's rules as a list: docs/offline-judge.md's table is the list, each rule returns only
the findings it declares, and a rule added to the list is run like the others."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from sumjudge.summarization.language.passages import dangling_pronoun
from sumjudge.summarization.offline.findings import (
    CONCLUSIONS, Doubt, Finding, Look, Rule, Settled, Wrong,
)
from sumjudge.summarization.offline.lexical import LexicalJudge
from sumjudge.summarization.offline.rule_list import RULES, judge_claim, rules_table
from sumjudge.summarization.verdicts import AlignmentVerdict

ROOT = Path(__file__).resolve().parents[3]
MARK = "<!-- rules-table:"
SOURCE = (
    "The town council of Millbrook voted on Tuesday to build a new public library on Elm Street. "
    "The building will cost $4.2 million and is expected to open in September 2026."
)


def _doc_table() -> str:
    text = (ROOT / "docs" / "offline-judge.md").read_text(encoding="utf-8")
    assert MARK in text, "docs/offline-judge.md has lost the marker above the table of the rules"
    after = text.split(MARK, 1)[1].split("\n", 1)[1]
    return after.split("\n\n", 1)[0].strip()


def test_the_docs_table_of_the_rules_is_the_list_the_judge_runs() -> None:
    expected = rules_table()
    assert _doc_table() == expected, (
        "docs/offline-judge.md's table of the rules differs from offline/rule_list.py's RULES; "
        f"put this under the '{MARK}' line:\n{expected}"
    )


def test_each_rule_has_its_own_name_a_one_line_description_and_a_kind_of_finding() -> None:
    names = [r.name for r in RULES]
    assert len(set(names)) == len(names)
    for rule in RULES:
        assert rule.reads and "\n" not in rule.reads and "|" not in rule.reads, rule.name
        assert rule.concludes and set(rule.concludes) <= set(CONCLUSIONS), rule.name
        assert rule.scope in ("claim", "passage"), rule.name
    # the judge runs the claim's rules before the passages': the list is written in that order
    scopes = [r.scope for r in RULES]
    assert scopes == sorted(scopes, key=["claim", "passage"].index)


def _pairs() -> list[tuple[str, str]]:
    """Sources and summaries of the bundled examples, and claims made to set off the rules that shows
    errors (a wrong number, a negation, an antonym, a swap, a reversed link, a plan as done, a denial)."""
    pairs = []
    for name in ("summaries.jsonl", "summaries_b.jsonl", "pairs.jsonl"):
        for line in (ROOT / "examples" / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            kinds = ("summary", "reference_summary", "edited_summary")
            pairs += [(row["source"], row[k]) for k in kinds if isinstance(row.get(k), str)]
    made = [
        "The building will cost $9.5 million.", "The council did not vote to build a library.",
        "It is false that the building will cost $4.2 million.", "None of this is true.",
        "The council rejected the library.", "The library opened in September 2026.",
        "The council voted after Tuesday to build a library on Elm Street.",
        "Elm Street voted to build the town council of Millbrook.", "He said the library will cost $4.2 million.",
    ]
    contest = (
        "Faith Chepkoech won the Berlin marathon on Sunday, beating Almaz Tesfaye by two minutes. The minister "
        "resigned after the vote on the budget. The driver was injured in the crash. Officials said the bridge "
        "will reopen in May. The dryer weighed 70 kilograms. Mayor Ana Lopez approved the plan."
    )
    turned = [
        "Almaz Tesfaye won the Berlin marathon on Sunday, beating Faith Chepkoech.",
        "The minister resigned before the vote on the budget.", "The driver was unhurt in the crash.",
        "The bridge reopened in May.", "The dryer weighed 70 tonnes.", "Mayor Ana Lopez rejected the plan.",
    ]
    pairs += [(contest, m) for m in turned]
    return pairs + [(SOURCE, m) for m in made]


def _checked(rule: Rule, fired: dict[str, set[type]]) -> Rule:
    def find(look: Look) -> Finding:
        finding = rule.find(look)
        if finding is not None:
            assert isinstance(finding, rule.concludes), (rule.name, finding)
            fired.setdefault(rule.name, set()).add(type(finding))
        return finding

    return replace(rule, find=find)


def _verdicts(judge: LexicalJudge, source: str, summary: str, rules: tuple[Rule, ...]) -> list[AlignmentVerdict]:
    """The verdicts ``judge.align`` gives, by ``rules``."""
    doc = judge.reading.document(source)
    analyser = judge.reading.analyser(doc.lang)
    named = dangling_pronoun(doc.sentences[0].text, doc.lang, False, judge.data)[0] is not None
    verdicts = []
    for claim in judge.claims(summary, doc.lang, doc.caps):
        opening, named = dangling_pronoun(claim.text, doc.lang, named, judge.data)
        verdicts.append(judge_claim(claim, doc, analyser, judge.settings, opening, rules))
    return verdicts


def test_each_rule_returns_only_the_findings_it_declares() -> None:
    judge = LexicalJudge()
    fired: dict[str, set[type]] = {}
    checked = tuple(_checked(r, fired) for r in RULES)
    for source, summary in _pairs():
        assert _verdicts(judge, source, summary, checked) == judge.align(source, summary).alignment
    # the examples set off rules of every kind of finding
    assert {Wrong, Doubt, Settled} <= set().union(*fired.values()), fired
    assert len(fired) >= 14, sorted(fired)


def test_a_rule_added_to_the_list_is_run_in_its_place() -> None:
    judge = LexicalJudge()
    stated = "The building will cost $4.2 million."
    (before,) = _verdicts(judge, SOURCE, stated, RULES)
    assert before.supported and not before.unchecked and before.reason.startswith("stated in source")

    def no_money(look: Look) -> Finding:
        return Wrong(("money is never stated",), look.ev) if "$" in look.claim.text else None

    def doubt_money(look: Look) -> Finding:
        return Doubt(("money needs a second look",)) if "$" in look.claim.text else None

    wrong = Rule("no money", "a dollar sign", "passage", (Wrong,), no_money)
    (after,) = _verdicts(judge, SOURCE, stated, RULES + (wrong,))
    assert not after.supported and after.reason == "money is never stated" and after.quote == before.quote

    doubt = Rule("money doubted", "a dollar sign", "claim", (Doubt,), doubt_money)
    (doubted,) = _verdicts(judge, SOURCE, stated, (doubt,) + RULES)
    assert doubted.supported and doubted.unchecked and "money needs a second look" in doubted.reason


@pytest.mark.parametrize("english_only", [True, False])
def test_an_english_only_rule_is_not_run_on_another_language(english_only: bool) -> None:
    judge = LexicalJudge()
    source = "Der Stadtrat von Millbrook hat am Dienstag beschlossen, eine neue Bibliothek zu bauen."
    rule = Rule("everything wrong", "anything", "claim", (Wrong,), lambda look: Wrong(("wrong",), None), english_only)
    (verdict,) = _verdicts(judge, source, source, (rule,) + RULES)
    assert verdict.supported is english_only
