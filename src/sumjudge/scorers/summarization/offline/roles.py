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

from ..language.analysis import Sentence
from ..language.passages import Window
from ..language.lexicon import DETERMINERS_EN, IRREGULAR_EN, IRREGULAR_PLURALS, OUTCOME_VERBS
from ..language.segment import quote
from ..language.tokens import WORD_OR_MARK
from .comparisons import comparison_swap


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
_AUXILIARIES_EN = frozenset(
    "is was are were be been being has have had do does did will would can could may might must shall should"
    .split()
)
# Words that join two participants as equals ("purple, yellow and blue") or mark a role by themselves
# ("given to babies", "held by his mother"): word order then says nothing of who did what to whom.
_LIST_WORDS = frozenset({"and", "or", "nor", "&"})
_PREPOSITIONS_EN = frozenset(
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


def _verb_like(form: str, before: str) -> bool:
    """An English word form that reads as a verb: "-ed", an irregular form ("held", "bit"), a third
    person "-s" of one ("beats"), or a word right after an auxiliary ("was held", "will beat")."""
    low = form.lower()
    if not form or form[0].isupper() or low.endswith("ing"):
        return False
    if low.endswith("ed") or low in _VERB_FORMS or before in _AUXILIARIES_EN:
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
    if not (_verb_like(cf.get(v, ""), mine[2]) and _verb_like(sf.get(v, ""), theirs[2])):
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
    return {w for w in mine[1] if w in _PREPOSITIONS_EN} == {w for w in theirs[1] if w in _PREPOSITIONS_EN}


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


def _subject_before(tokens: list[str], k: int) -> list[str] | None:
    """The run of capitalised words right before ``tokens[k]`` (a name as the verb's subject), less a
    capitalised determiner that opens it ("The Kenyan Grace Okafor"), or ``None`` where there is none
    or a preposition or a possessive stands before it ("against Fleetwood tested": Fleetwood is no
    subject)."""
    i = k
    while i > 0 and tokens[i - 1][:1].isupper():
        i -= 1
    if i == k:
        return None
    before = tokens[i - 1].lower() if i else ""
    if before in _PREPOSITIONS_EN or before in {"'s", "’s", "s"}:
        return None
    run = [t.lower() for t in tokens[i:k]]
    return (run[1:] or None) if run[0] in DETERMINERS_EN else run  # "The Kenyan Grace Okafor"


def subject_swap(
    claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence], summary_is_claim: bool = True,
    named_after: bool = True,
) -> tuple[str, str, str] | None:
    """Another name as the subject of the same verb ("Almaz Tesfaye won ... from Faith Chepkoech" where
    the source has "Faith Chepkoech won ..."): in English, a verb right after a name in the claim
    stands right after another name, sharing no word with it, in a sentence of ``sentences``, and the
    summary's side names the other one after the verb, so the two are the same people in swapped
    roles. ``summary_is_claim``: the claim is the summary's (alignment); otherwise ``sentences`` are
    (coverage: the claim is the source's fact). ``named_after=False`` drops the last condition: the
    verb has another subject in the source, which may be the same one named otherwise. Returns the claim's name, the sentence's name and the
    verb, as written, or ``None``."""
    words = WORD_OR_MARK.findall(claim.text)
    mine_names = {f.lower() for f in claim.name_forms.values()}
    named = {w.lower() for s in sentences for w in WORD_OR_MARK.findall(s.text)}
    for j in range(1, len(words)):
        verb = words[j]
        if not verb[:1].islower() or verb in _AUXILIARIES_EN or not (_verb_like(verb, words[j - 1].lower()) or verb in OUTCOME_VERBS):
            continue
        mine = _subject_before(words, j)
        if not mine or mine[-1] not in mine_names or mine[-1] not in named:
            continue
        for s in sentences:
            theirs_names = {f.lower(): f for f in s.name_forms.values()}
            other = WORD_OR_MARK.findall(s.text)
            for k in range(1, len(other)):
                if other[k] != verb:
                    continue
                theirs = _subject_before(other, k)
                if not theirs or theirs[-1] not in theirs_names or set(theirs) & set(mine):
                    continue
                after = [w.lower() for w in (words[j + 1 :] if summary_is_claim else other[k + 1 :])]
                if not named_after or (theirs[-1] if summary_is_claim else mine[-1]) in after:
                    return words[j - 1], theirs_names[theirs[-1]], verb
    return None


_ONE_WINNER = frozenset({"won", "wins", "beat", "beats", "defeated"})
"""Verbs of an outcome that has one subject: a race or a vote is won by one side."""


