"""Link words turned around: a claim that has a function word where the passage has its opposite
between the same two words ("resigned before the vote" for "resigned after the vote", "voted for
the bill" for "voted against", "moved to Boston" for "moved from Boston"), or another unit of the
same kind after the same count ("six months" for "six years"). Such words are no content units, so
the antonym pairs cannot hold them. Two more of the kind: a name given as where something went that
the passage gives as where it came from, or a route's two ends swapped (:func:`direction_turned`);
a length or weight whose number the source gives in another unit anywhere (:func:`unit_changed`)."""

from __future__ import annotations

from ..language.units import Sentence
from ..language.lexicon import DETERMINERS_EN
from ..language.polarity import MOVING, SPANS_OF_TIME, UNITS_OF_MEASURE, opposites_after
from ..language.tokens import WORD


def _next_word(low: list[str], i: int) -> str:
    """The first word after ``low[i]`` that is no article or possessive ("the" of "before the vote")."""
    return next((w for w in low[i + 1:] if w not in DETERMINERS_EN), "")


def opposite_link(
    claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence], lang: str
) -> tuple[str, str, Sentence] | None:
    """The claim has a word of :func:`..language.polarity.opposites_after` where one of ``sentences``
    has its opposite between the same two words ("The minister resigned before the vote" for "...
    resigned after the vote", "voted for the bill" for "voted against the bill", "six months in
    prison" for "six years in prison"), and
    no sentence of them also has the claim's word after the same word. Symmetric: a coverage fact
    against the summary works the same way. Returns the claim's word and the sentence's, as written,
    and the sentence; ``None`` otherwise."""
    words = WORD.findall(claim.text)
    low = [w.lower() for w in words]
    read: list[tuple[list[str], Sentence]] = []
    for i in range(1, len(low)):
        others = opposites_after(low[i], low[:i], lang)
        if not others:
            continue
        after = _next_word(low, i)
        read = read or [(WORD.findall(s.text), s) for s in sentences]
        if any(t[j].lower() == low[i] and t[j - 1].lower() == low[i - 1] for t, _ in read for j in range(1, len(t))):
            continue  # the passage also has the claim's word after the same word
        for theirs, s in read:
            tlow = [t.lower() for t in theirs]
            for k in range(1, len(tlow)):
                # a unit after the same count may also be led by the same word ("at least six months
                # after" for "at least six weeks while")
                led = k > 1 and i > 1 and tlow[k - 2] == low[i - 2] and low[i] in UNITS_OF_MEASURE
                if tlow[k] in others and tlow[k - 1] == low[i - 1] and (led or _next_word(tlow, k) == after):
                    return words[i], theirs[k], s
    return direction_turned(claim, sentences) if lang == "en" else None


_MEASURES = frozenset(UNITS_OF_MEASURE) - frozenset(SPANS_OF_TIME)
"""Lengths and weights: a span of time ("3 years") recurs with other meanings in a source ("3 years
ago"), a length or weight with its number rarely does."""


def unit_changed(claim: Sentence, sentences: list[Sentence], lang: str) -> tuple[str, str, Sentence] | None:
    """(English) The claim gives a number a length or weight that one of ``sentences`` (all the
    source's) gives the same number in another unit of its kind, and no sentence gives the number the
    claim's unit ("weighed 55 to 70 kilograms" where the source says "weighed between 55 and 70
    tonnes" in another sentence than the claim's passage): a number with its unit is one fact wherever
    it stands. Returns the claim's unit and the source's, as written, and the sentence."""
    if lang != "en":
        return None
    words = WORD.findall(claim.text)
    low = [w.lower() for w in words]
    mine = [(i, low[i - 1]) for i in range(1, len(low)) if low[i] in _MEASURES and low[i - 1][:1].isdigit()]
    if not mine:
        return None
    theirs: list[tuple[str, str, str, Sentence]] = []  # (number, unit in lower case, unit as written, sentence)
    for s in sentences:
        tw = WORD.findall(s.text)
        theirs.extend((tw[k - 1], tw[k].lower(), tw[k], s) for k in range(1, len(tw)) if tw[k].lower() in _MEASURES)
    for i, number in mine:
        same = [(unit, written, s) for n, unit, written, s in theirs if n == number]
        if same and not any(unit == low[i] or unit not in UNITS_OF_MEASURE[low[i]] for unit, _, _ in same):
            return words[i], same[0][1], same[0][2]
    return None


_JOINING_EN = frozenset(
    "join joins joined joining sign signs signed signing arrive arrives arrived arriving leave leaves leaving left"
    .split()
)
"""Verbs of joining, leaving and arriving, in full ("joined Fiorenza from Bergen City"): with the
verbs of moving, the verbs that take a person or thing from one place to another."""


def _coming(word: str) -> bool:
    return word.startswith(MOVING["en"]) or word in _JOINING_EN


def _direction_at(words: list[str], low: list[str]) -> list[tuple[int, str]]:
    """Where "to" or "from" leads a name within four words after a verb of moving or joining
    (:data:`_JOINING_EN`), or as an end of a route (:func:`_route`), with the name's first word in
    lower case."""
    return [
        (i, low[i + 1]) for i in range(1, len(low) - 1)
        if low[i] in ("to", "from") and words[i + 1][:1].isupper()
        and (any(_coming(w) for w in low[max(0, i - 4) : i]) or _route(low, i))
    ]


def _route(low: list[str], i: int) -> bool:
    """``low[i]`` is one end of a route, "from" with a "to" within four words after it, or "to" with a
    "from" within four words before it ("a flight from Oslo to Lisbon")."""
    return "to" in low[i + 2 : i + 6] if low[i] == "from" else "from" in low[max(0, i - 4) : i - 1]


def direction_turned(claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence]) -> tuple[str, str, Sentence] | None:
    """The claim moves something *to* a named place or party that one of ``sentences`` gives as where
    it came *from*, or the other way round ("Sandvik has moved to Bergen City" where the source says
    "has joined Fiorenza from Bergen City"; "a flight from Lisbon to Oslo" for "from Oslo to Lisbon"),
    and no sentence has the claim's word before that name. The verbs on the two sides may differ;
    each word must follow a verb of moving, joining or leaving, or end a route. Returns the claim's
    word and the sentence's, as written, and the sentence; ``None`` otherwise."""
    words = WORD.findall(claim.text)
    mine = _direction_at(words, [w.lower() for w in words])
    if not mine:
        return None
    theirs: list[tuple[str, str, Sentence]] = []  # (link word as written, name, sentence)
    for s in sentences:
        tw = WORD.findall(s.text)
        theirs.extend((tw[k], name, s) for k, name in _direction_at(tw, [w.lower() for w in tw]))
    for i, name in mine:
        link = words[i].lower()
        if any(n == name and t.lower() == link for t, n, _ in theirs):
            continue  # the source also has the claim's word before the name
        for t, n, s in theirs:
            if n == name and t.lower() != link:
                return words[i], t, s
    return None


__all__ = ["direction_turned", "opposite_link", "unit_changed"]
