"""Roles: does a claim swap who did what to whom ("Jones defeated Smith" for "Smith defeated Jones",
"the man bit the dog" for "the dog bit the man")? One of the checks behind an alignment verdict
(:mod:`.support`, rule 4).

Two words of the claim swap sides around the word between them in a passage sentence of the same
voice; in Korean, two words swap their subject and object particles. In English the
middle word must read as a verb on both sides, the two words must be no verbs, nothing listed may
stand between them, and the same prepositions must stand between the verb and its object: a noun
compound ("Arsenal playmaker Mesut Ozil"), a list ("purple, yellow and blue") or a role marked by a
preposition ("antibiotics given to babies" / "babies given antibiotics") is no swap.
"""

from __future__ import annotations

from itertools import pairwise

import regex

from ..language.units import Sentence
from ..language.passages import Window
from ..language.lexicon import IRREGULAR_EN, IRREGULAR_PLURALS
from ..language.segment import quote
from ..language.tokens import WORD_OR_MARK


def role_swap(
    claim: Sentence, window: Window, distance: int, passive: regex.Pattern[str] | None = None, lang: str = ""
) -> str | None:
    """A reason when two words of the claim swap sides around the word between them in a window
    sentence ("Jones defeated Smith" for "Smith defeated Jones", "the man bit the dog" for "the dog
    bit the man"), unless one of the two is passive there and the other active (a paraphrase).
    ``passive`` (the language's passive pattern) decides the voice of the phrase holding that middle
    word; without one, of the whole sentence. Numbers are left to the number check. In English the
    middle word must be a verb and the two its participants (:func:`_english_roles`)."""
    for s in window.sentences:
        flipped = [w for w, r in claim.case_roles.items() if s.case_roles.get(w, r) != r]
        if len(flipped) >= 2:  # one particle alone (은/는 for 이/가) is a change of focus as often as of role
            shown = " and ".join(repr(w) for w in flipped[:2])
            return f'{shown} swap roles (subject and object): the source says "{quote(s.text, 100)}"'
    if lang == "ko" and (crossed := _roles_across(claim, window)):
        return crossed
    seq = claim.sequence
    for i in range(len(seq) - 2):
        a, v, b = seq[i : i + 3]
        if len({a, v, b}) < 3 or any(u.startswith("#") for u in (a, v, b)):
            continue
        for s in window.sentences:
            pa, pv, pb = s.positions.get(a), s.positions.get(v), s.positions.get(b)
            if not (pa and pv and pb) or _passive_at(s, v, passive) != _passive_at(claim, v, passive):
                continue
            kept = any(x < y < z and z - x <= distance for x in pa for y in pv for z in pb)
            swapped = any(z < y < x and x - z <= distance for x in pa for y in pv for z in pb)
            if swapped and not kept and (lang != "en" or _english_roles(claim, s, a, v, b)):
                f = claim.forms
                return (
                    f"{f.get(a, a)!r} and {f.get(b, b)!r} swap roles around {f.get(v, v)!r}: "
                    f'the source says "{quote(s.text, 100)}"'
                )
    return None


_VERB_FORMS = frozenset(f for f in IRREGULAR_EN if f not in IRREGULAR_PLURALS) | frozenset(
    b for f, b in IRREGULAR_EN.items() if f not in IRREGULAR_PLURALS
)
AUXILIARIES_EN = frozenset(
    "is was are were be been being has have had do does did will would can could may might must shall should"
    .split()
)
# Words that join two participants as equals ("purple, yellow and blue") or mark a role by themselves
# ("given to babies", "held by his mother"): word order then says nothing of who did what to whom.
_LIST_WORDS = frozenset({"and", "or", "nor", "&"})
PREPOSITIONS_EN = frozenset(
    "to by from with for of in on at into onto about against over under after before than as".split()
)


_SYMMETRIC_EN = frozenset("met meets married marries faced faces played plays dated dates merged merges".split())
"""Verbs whose subject and object say the same fact either way round ("Smith met Jones")."""
_PASSED_EN = frozenset("passed passes cleared clears".split())
_CHAMBERS_EN = frozenset(
    "senate house parliament congress assembly committee council chamber lords commons bill law motion budget "
    "measure legislation".split()
)
"""A bill passes a chamber as a chamber passes a bill: "passed" and "cleared" with one of these."""


def _symmetric(verb: str, a: str, b: str) -> bool:
    """The claim's "a verb b" and the source's "b verb a" state one fact (:data:`_SYMMETRIC_EN`)."""
    low = verb.lower()
    return low in _SYMMETRIC_EN or (low in _PASSED_EN and bool({a.lower(), b.lower()} & _CHAMBERS_EN))


def verb_like(form: str, before: str) -> bool:
    """An English word form that reads as a verb: "-ed", an irregular form ("held", "bit"), a third
    person "-s" of one ("beats"), or a word right after an auxiliary ("was held", "will beat")."""
    low = form.lower()
    if not form or form[0].isupper() or low.endswith("ing"):
        return False
    if low.endswith("ed") or low in _VERB_FORMS or before in AUXILIARIES_EN:
        return True
    return low.endswith("s") and (low[:-1] in _VERB_FORMS or low[:-2] in _VERB_FORMS)


def _words(sentence: Sentence) -> list[str]:
    return [w.lower() for w in WORD_OR_MARK.findall(sentence.text)]


