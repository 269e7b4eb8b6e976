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
   in negation, and no antonym pair sets them apart (:mod:`.polarity`);
4. **roles agree**: no two words of the claim swap sides around the word between them ("Jones
   defeated Smith" for "Smith defeated Jones") unless one side is passive and the other active;
5. **the words stand together**: most neighbouring pairs of the claim's words that one window
   sentence holds stand within ``pair_distance`` words of each other there (words picked from all
   over a sentence make another fact).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

import regex

from .analysis import Phrase, Sentence
from .lexicon import IRREGULAR_EN
from .segment import normalise_space

_QUOTE = 160


def quote(text: str, limit: int = _QUOTE) -> str:
    text = normalise_space(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass(frozen=True)
class Window:
    start: int
    end: int
    """Exclusive."""
    sentences: tuple[Sentence, ...]
    found: frozenset[str]

    @property
    def where(self) -> str:
        return f"sentence {self.start + 1}" if self.end - self.start == 1 else f"sentences {self.start + 1}-{self.end}"

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences)


def best_window(claim: Sentence, sentences: list[Sentence], size: int) -> Window:
    """The run of at most ``size`` consecutive sentences holding the most weight of the claim."""
    overlaps = [claim.units & s.units for s in sentences]
    best: tuple[int, int, frozenset[str]] = (0, min(1, len(sentences)), frozenset())
    best_w = -1.0
    for width in range(1, size + 1):
        for start in range(0, max(0, len(overlaps) - width + 1)):
            found = frozenset().union(*overlaps[start : start + width])
            w = claim.weight_of(found)
            if w > best_w + 1e-9:
                best, best_w = (start, start + width, found), w
    start, end, found = best
    return Window(start, end, tuple(sentences[start:end]), found)


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
        for s in window.sentences:
            ss = s.sequence
            for j, x in enumerate(ss):
                if x in claim.units or x.startswith("#"):
                    continue
                if (before is not None and j > 0 and ss[j - 1] == before) or (
                    after is not None and j + 1 < len(ss) and ss[j + 1] == after
                ):
                    return {u: x}
    return out


def same_slot(claim: Sentence, unit: str, window: Window, candidates: list[str], reach: int = 2) -> str:
    """Of ``candidates`` (units of the window), the one standing where ``unit`` stands in the claim:
    the most of the claim's words within ``reach`` of ``unit`` also stand within ``reach`` of it in a
    window sentence ("cost 9 million" -> the "4" of "cost 4 million", not the "1932" before it).
    Ties go to the earlier candidate."""
    return slot_match(claim, unit, window, candidates, reach)[0] or candidates[0]


def slot_match(
    claim: Sentence, unit: str, window: Window, candidates: list[str], reach: int = 2
) -> tuple[str | None, int]:
    """:func:`same_slot` with its evidence: the candidate and how many of ``unit``'s claim neighbours
    (within ``reach``, numbers aside) stand within ``reach`` of it in a window sentence (0: it stands
    in no shared place; ``None`` when there is no candidate)."""
    if not candidates:
        return None, 0
    seq = claim.sequence
    near: set[str] = set()
    for i, u in enumerate(seq):
        if u == unit:
            near.update(x for x in seq[max(0, i - reach) : i + reach + 1] if x != unit and not x.startswith("#"))
    best, best_score = candidates[0], -1
    for c in candidates:
        score = 0
        for s in window.sentences:
            for p in s.positions.get(c, ()):
                score = max(score, len(near & set(s.sequence[max(0, p - reach) : p + reach + 1])))
        if score > best_score:
            best, best_score = c, score
    return best, max(0, best_score)


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
    whether it qualified). English also: neither phrase is a condition ("if", "unless", "whether"), and
    ``other`` does not speak of what will, would, may or might be unless ``negated`` does too."""
    shared = negated.units & other.units
    bears = negated.scope & other.units
    if not bears or len(shared) < 2:
        return False
    if bears <= negated.infinitives & other.infinitives:
        return False
    if lang == "en" and (_conditional(negated) or _conditional(other)):
        return False
    if lang == "en" and _modal(other) and not _modal(negated):
        return False
    return True


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
    (:func:`negation_shown`). Antonyms: one uses a word and the other its antonym, and neither uses
    both."""
    theirs = [p for s in passage for p in s.phrases]
    for mine in statement.phrases:
        if not mine.units:
            continue
        other = _best_phrase(mine, statement.weight_of, theirs)
        if other is None:
            continue
        if mine.negated and not other.negated and negation_shown(mine, other, lang):
            return f'negation differs: {who} says "{quote(mine.text, 100)}", {where} says "{quote(other.text, 100)}"'
        for a in mine.units - other.units:
            for b in antonyms.get(a, ()):
                if b in other.units and b not in mine.units:
                    said, there = statement.forms.get(a, a), _form_in(passage, b)
                    return (
                        f"{said!r} contradicts {there!r}: {who} says \"{quote(mine.text, 100)}\", "
                        f"{where} says \"{quote(other.text, 100)}\""
                    )
    for s in passage:
        for other in s.phrases:
            if not other.negated or not other.units:
                continue
            mine = _best_phrase(other, s.weight_of, list(statement.phrases))
            if mine is not None and not mine.negated and negation_shown(other, mine, lang):
                return f'negation differs: {who} says "{quote(mine.text, 100)}", {where} says "{quote(other.text, 100)}"'
    return None


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
        if len(flipped) >= 2 or (flipped and len(claim.case_roles) == 1):
            shown = " and ".join(repr(w) for w in flipped[:2])
            return f'{shown} swap roles (subject and object): the source says "{quote(s.text, 100)}"'
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


