"""Whether a piece of text reads as a fact a question can ask: it opens with a subject, shows a finite
verb, speaks in no first person and names whom it is about (English, words only: no tagger). What
:mod:`.facts` cuts from a source sentence is kept only where these hold."""

from __future__ import annotations

from .clauses import EN_AUX, WORD
from .lexicon import AMBIGUOUS_PASTS, DATE_WORDS, NUMBER_WORDS, SAME_FORM_PASTS, ed_verb, ends_in_s, irregular_past

_PRONOUN = frozenset("he she they it this that these those we i you him her them his its their".split())
_DETERMINERS = frozenset("the a an his her their its our my your this that these those of 's ' every each some any no".split())
_NOT_A_START = frozenset(
    "in on at for with to from by of that which who whose where when while as if than and or but nor so then "
    "was were is are be been being has have had will would can could may might must shall should did does do "
    "noted adding saying according without during despite among through including about like unlike into "
    "onto over under within against until whether how why what here imagine having "
    # a verb of saying or thinking with no subject before it: "say that just as antibiotics are used ..."
    "say says claim claims argue argues warn warns insist insists believe believes think thinks suggest suggests "
    "admit admits".split()
)
_OBJECTS = frozenset("the a an his her their its our my your him them us me others people".split())
"""Words that follow a verb, not a subject: a fact opening "inspires others" lost its subject."""
_FIRST_PERSON = frozenset("i we me my our us mine ours i'm i've we're we've".split())


def first_person(fact: str, lang: str = "en") -> bool:
    """The fact speaks in the first person ("it was a day i have often tried to forget"): a speaker's or
    a columnist's voice, not a fact the article reports (English words only)."""
    return lang == "en" and any(w.lower() in _FIRST_PERSON for w in fact.split())


def verb_at(low: list[str], i: int, in_s: bool = True) -> bool:
    """The lower-cased word ``low[i]`` reads as a finite verb: an auxiliary, an irregular past, a word
    in -ed, or (``in_s``) one in -s that no determiner precedes (a words-only guess, no tagger; a
    plural noun in -s passes for a verb too)."""
    w = low[i]
    if w in EN_AUX or w in {"'s", "'re", "'ve", "'ll", "'d", "'m", "am"}:
        return True
    if i == 0 or low[i - 1] in _DETERMINERS:
        return False
    if irregular_past(w) or ed_verb(w):
        return True
    return in_s and ends_in_s(w) and low[i - 1] not in _NOT_A_START


def _has_verb(words: list[str], in_s: bool = True) -> bool:
    """Some word of ``words`` reads as a finite verb (:func:`verb_at`)."""
    low = [w.lower() for w in words]
    return any(verb_at(low, i, in_s) for i in range(len(low)))


_OBJECT_OPENERS = frozenset(
    "the a an its his her their our my this that these those some all no him them it us back off down up out".split()
) | frozenset(NUMBER_WORDS)


_READ_BY_ITS_OBJECT = SAME_FORM_PASTS | AMBIGUOUS_PASTS
_CHANGE_LINKS = frozenset({"to", "by", "from"})
"""After "rose", what a change of level leads with ("cases rose to 127,000", "rose by 3%")."""


def shows_a_verb(fact: str, in_s: bool = True) -> bool:
    """English: some word of ``fact`` reads as a finite verb (an auxiliary, an irregular past, a word
    in -ed, or with ``in_s`` one in -s): a date line or a caption ("08:48 EST, 3 February 2014") shows
    none. Without ``in_s`` a plural noun ("euros") is not taken for a verb. A past the same as its base
    ("cut", "hit", "put"), or one that is also a word of its own ("found", "left", "rose"), counts
    between a word that is no determiner nor preposition and the opening of an object ("The drug cut
    the risk", "cut 200 jobs", "A jury found the mayor guilty"; not "a sharp cut in rates"), and "rose"
    before "to", "by" or "from"."""
    words = fact.split()
    low = [w.lower() for w in words]
    return _has_verb(words, in_s) or any(w in {"won", "wins", "win", "leads", "led"} for w in low) or any(
        w in _READ_BY_ITS_OBJECT and 0 < i < len(low) - 1 and low[i - 1] not in _DETERMINERS
        and low[i - 1] not in _NOT_A_START
        and (low[i + 1] in _OBJECT_OPENERS or low[i + 1][:1].isdigit() or (w == "rose" and low[i + 1] in _CHANGE_LINKS))
        for i, w in enumerate(low)
    )


def antecedent(words: list[str]) -> str:
    """What a relative clause after ``words`` is about: the words themselves ("Anuradha Koirala , who
    ..."), or, where they hold a verb, what follows its last one ("the team will need Miller , who
    ..." -> "Miller"): the subject of the relative clause's own fact."""
    low = [w.lower() for w in words]
    verbs = [i for i in range(len(low)) if verb_at(low, i, in_s=False)]  # "Chris Williams" holds none
    return " ".join(words[verbs[-1] + 1:] if verbs else words)


def states_a_fact(fact: str) -> bool:
    """English: the fact opens with a subject, not a verb, a preposition or a conjunction ("was too
    late for matt", "noted that wherever ...", "inspires others to ..." do not; "That 's what
    happened" does), and says more than a date ("friday , april 3")."""
    words = [w for w in fact.split() if WORD.search(w)]
    if len(words) < 3:
        return False
    if all(w.lower() in DATE_WORDS or w.isdigit() for w in words):
        return False  # "friday , april 3": a date line, no fact
    first, second = words[0].lower(), words[1].lower()
    if first in {"that", "this"} and (second in EN_AUX or second in {"'s", "s"}):
        return True
    amount = second[:1].isdigit() or second in NUMBER_WORDS or second in {"one", "a", "half"}
    if first in {"about", "over"} and amount and _has_verb(words, in_s=False):
        return True  # "About one in five people has ...": an amount is the subject ("about two weeks ago" is none)
    if words[0][:1].islower() and first.endswith("s") and not first.endswith("ss") and second in _OBJECTS:
        return False  # "inspires others to think": a predicate whose subject was cut off
    return not (first in _NOT_A_START or (first.endswith(("ed", "ing")) and words[0][:1].islower()))


def opens_with_pronoun(fact: str) -> bool:
    """The fact's subject is a pronoun ("she has offered ..."): it does not say whom it is about."""
    first = fact.split(None, 1)[0].lower().strip("'’,") if fact.strip() else ""
    return first in _PRONOUN