def winner_swap(claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence]) -> tuple[str, str, str] | None:
    """Another name as the winner of the same contest ("Almaz Tesfaye won the Rotterdam Marathon"
    where the source has "Faith Chepkoech won the Rotterdam Marathon"): in English, a verb of
    :data:`_ONE_WINNER` right after a name, the same verb right after another name in a sentence of
    ``sentences``, the names and figures the claim gives right after the verb ("the Rotterdam
    Marathon", "the 5,000 metres") right after it there too; the claim does not name the sentence's
    winner, nor any sentence name the claim's among the words before the verb with the same contest
    (so "Chepkoech and Tesfaye won" is no swap, nor "Chelsea won 2-1" where "Leeds won 2-1 ... and
    Chelsea won 2-1"). Symmetric:
    a coverage fact against the summary works the same way. Returns the claim's name, the
    sentence's name and the verb, as written, or ``None``."""
    words = WORD_OR_MARK.findall(claim.text)
    mine_low = {w.lower() for w in words}
    for j in range(1, len(words)):
        verb = words[j]
        if verb not in _ONE_WINNER:
            continue
        mine = _subject_before(words, j)
        if not mine or mine[-1] not in {f.lower() for f in claim.name_forms.values()}:
            continue
        contest = {w.lower() for w in words[j + 1 : j + 5] if w[:1].isupper() or w[:1].isdigit()}
        if not contest:
            continue
        found = None
        for s in sentences:
            other = WORD_OR_MARK.findall(s.text)
            for k in range(1, len(other)):
                if other[k] != verb or not contest <= {w.lower() for w in other[k + 1 : k + 7]}:
                    continue
                theirs = _subject_before(other, k)
                if set(mine) & {w.lower() for w in other[max(0, k - 6) : k]}:
                    return None  # the sentence gives the claim's winner the same contest
                if theirs and not set(theirs) & mine_low:
                    found = found or (words[j - 1], other[k - 1], verb)
        if found:
            return found
    return None


_LOST = frozenset({"lost", "loses", "lose"})


def _named_loser(words: list[str], sentence: Sentence) -> tuple[str, str] | None:
    """A name right before "lost" in ``words`` that ``sentence`` names only after "lost ... to", the
    one the loser lost to ("Tom Reed lost the election" where the sentence says "The mayor lost the
    election to her rival, Tom Reed"): (the name's last word, the word before the sentence's
    "lost"), as written, or ``None``."""
    other = WORD_OR_MARK.findall(sentence.text)
    for j in range(1, len(words)):
        mine = _subject_before(words, j) if words[j].lower() in _LOST else None
        if not mine:
            continue
        for k in range(1, len(other)):
            if other[k].lower() != words[j].lower() or set(mine) & {w.lower() for w in other[max(0, k - 6) : k]}:
                continue
            tail = [w.lower() for w in other[k + 1 : k + 12]]
            end = next((i for i, w in enumerate(tail) if w in {".", ";"}), len(tail))
            if "to" in tail[:end] and mine[-1] in tail[tail.index("to") + 1 : end]:
                return words[j - 1], other[k - 1]
    return None


def loser_swap(
    claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence], summary_is_claim: bool = True
) -> tuple[str, str, str] | None:
    """The one the loser lost to, named as the loser (:func:`_named_loser`), on the summary's side:
    the claim in alignment, a summary sentence in coverage (the fact then has "lost to"). Returns
    (the claim's word, the sentence's word, "lost") as :func:`swap_shown` does, or ``None``."""
    words = WORD_OR_MARK.findall(claim.text)
    for s in sentences:
        if summary_is_claim:
            found = _named_loser(words, s)
            if found:
                return found[0], found[1], "lost"
        else:
            found = _named_loser(WORD_OR_MARK.findall(s.text), claim)
            if found:
                return found[1], found[0], "lost"
    return None


_BEATING = frozenset("beat beats beating defeated defeats defeating".split())


def _winner(tokens: list[str], k: int) -> set[str]:
    """The name that beats at ``tokens[k]``: the verb's subject, or for "by beating" the name that
    opens the sentence ("Estavia won the cup by beating Norland")."""
    run = _subject_before(tokens, k) or (_subject_before(tokens, 1) if tokens[k].endswith("ing") else None)
    return set(run or ())


def beaten_swap(claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence]) -> tuple[str, str, str] | None:
    """The beaten side named as the winner ("Estavia won the cup by beating Norland" where the source
    says "Norland beat Estavia"): after a verb of :data:`_BEATING` each side names the other's winner
    (:func:`_winner`), and no sentence has the claim's way round. Symmetric, as :func:`winner_swap`.
    Returns the claim's beaten name, the sentence's, and "was beaten", or ``None``."""
    words = WORD_OR_MARK.findall(claim.text)
    found = None
    for j in (j for j in range(1, len(words) - 1) if words[j].lower() in _BEATING and words[j + 1][:1].isupper()):
        mine, beaten = _winner(words, j), words[j + 1].lower()
        for other in (WORD_OR_MARK.findall(s.text) for s in sentences):
            for k in (k for k in range(1, len(other) - 1) if other[k].lower() in _BEATING):
                theirs = _winner(other, k)
                if other[k + 1].lower() == beaten and mine & theirs:
                    return None  # a sentence has the claim's way round
                if other[k + 1].lower() in mine and beaten in theirs:
                    found = found or (words[j + 1], other[k + 1], "was beaten")
    return found


def swap_shown(
    claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence], summary_is_claim: bool = True
) -> tuple[str, str, str] | None:
    """The swaps the words show, asked the same way in alignment and in coverage: the same people in
    swapped roles (:func:`subject_swap`), another winner of the same contest (:func:`winner_swap`), a
    comparison turned around (:func:`comparison_swap`), the one a loser lost to named as the loser
    (:func:`loser_swap`), the beaten side as the winner (:func:`beaten_swap`). Returns (the claim's
    word, the sentence's, how they relate), or ``None``."""
    return (
        subject_swap(claim, sentences, summary_is_claim=summary_is_claim)
        or winner_swap(claim, sentences) or comparison_swap(claim, sentences)
        or loser_swap(claim, sentences, summary_is_claim) or beaten_swap(claim, sentences)
    )


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


__all__ = ["anchors_reordered", "beaten_swap", "loser_swap", "role_swap", "subject_swap", "swap_shown", "winner_swap"]