_IRREGULAR_NOUNS = frozenset(
    "men women children mice feet teeth geese lives wives knives wolves thieves leaves".split()
)
_VERB_FORMS = frozenset(f for f in IRREGULAR_EN if f not in _IRREGULAR_NOUNS) | frozenset(
    b for f, b in IRREGULAR_EN.items() if f not in _IRREGULAR_NOUNS
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
_WORD = regex.compile(r"[\p{L}\p{N}]+(?:['’][\p{L}]+)?|[,;:&]")


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
    return [m.group().lower() for m in _WORD.finditer(sentence.text)]


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
    ("antibiotics given to babies", "babies given antibiotics") the order says nothing."""
    cf, sf = claim.forms, source.forms
    mine = _span(_words(claim), cf.get(a, "").lower(), cf.get(v, "").lower(), cf.get(b, "").lower())
    theirs = _span(_words(source), sf.get(b, "").lower(), sf.get(v, "").lower(), sf.get(a, "").lower())
    if mine is None or theirs is None:
        return False
    if not (_verb_like(cf.get(v, ""), mine[2]) and _verb_like(sf.get(v, ""), theirs[2])):
        return False
    for form in (cf.get(a, ""), cf.get(b, "")):
        low = form.lower()
        if low.endswith(("ed", "ing")) or (low in _VERB_FORMS and form[:1].islower()):
            return False
    for before, after in (mine[:2], theirs[:2]):
        if any(w in _LIST_WORDS or not w[0].isalnum() for w in before + after):
            return False
    return {w for w in mine[1] if w in _PREPOSITIONS_EN} == {w for w in theirs[1] if w in _PREPOSITIONS_EN}


def _passive_at(sentence: Sentence, unit: str, passive: regex.Pattern[str] | None) -> bool:
    """Whether the phrase of ``sentence`` that holds ``unit`` is passive ("were released" in "200
    Yazidis were released", not "were killed" in a later phrase of the same sentence)."""
    if passive is not None:
        for p in sentence.phrases:
            if unit in p.units:
                form = sentence.forms.get(unit, "")
                # a participle with its agent is passive without an auxiliary: "a video produced by X"
                low = form.lower()
                words = _WORD.findall(p.text.lower()) if low else []
                agent = any(a == low and b == "by" for a, b in pairwise(words))
                return bool(passive.search(p.text) or agent)
    return sentence.passive


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
