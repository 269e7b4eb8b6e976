"""Words, names and numbers of a claim that the source lacks (extrinsic) or has only outside the
passage that holds the rest of the claim (intrinsic), each named in a reason with the source's word
or figure in its place where there is one; the rule "words the source lacks" (:mod:`.claim_rules`)
names them with :func:`extrinsic_problems`.
"""

from __future__ import annotations

import regex

from ..language.units import Document, Sentence
from ..language.passages import Evidence, Window
from ..language.segment import quote
from .support import same_slot, substitutions


def extrinsic_problems(
    claim: Sentence,
    doc: Document,
    ev: Evidence,
    derived: dict[str, str],
    light: frozenset[str],
    words: bool = True,
    added: frozenset[str] = frozenset(),
    facts: bool = True,
) -> list[str]:
    """Numbers, names, dates (``facts``) and (English, Korean) content words of the claim that the
    source does not have in any form, each named with the source's word in its place where there is
    one; ``added`` (:func:`additions`) are left to the support share."""
    problems: list[str] = []
    window_numbers: list[str] = []
    for s in ev.sentences:
        window_numbers += [n for n in s.numbers if n not in window_numbers]
    for n in claim.numbers if facts else ():
        if n.rstrip("%") in doc.number_values:
            continue
        shown = claim.number_forms[n]
        others = [w for w in window_numbers if w not in claim.numbers]
        same_kind = [w for w in others if w.endswith("%") == n.endswith("%")] or others
        if same_kind:
            form = passage_form(ev, same_slot(claim, "#" + n, ev, ["#" + w for w in same_kind]))
            problems.append(f"{shown!r} does not occur in the source; it says {form!r}")
        else:
            problems.append(f"{shown!r} does not occur in the source")
    for name in claim.names if facts else ():
        if name in doc.units or name in derived:
            continue
        shown = claim.name_forms[name]
        window_names = [s.name_forms[x] for s in ev.sentences for x in s.names if x not in claim.units]
        if window_names:
            problems.append(f"{shown!r} does not occur in the source; the passage names {window_names[0]!r}")
        else:
            problems.append(f"{shown!r} does not occur in the source")
    if words and doc.lang == "ko":
        problems += [f"{w!r} does not occur in the source" for w in _absent_hangul(claim, doc)]
    if words and doc.lang == "en":
        subs = substitutions(claim, ev)
        for u in claim.sequence:
            if u in added or not _absent(u, claim, doc, derived, light):
                continue
            if u in subs and _beside_name(claim, u):
                continue  # a paraphrase beside a name ("designed by Ada Lind"): the share rule weighs it
            there = slot_word(claim, u, ev)
            instead = f"; the passage has {passage_form(ev, there)!r} there" if there else ""
            problems.append(
                f'{claim.forms.get(u, u)!r} does not occur in the source{instead} ({ev.where}: "{quote(ev.text, 100)}")'
            )
            light = light | {u}  # name each word once
    return problems


def additions(
    claim: Sentence,
    doc: Document,
    ev: Evidence,
    derived: dict[str, str],
    light: frozenset[str],
    antonyms: dict[str, frozenset[str]],
) -> frozenset[str]:
    """English content words of the claim that the source has in no form and that stand in no slot of
    the passage: no passage word (one the claim does not use) has the word's claim neighbours on both
    sides ("a hilarious video" for "a video"), and none is its antonym. Paraphrase adds such words (an
    adjective, a summarising noun, a connective); an edit puts a word in another's place ("evenings"
    where the passage has "mornings"), which stays extrinsic."""
    if doc.lang != "en":
        return frozenset()
    passage = frozenset().union(*(s.units for s in ev.sentences))
    verbs = predicates(claim)
    return frozenset(
        u
        for u in claim.units
        if u not in verbs
        and _absent(u, claim, doc, derived, light)
        and not in_slot(claim, u, ev)
        and not antonyms.get(u, frozenset()) & passage
    )


_AUXILIARY = regex.compile(
    r"\b(?:to|will|would|can|could|may|might|must|should|shall|has|have|had|is|are|was|were|be|been|did|does|do)"
    r"\s+(?:\w+ly\s+)?([\p{L}'-]+)",
    regex.I,
)


def predicates(claim: Sentence) -> frozenset[str]:
    """English content units of the claim that state its predicate or its manner: a word after an
    auxiliary or "to" ("was designed", "has urged") and an "-ly" adverb ("reluctantly"). An edit
    changes these ("Ada Lind was designed by the bridge", "Keefe reluctantly posed"), so they are
    never additions. (Every "-ed" or irregular verb form as well cost BUMP's tune half 1.5 points.)"""
    after = {m.group(1).lower() for m in _AUXILIARY.finditer(claim.text)}
    return frozenset(
        u for u, form in claim.forms.items() if form.lower() in after or form.lower().endswith("ly")
    )


