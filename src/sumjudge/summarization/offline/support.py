"""Does a passage support a statement? The checks behind an alignment verdict, each with its reason.

A claim is compared with the window of at most ``window`` consecutive source sentences that holds
the largest weight of its content units. It is supported when all of these hold:

1. **numbers and names are strict**: every number, proper name and date of the claim occurs in the
   source;
2. **enough of it is there**: the units found in the window, plus those *substituted* (a claim
   word missing from the window whose place, next to the same neighbouring word, the window fills
   with another word: "designed by Ada Lind" for "architect was Ada Lind"), carry at least
   ``support_threshold`` of the claim's weight (words weigh by how informative they are, so a
   common verb that differs costs less than a rare word);
3. **polarity agrees**: each phrase of the claim and the window phrase that shares most of it agree
   in negation, and no antonym pair sets them apart (:mod:`..language.polarity`);
4. **roles agree**: no two words of the claim swap sides around the word between them ("Jones
   defeated Smith" for "Smith defeated Jones") unless one side is passive and the other active
   (:mod:`.roles`);
5. **the words stand together**: most neighbouring pairs of the claim's words that one window
   sentence holds stand within ``pair_distance`` words of each other there (words picked from all
   over a sentence make another fact).
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from ..language.units import Sentence
from ..language.phrases import Phrase
from ..language.passages import Evidence, Window
from ..language.lexicon import DATE_WORDS
from ..language.polarity import ENDING_EN, is_negation
from ..language.segment import quote
from ..language.tokens import WORD
from .ellipsis import filled_phrases


class Shown(str):
    """An error's reason (the string the verdict gives) that also knows the claim's words it shows
    wrong (``said``) and what the passage says in their place (``instead``, "" where nothing): the
    verdict carries them as evidence (:class:`..verdicts.Difference`), so a report marks the words
    without reading the reason."""

    said: str
    instead: str

    def __new__(cls, reason: str, said: str = "", instead: str = "") -> Shown:
        made = super().__new__(cls, reason)
        made.said, made.instead = said, instead
        return made


def substitutions(claim: Sentence, window: Window) -> dict[str, str]:
    """At most one claim unit missing from the window whose slot the window fills with another word:
    the missing unit stands next to a name or number that, in a window sentence, has a word of its
    own (one the claim does not use) on the same side ("designed by Ada Lind" / "architect was Ada
    Lind"). Names and numbers anchor a fact, so the word beside them plays the same part. Numbers
    and names are never substituted themselves."""
    seq = claim.sequence
    out: dict[str, str] = {}
    for i, u in enumerate(seq):
        if u in window.found or u.startswith("#") or u in claim.names:
            continue
        before = seq[i - 1] if i > 0 else None
        after = seq[i + 1] if i + 1 < len(seq) else None
        anchors = set(claim.names) | {u for u in claim.units if u.startswith("#")}
        before = before if before in anchors else None
        after = after if after in anchors else None
        # a date anchors less than a name or number: "Lowe guilty" over "jury on Thursday"
        weight = {a: 0.5 if claim.forms.get(a, a).lower() in DATE_WORDS else 1.0 for a in (before, after) if a}
        beside: list[tuple[float, str]] = []  # (anchors matched, weighted; word), in the window's order
        for s in window.sentences:
            ss = s.sequence
            for j, x in enumerate(ss):
                if x in claim.units or x.startswith("#"):
                    continue
                sides = (weight[before] if before is not None and j > 0 and ss[j - 1] == before else 0.0) + (
                    weight[after] if after is not None and j + 1 < len(ss) and ss[j + 1] == after else 0.0
                )
                if sides:
                    beside.append((sides, x))
        if beside:
            return {u: max(beside, key=lambda b: b[0])[1]}
    return out


def same_slot(claim: Sentence, unit: str, window: Window, candidates: list[str], reach: int = 2) -> str:
    """Of ``candidates`` (units of the window), the one standing where ``unit`` stands in the claim:
    the most of the claim's words within ``reach`` of ``unit`` also stand within ``reach`` of it in a
    window sentence ("cost 9 million" -> the "4" of "cost 4 million", not the "1932" before it).
    Ties go to the earlier candidate."""
    return slot_match(claim, unit, window, candidates, reach)[0] or candidates[0]


def slot_match(
    claim: Sentence, unit: str, window: Window, candidates: list[str], reach: int = 2,
    ignore: frozenset[str] = frozenset(),
) -> tuple[str | None, int]:
    """:func:`same_slot` with its evidence: the candidate and how many of ``unit``'s claim neighbours
    (within ``reach``, numbers and the units in ``ignore`` aside) stand within ``reach`` of it in a
    window sentence (0: it stands in no shared place; ``None`` when there is no candidate). Of two
    names with as many, the one whose shared neighbours stand closer to it ("Canada", not "States",
    in the place of "Mexico" in "the United States and Canada ended"); of two numbers, the first."""
    if not candidates:
        return None, 0
    seq = claim.sequence
    near: set[str] = set()
    for i, u in enumerate(seq):
        if u == unit:
            near.update(x for x in seq[max(0, i - reach) : i + reach + 1] if x != unit and not x.startswith("#"))
    near -= ignore
    numeric = unit.startswith("#")  # a number's measure ("g") is no unit: closeness would pair grams with teaspoons
    best, best_score, best_close = candidates[0], -1, -1.0
    for c in candidates:
        score, close = 0, 0.0
        for s in window.sentences:
            for p in s.positions.get(c, ()):
                span = s.sequence[max(0, p - reach) : p + reach + 1]
                got = len(near & set(span))
                nearness = 0.0 if numeric else sum(
                    1 / abs(i - min(p, reach)) for i, x in enumerate(span) if x in near and x != c
                )
                if (got, nearness) > (score, close):
                    score, close = got, nearness
        if (score, close) > (best_score, best_close):
            best, best_score, best_close = c, score, close
    return best, max(0, best_score)


def side_match(
    claim: Sentence, unit: str, ev: Evidence, candidates: list[str], reach: int = 2, written: bool = False
) -> tuple[str | None, int]:
    """Of ``candidates`` (units of the passage), the one in ``unit``'s place in the claim, and how many
    of ``unit``'s claim neighbours (content words within ``reach``) stand on the same side of it within
    ``reach`` in a passage sentence: what precedes the claim's word precedes it, what follows follows.
    ``written``: only where a sentence writes the candidate with a capital (a unit is a name by its
    stem, so "suicidal" is one where the source also has "Veterans Suicide Hotline"; only a word
    written as a name can be the name a claim's name took the place of)."""
    seq = claim.sequence
    before: set[str] = set()
    after: set[str] = set()
    for i, u in enumerate(seq):
        if u == unit:
            before.update(x for x in seq[max(0, i - reach) : i] if x != unit and not x.startswith("#"))
            after.update(x for x in seq[i + 1 : i + reach + 1] if x != unit and not x.startswith("#"))
    best: str | None = None
    best_score = 0
    for c in candidates:
        for s in ev.sentences:
            if written and not s.forms.get(c, "")[:1].isupper():
                continue
            for p in s.positions.get(c, ()):
                got = len(before & set(s.sequence[max(0, p - reach) : p]))
                got += len(after & set(s.sequence[p + 1 : p + reach + 1]))
                if got > best_score:
                    best, best_score = c, got
    return best, best_score


def _best_phrase(phrase: Phrase, weight_of: Callable[[frozenset[str]], float], others: list[Phrase]) -> Phrase | None:
    """The phrase among ``others`` sharing most of ``phrase``'s weight, if that is more than half."""
    best, best_w = None, 0.0
    for p in others:
        w = weight_of(phrase.units & p.units)
        if w > best_w:
            best, best_w = p, w
    return best if best is not None and best_w > weight_of(phrase.units) / 2 else None


# English: a phrase opened by one of these states a condition or a question, not a fact ("if they fail
# to qualify", "whether he has any choice"): a negation in it contradicts nothing.
_CONDITIONAL_EN = frozenset({"if", "unless", "whether"})
# English: what will, would, may or might happen is not what happened: a negation of what is or was
# ("has yet to be announced") does not contradict it ("will be announced shortly"); "can" states an
# ability, as a plain verb does.
_MODAL_EN = regex.compile(r"\b(?:will|would|shall|may|might|could|should|wo(?=\s*n['’]?t\b))\b|['’]ll\b")


def _conditional(phrase: Phrase) -> bool:
    first = phrase.text.split(maxsplit=1)[:1]
    return bool(first) and first[0].lower() in _CONDITIONAL_EN


def _modal(phrase: Phrase) -> bool:
    return bool(_MODAL_EN.search(phrase.text))


def negation_shown(negated: Phrase, other: Phrase, lang: str = "") -> bool:
    """Whether ``negated`` (a phrase with a negation cue) and ``other`` (one without) state the same
    predicate, so that the cue contradicts ``other``: the word the cue bears on is in ``other`` and so
    is at least one more of ``negated``'s words (its subject or object: one shared word such as "care"
    in "She doesn't care" and "caring for her children" is another statement); the word is not an
    infinitive on both sides ("failed to qualify" and "under pressure to qualify": neither says
    whether it qualified). English also: neither phrase is a condition ("if", "unless", "whether"),
    ``other`` does not speak of what will, would, may or might be unless ``negated`` does too, and
    ``other`` has no verb that ends what follows it ("withdrew her support": :data:`ENDING_EN`) unless
    that verb is the negated one ("dropped a set" for "did not drop a set"), and neither negation bears
    on a time ("did not reopen until May": :attr:`.Phrase.until`). Where the cue is the subject ("no
    one was hurt"), the word it bears on is the one shared word needed."""
    shared = negated.units & other.units
    bears = negated.scope & other.units
    nobody = lang == "en" and _NOBODY.match(negated.text) is not None  # the cue is the subject: "no one was hurt"
    if not bears or len(shared) < (1 if nobody else 2) or negated.until or other.until:
        return False
    if bears <= negated.infinitives & other.infinitives:
        return False
    if lang == "en" and (_conditional(negated) or _conditional(other)):
        return False
    if lang == "en" and _modal(other) and not _modal(negated):
        return False
    ending = ENDING_EN.search(other.text) if lang == "en" else None
    if ending and not any(ending.group().lower().startswith(u) for u in negated.scope):
        return False  # "withdrew her support" for "no longer supports" (not "dropped a set" for "did not drop")
    return True


_NOBODY = regex.compile(r"(?i)^(?:(?:but|and|yet|while|though)\s+)?(?:no\s*one|no-one|nobody|nothing|none)\b")


def _negated_at(s: Sentence, unit: str, lang: str = "") -> bool:
    """A phrase of ``s`` that holds ``unit`` is negated ("did not approve"). In English a cue bears
    on what follows it: a word written before every cue of its phrase is not negated ("acquitted of
    stealing ... for work never done")."""
    for p in s.phrases:
        if not (p.negated and unit in p.units):
            continue
        if lang != "en":
            return True
        words = [w.lower() for w in WORD.findall(p.text)]
        form = s.forms.get(unit, unit).lower()
        at = next((i for i, w in enumerate(words) if w == form), None)
        cues = [i for i, w in enumerate(words) if is_negation(w, "en", words[i + 1] if i + 1 < len(words) else "")]
        if at is None or not cues or min(cues) < at:
            return True
    return False


def negated_once(
    claim: Sentence, unit: str, sentences: tuple[Sentence, ...] | list[Sentence], there: str, lang: str = ""
) -> bool:
    """One side of an antonym pair (``unit`` of the claim, ``there`` of ``sentences``) is negated and
    the other not ("did not approve" / "rejected"): the two say the same."""
    return _negated_at(claim, unit, lang) != any(_negated_at(s, there, lang) for s in sentences)


def polarity_conflict(
    statement: Sentence, passage: list[Sentence], antonyms: dict[str, frozenset[str]], *, who: str,
    where: str, lang: str = "",
) -> str | None:
    """A reason when ``statement`` and ``passage`` differ in negation or by an antonym pair; ``None``
    when they agree. ``who`` names the statement's side ("the claim"), ``where`` the passage's;
    ``lang`` turns on the language's own checks of :func:`negation_shown`.

    Each phrase is compared with the phrase of the other side that shares most of its weight, when
    that is more than half of it (they speak of the same thing). Negation: one of the two has a
    cue bearing on a word the other states without any cue, and they state the same predicate
    (:func:`negation_shown`). Antonyms: one uses a word and the other its antonym, neither uses both,
    and both or neither are negated ("did not approve" says what "rejected" says)."""
    theirs = [p for s in passage for p in filled_phrases(s, lang)]
    ours = filled_phrases(statement, lang)
    for mine in ours:
        if not mine.units:
            continue
        other = _best_phrase(mine, statement.weight_of, theirs)
        if other is None:
            continue
        if mine.negated and not other.negated and negation_shown(mine, other, lang):
            return _negation(mine, other, who, where)
        if other.negated and not mine.negated and negation_shown(other, mine, lang) and not _said_plainly(mine, other, theirs):
            # the passage's phrase holds all that the claim's says, and negates it ("can no longer
            # hold the town's growing collection" for "can still hold the collection")
            return _negation(mine, other, who, where)
        # an antonym under one negation says the same ("did not approve" / "rejected")
        for a in (mine.units - other.units) if mine.negated == other.negated else ():
            for b in antonyms.get(a, ()):
                if b in other.units and b not in mine.units:
                    said, there = statement.forms.get(a, a), _form_in(passage, b)
                    return Shown(
                        f"{said!r} contradicts {there!r}: {who} says \"{quote(mine.text, 100)}\", "
                        f"{where} says \"{quote(other.text, 100)}\"",
                        said, there,
                    )
    for s in passage:
        for other in filled_phrases(s, lang):
            if not other.negated or not other.units:
                continue
            mine = _best_phrase(other, s.weight_of, ours)
            if mine is not None and not mine.negated and negation_shown(other, mine, lang) and not _said_plainly(mine, other, theirs):
                return _negation(mine, other, who, where)
    return None


def _said_plainly(mine: Phrase, negated: Phrase, theirs: list[Phrase]) -> bool:
    """Another phrase of the passage, without a negation, holds every word that ``mine`` shares with
    the ``negated`` one: the passage states it plainly as well ("after his team won the 2010 Club
    World Cup. Having not won a game since ...")."""
    shared = mine.units & negated.units
    return any(not p.negated and shared <= p.units for p in theirs)


def _negation(mine: Phrase, other: Phrase, who: str, where: str) -> Shown:
    """The reason of a negation one side has and the other not, with the two phrases as the words that differ."""
    return Shown(
        f'negation differs: {who} says "{quote(mine.text, 100)}", {where} says "{quote(other.text, 100)}"',
        mine.text.strip().rstrip("."), other.text.strip().rstrip("."),
    )


def negation_unstated(
    claim: Sentence, passage: tuple[Sentence, ...], held: frozenset[str], lang: str = ""
) -> str | None:
    """The claim phrase with a negation cue that a passage without any negation states plainly (the
    caller has found every word of the claim in the passage): one passage sentence holds two or more
    of the phrase's words (``held`` aside: names and light words the passage may lack), the word the
    cue bears on among them, in the claim's order. A cue that bears on no word of its phrase ("Ibe has
    not been out") bears on the next phrase ("since February"). Words picked from all over a window,
    or in another order ("in time" from "at the same time, ... the passport agency" for "did not get
    their passports in time"), state nothing. English also: the phrase is no condition, and the
    sentence does not speak of what will, would, may or might be unless the phrase does too ("will
    be announced shortly" against "has yet to be announced"), and neither is the sentence's stretch
    that holds those words ("whether he has any choice")."""
    if any(p.negated for x in passage for p in x.phrases):
        return None
    phrases = claim.phrases
    for k, mine in enumerate(phrases):
        if not mine.negated or (lang == "en" and _conditional(mine)):
            continue
        units = mine.units
        if not mine.scope and k + 1 < len(phrases):
            units = units | phrases[k + 1].units
        for x in passage:
            if lang == "en" and not _modal(mine) and bool(_MODAL_EN.search(x.text)):
                continue
            words = [u for u in dict.fromkeys(claim.sequence) if u in units - held and u in x.positions]
            if len(words) < 2 or not mine.scope <= set(words) | held:
                continue
            if lang == "en" and any(_conditional(p) for p in x.phrases if p.units & set(words)):
                continue  # "it remains to be seen whether he has any choice"
            at = -1
            for u in words:
                later = [p for p in x.positions[u] if p > at]
                if not later:
                    break
                at = later[0]
            else:
                return mine.text
    return None


def _form_in(sentences: list[Sentence] | tuple[Sentence, ...], unit: str) -> str:
    for s in sentences:
        if unit in s.forms:
            return s.forms[unit]
    return unit


def loose_pairs(claim: Sentence, window: Window, distance: int) -> tuple[list[tuple[str, str]], int]:
    """Neighbouring claim units that a window sentence holds both of but not within ``distance``
    of each other, and how many neighbouring pairs some one window sentence holds."""
    loose: list[tuple[str, str]] = []
    judged = 0
    seq = claim.sequence
    for a, b in zip(seq, seq[1:]):
        if a == b:
            continue
        together = [s for s in window.sentences if a in s.positions and b in s.positions]
        if not together:
            continue
        judged += 1
        if not any(abs(x - y) <= distance for s in together for x in s.positions[a] for y in s.positions[b]):
            loose.append((a, b))
    return loose, judged
