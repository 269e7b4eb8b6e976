"""A summary as coverage reads it (its sentences, units and numbers, and each question's fact), and
the ways a summary may give a fact's names other than as the fact writes them: by initials, by a
company's short form, or (Korean) letter for letter where the analyser cut the name otherwise."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

from ..language.units import Sentence, TextAnalyzer, capitalised_words
from ..language.korean_units import KoreanSentence
from ..language.numbers import all_keys
from ..language.questions import fact_of_question
from ..language.segment import detect_language, split_sentences


@dataclass(frozen=True)
class SummaryRead:
    """A summary as coverage reads it, with each question's fact."""

    analyser: TextAnalyzer
    sentences: list[Sentence]
    units: frozenset[str]
    facts: list[Sentence]
    numbers: frozenset[str] = frozenset()
    """Every value the summary's numbers may stand for (:attr:`.units.Sentence.number_keys`)."""
    acronyms: frozenset[str] = frozenset()
    """The summary's words in capitals ("WHO"), each of which may stand for a fact's name."""

    def closest(self, fact: Sentence) -> Sentence | None:
        """The summary sentence that carries most of ``fact``."""
        return max(self.sentences, key=lambda s: fact.weight_of(s.units & fact.units)) if self.sentences else None


def read_summary(analyser_of: Callable[[str], TextAnalyzer], questions: list[str], summary: str) -> SummaryRead:
    """``summary`` analysed in the questions' language, and the fact each question asks about."""
    analyser = analyser_of(detect_language(" ".join(questions)))
    caps = capitalised_words(summary)
    sentences = [analyser.analyse(s, capitalised_elsewhere=caps) for s in split_sentences(summary)]
    units: frozenset[str] = frozenset().union(*(s.units for s in sentences))
    facts = [analyser.analyse(fact_of_question(q), capitalised_elsewhere=caps) for q in questions]
    numbers = frozenset().union(*(all_keys(s.number_keys) for s in sentences))
    if analyser.lang == "en" and _BOTH.search(summary):
        numbers |= {"2"}  # "keeping both open" counts the fact's "two schools"
    return SummaryRead(analyser, sentences, units, facts, numbers, frozenset(_ACRONYM.findall(summary)))


_BOTH = regex.compile(r"(?i)\bboth\b")
""""Both" is a count of two: a summary that says it holds a fact's "two"."""
_ACRONYM = regex.compile(r"\b\p{Lu}{2,6}\b")
_NAME_RUN = regex.compile(r"\p{Lu}[\p{L}'’-]*(?:\s+(?:(?:of|the|and|for)\s+)?\p{Lu}[\p{L}'’-]*)+")


def named_by_acronym(fact: Sentence, read: SummaryRead) -> frozenset[str]:
    """The fact's name units that a capitalised run of it holds where the summary writes the run's
    initials ("World Health Organization" where the summary says "the WHO")."""
    if not read.acronyms:
        return frozenset()
    out: set[str] = set()
    for m in _NAME_RUN.finditer(fact.text):
        if "".join(w[0] for w in m.group().split() if w[:1].isupper()) in read.acronyms:
            out |= read.analyser.analyse(m.group()).units & set(fact.names)
    return frozenset(out)


_DESIGNATORS = frozenset(
    "inc incorporated corp corporation co company companies ltd limited llc plc group holdings partners"
    " enterprises international industries appliances electronics motors airlines airways foods"
    " technologies systems brands products".split()
)
"""The generic last words of a company's name ("Brightway Appliances", "Calder Foods Inc."): its
short form leaves them out."""


def named_by_short_form(fact: Sentence, read: SummaryRead) -> frozenset[str]:
    """The fact's name units that are generic last words of a capitalised run of it (:data:`_DESIGNATORS`)
    where the summary holds every other word of the run: "Brightway" is "Brightway Appliances"."""
    out: set[str] = set()
    for m in _NAME_RUN.finditer(fact.text):
        words = m.group().split()
        cut = len(words)
        while cut > 1 and words[cut - 1].lower() in _DESIGNATORS:
            cut -= 1
        short = " ".join(words[:cut])
        own = read.analyser.analyse(short).units
        if cut < len(words) and own and own <= read.units and _alone(short, read):
            out |= read.analyser.analyse(" ".join(words[cut:])).units & set(fact.names)
    return frozenset(out)


def named_as_written(fact: Sentence, read: SummaryRead) -> frozenset[str]:
    """The Korean fact's names that the summary writes letter for letter: the analyser may cut one
    name two ways in two sentences (의성군 as one proper noun, or 의성 and 군)."""
    if not isinstance(fact, KoreanSentence):
        return frozenset()
    text = " ".join(s.text for s in read.sentences)
    return frozenset(n for n in fact.names if len(fact.name_forms.get(n, "")) > 1 and fact.name_forms[n] in text)


def _alone(short: str, read: SummaryRead) -> bool:
    """Whether the summary writes ``short`` as a name of its own: not followed by another capitalised
    word or generic last word ("Brightway Electronics" is another company)."""
    pattern = regex.compile(rf"(?i)(?<![\p{{L}}\p{{N}}]){regex.escape(short)}(?![\p{{L}}\p{{N}}])(?:\s+([\p{{L}}'’-]+))?")
    for s in read.sentences:
        for m in pattern.finditer(s.text):
            nxt = m.group(1) or ""
            if not nxt[:1].isupper() and nxt.lower() not in _DESIGNATORS:
                return True
    return False


__all__ = ["SummaryRead", "named_as_written", "named_by_acronym", "named_by_short_form", "read_summary"]