def in_slot(claim: Sentence, unit: str, ev: Evidence) -> bool:
    """Whether ``unit`` stands in a passage word's slot: a passage word that is neither in the claim
    nor a number has ``unit``'s neighbours in the claim (content words) right before and right after
    it, or the one neighbour there when ``unit`` opens or ends the claim ("grew up in a small choir" /
    "grew up in a small town"); a claim of one word always does."""
    seq = claim.sequence
    for i, u in enumerate(seq):
        if u != unit:
            continue
        left = seq[i - 1] if i > 0 else None
        right = seq[i + 1] if i + 1 < len(seq) else None
        if left is None and right is None:
            return True
        for s in ev.sentences:
            ss = s.sequence
            for j, x in enumerate(ss):
                if x in claim.units or x.startswith("#"):
                    continue
                if (left is None or (j > 0 and ss[j - 1] == left)) and (
                    right is None or (j + 1 < len(ss) and ss[j + 1] == right)
                ):
                    return True
    return False


def _near(claim: Sentence, unit: str, reach: int) -> set[str]:
    """The claim's units within ``reach`` of ``unit``, wherever it stands."""
    seq = claim.sequence
    return {x for i, u in enumerate(seq) if u == unit for x in seq[max(0, i - reach) : i + reach + 1] if x != unit}


def slot_word(claim: Sentence, unit: str, ev: Evidence, reach: int = 2) -> str | None:
    """The passage's content word standing where ``unit`` stands in the claim: the one (not in the
    claim) with the most of ``unit``'s claim neighbours within ``reach`` of it; none when no word has any."""
    near = _near(claim, unit, reach)
    best, best_score = None, 0
    for s in ev.sentences:
        for p, x in enumerate(s.sequence):
            if x in claim.units or x.startswith("#") or x in s.names:
                continue
            score = len(near & set(s.sequence[max(0, p - reach) : p + reach + 1]))
            if score > best_score:
                best, best_score = x, score
    return best


def antonym_beside(claim: Sentence, unit: str, ev: Evidence, against: frozenset[str]) -> str | None:
    """An antonym of ``unit`` that the passage has with two of ``unit``'s claim neighbours (within two
    words) around it ("the smallest since 1963" where the passage says "Mount Tarn was the largest
    since 1963"): a word and its opposite need not have the same words right beside them to stand
    in one slot. ``None`` where there is none, or where the claim has the antonym too."""
    if against & claim.units:
        return None
    near = _near(claim, unit, 2)
    for s in ev.sentences:
        ss = s.sequence
        for j, x in enumerate(ss):
            if x in against and len(near & set(ss[max(0, j - 2) : j + 3])) >= 2:
                return x
    return None


def _absent(u: str, claim: Sentence, doc: Document, derived: dict[str, str], light: frozenset[str]) -> bool:
    """A content word of an English claim that the source has in no form (not a number or name)."""
    if doc.lang != "en" or u in doc.units or u in derived or u in light or u in claim.names or u.startswith("#"):
        return False
    if "-" in u:
        return not all(p in doc.units or p in doc.parts for p in u.split("-") if p)
    return u.isalpha() and u not in doc.parts


def _beside_name(claim: Sentence, unit: str) -> bool:
    seq = claim.sequence
    return any(
        x == unit and ((i > 0 and seq[i - 1] in claim.names) or (i + 1 < len(seq) and seq[i + 1] in claim.names))
        for i, x in enumerate(seq)
    )


_KO_PREDICATE_END = frozenset("다며고서면지요니게는은을던어아해한할된될라")


def _absent_hangul(claim: Sentence, doc: Document) -> list[str]:
    """Korean words of the claim none of whose syllable pairs the source has, unless the word ends
    like a predicate (a verb's inflected form shares too little with its other forms to tell)."""
    words: dict[str, list[str]] = {}
    for u in claim.units:
        if not u.startswith("#"):
            words.setdefault(claim.forms.get(u, u), []).append(u)
    return sorted(
        w for w, units in words.items()
        if len(w) >= 2 and w[-1] not in _KO_PREDICATE_END and not any(u in doc.units for u in units)
    )


def where_in_source(doc: Document, unit: str) -> str:
    """Which source sentence holds ``unit`` ("sentence 3", the first that does; "elsewhere" when none)."""
    for i, s in enumerate(doc.sentences):
        if unit in s.units:
            return f"sentence {i + 1}"
    return "elsewhere"


def passage_form(win: Window, unit: str) -> str:
    """How the passage writes ``unit`` (the unit itself, without "#", when it does not)."""
    for s in win.sentences:
        if unit in s.forms:
            return s.forms[unit]
    return unit.lstrip("#")