def _span(words: list[str], first: str, middle: str, last: str) -> tuple[list[str], list[str], str] | None:
    """The words between ``first`` and ``middle`` and between ``middle`` and ``last`` (forms, lower
    case) where they stand in that order closest together, and the word before ``middle``."""
    best: tuple[list[str], list[str], str] | None = None
    for j, w in enumerate(words):
        if w != middle:
            continue
        left = [i for i in range(j) if words[i] == first]
        right = [k for k in range(j + 1, len(words)) if words[k] == last]
        if left and right:
            i, k = left[-1], right[0]
            if best is None or k - i < len(best[0]) + len(best[1]) + 2:
                best = (words[i + 1 : j], words[j + 1 : k], words[j - 1] if j else "")
    return best


def _english_roles(claim: Sentence, source: Sentence, a: str, v: str, b: str) -> bool:
    """Whether "a v b" in the claim and "b v a" in ``source`` are a subject, a verb and its object
    each: the middle word is a verb in both (not a noun of a compound, "Arsenal playmaker Mesut Ozil",
    nor a name, "Apple watch"), the outer two are no verbs, no list word or punctuation stands between
    them ("purple, yellow and blue"), and the same prepositions (none, or "by" in "was beaten by")
    stand between the verb and its object on both sides: where one side marks the role with its own
    ("antibiotics given to babies", "babies given antibiotics") the order says nothing; and the verb
    is not one that states the same fact either way round ("met", "the bill passed the Senate")."""
    cf, sf = claim.forms, source.forms
    mine = _span(_words(claim), cf.get(a, "").lower(), cf.get(v, "").lower(), cf.get(b, "").lower())
    theirs = _span(_words(source), sf.get(b, "").lower(), sf.get(v, "").lower(), sf.get(a, "").lower())
    if mine is None or theirs is None:
        return False
    if not (verb_like(cf.get(v, ""), mine[2]) and verb_like(sf.get(v, ""), theirs[2])):
        return False
    if _symmetric(cf.get(v, ""), cf.get(a, ""), cf.get(b, "")):
        return False
    for form in (cf.get(a, ""), cf.get(b, "")):
        low = form.lower()
        if low.endswith(("ed", "ing")) or (low in _VERB_FORMS and form[:1].islower()):
            return False
    for before, after in (mine[:2], theirs[:2]):
        if any(w in _LIST_WORDS or not w[0].isalnum() for w in before + after):
            return False
    return {w for w in mine[1] if w in PREPOSITIONS_EN} == {w for w in theirs[1] if w in PREPOSITIONS_EN}


def _roles_across(claim: Sentence, window: Window) -> str | None:
    """Korean: two named participants whose case roles the passage, read as one, gives the other way
    round ("박정민 후보가 ... 제치고" and "이창호 후보를 따돌렸고" in the next sentence, where the claim
    has 이창호 as subject and 박정민 as object)."""
    theirs: dict[str, str] = {}
    for s in window.sentences:
        for w, r in s.case_roles.items():
            theirs.setdefault(w, r)
    flipped = [w for w, r in claim.case_roles.items() if theirs.get(w, r) != r]
    if len(flipped) < 2:
        return None
    text = " ".join(s.text for s in window.sentences)
    shown = " and ".join(repr(w) for w in flipped[:2])
    return f'{shown} swap roles (subject and object): the source says "{quote(text, 140)}"'


def _passive_at(sentence: Sentence, unit: str, passive: regex.Pattern[str] | None) -> bool:
    """Whether the phrase of ``sentence`` that holds ``unit`` is passive ("were released" in "200
    Yazidis were released", not "were killed" in a later phrase of the same sentence)."""
    if passive is not None:
        for p in sentence.phrases:
            if unit in p.units:
                form = sentence.forms.get(unit, "")
                # a participle with its agent is passive without an auxiliary: "a video produced by X"
                low = form.lower()
                words = WORD_OR_MARK.findall(p.text.lower()) if low else []
                agent = any(a == low and b == "by" for a, b in pairwise(words))
                return bool(passive.search(p.text) or agent)
    return sentence.passive


def anchors_reordered(claim: Sentence, window: Window) -> tuple[str, str] | None:
    """Two of the claim's anchors (names and numbers) that the passage holds once each, in the other
    order: ``(first, second)`` as the claim has them. Words that all match can still relate otherwise
    ("closes the plant in Dorsey and moves work to Brampton" where the source closes Brampton's and
    moves work to Dorsey; "from May 9 to March 3"), so such a claim is not *stated*. A paraphrase
    may reorder too, so this shows no error by itself: the claim stays unchecked."""
    anchors = set(claim.names) | {u for u in claim.sequence if u.startswith("#")}
    mine = [u for u in claim.sequence if u in anchors]
    theirs = [u for s in window.sentences for u in s.sequence if u in anchors]
    once = [u for u in dict.fromkeys(mine) if mine.count(u) == 1 and theirs.count(u) == 1]
    at = {u: theirs.index(u) for u in once}
    for i, a in enumerate(once):
        for b in once[i + 1 :]:
            if at[b] < at[a]:
                return claim.forms.get(a, a.lstrip("#")), claim.forms.get(b, b.lstrip("#"))
    return None


__all__ = ["AUXILIARIES_EN", "PREPOSITIONS_EN", "anchors_reordered", "role_swap", "verb_like"]
