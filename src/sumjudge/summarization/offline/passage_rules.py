"""The offline judge's rules that read a claim against each of its passages: how much of the claim the
passage holds, and what it shows wrong (an antonym, a negation, roles or a link turned around) or
leaves in doubt (another subject, a plan as done, words joined across clauses or far apart). Each is a
:class:`.findings.Rule`; :mod:`.rule_list` orders them."""

from __future__ import annotations

from ..language.units import PASSIVE, Sentence
from ..language.passages import Evidence
from ..language.segment import quote
from .crossings import crossing_note
from .extrinsic import antonym_beside, in_slot, passage_form, predicates, slot_word
from .findings import Doubt, Finding, Look, Rule, Wrong
from .links import opposite_link, unit_changed
from .roles import anchors_reordered, role_swap
from .swapped_names import subject_swap, swap_shown
from .support import Shown, loose_pairs, negated_once, negation_unstated, polarity_conflict
from .tense import planned_as_done


def _doubt(note: str | None) -> Finding:
    return Doubt((note,)) if note else None


def _slotted(look: Look) -> Finding:
    return _doubt(look.slotted) if look.reads_additions else None


SLOT_WORD = Rule(
    "word in another's slot", "a claim word the passage lacks where the passage has another word",
    "passage", (Doubt,), _slotted, english_only=True,
)


def _share(look: Look) -> Finding:
    claim, ev, case = look.claim, look.ev, look.case
    covered = ev.found | ev.names_before | frozenset(look.substitutions) | case.light
    addition_share = case.settings.addition_share
    if look.reads_additions and addition_share is not None:
        missing = {u for u in claim.units - covered if not u.startswith("#") and u not in claim.names}
        missing -= predicates(claim)  # a verb the passage lacks counts against the threshold, not as added
        if look.slotted is None and claim.weight_of(covered) / claim.mass >= addition_share:
            covered |= missing  # none of them is in a slot: additions
    share = claim.weight_of(covered) / claim.mass if claim.mass else 0.0
    if share < case.settings.support_threshold:
        return Doubt((f"only {share:.0%} of the claim occurs in the closest passage ({ev.where})",))
    return None


SHARE = Rule(
    "share of the claim", "the share of the claim's weight the passage holds (substitutions, additions "
    "counted)", "passage", (Doubt,), _share,
)


def _antonym(claim: Sentence, unit: str, ev: Evidence, there: str) -> Shown:
    """A claim word against its antonym in the passage."""
    said, theirs = claim.forms.get(unit, unit), passage_form(ev, there)
    return Shown(
        f"{said!r} contradicts the source's {theirs!r}: the claim says "
        f'"{quote(claim.text, 100)}", the source says "{quote(ev.text, 100)}" ({ev.where})',
        said, theirs,
    )


def _antonym_substituted(look: Look) -> Finding:
    claim, ev, lang = look.claim, look.ev, look.doc.lang
    antonyms = look.case.analyser.antonyms
    for u, x in look.substitutions.items():
        if x in antonyms.get(u, ()) and not negated_once(claim, u, ev.sentences, x, lang):
            return Wrong((_antonym(claim, u, ev, x),), ev)
    return None


ANTONYM_SUBSTITUTED = Rule(
    "antonym substituted", "a claim word whose slot beside a name or number holds its antonym",
    "passage", (Wrong,), _antonym_substituted,
)


def _antonym_in_place(look: Look) -> Finding:
    claim, ev, lang = look.claim, look.ev, look.doc.lang
    antonyms = look.case.analyser.antonyms
    for u in sorted(claim.units - ev.found - ev.names_before):
        against = antonyms.get(u)
        if not against or u.startswith("#") or u in claim.names:
            continue
        there = slot_word(claim, u, ev) if in_slot(claim, u, ev) else antonym_beside(claim, u, ev, against)
        # "the driver was unhurt" where the passage has "the driver was injured"; "did not approve"
        # for "rejected" negates the antonym: the two agree
        if there in against and not negated_once(claim, u, ev.sentences, there, lang):
            return Wrong((_antonym(claim, u, ev, there),), ev)
    return None


ANTONYM_IN_PLACE = Rule(
    "antonym in place", "a claim word the passage lacks, its antonym in its slot or beside its neighbours",
    "passage", (Wrong,), _antonym_in_place,
)


def _polarity(look: Look) -> Finding:
    ev = look.ev
    conflict = polarity_conflict(
        look.claim, list(ev.sentences), look.case.analyser.antonyms, who="the claim",
        where=f"the source ({ev.where})", lang=look.doc.lang,
    )
    return Wrong((conflict,), ev) if conflict else None


POLARITY = Rule(
    "polarity", "phrases sharing most weight and predicate, one negated or an antonym pair",
    "passage", (Wrong,), _polarity,
)


def _negation_unstated(look: Look) -> Finding:
    claim, ev, light = look.claim, look.ev, look.case.light
    if not any(p.negated for p in claim.phrases) or not claim.units <= ev.found | ev.names_before | light:
        return None
    # every word there: one sentence must state the negated phrase, its words in order
    unstated = negation_unstated(claim, ev.sentences, ev.names_before | light, look.doc.lang)
    if unstated is None:
        return None
    return Wrong((Shown(
        f'negation differs: the claim says "{quote(claim.text, 100)}", the source ({ev.where}) says '
        f'"{quote(ev.text, 100)}" without a negation',
        unstated.strip().rstrip("."),
    ),), ev)


NEGATION_UNSTATED = Rule(
    "negation unstated", "a negated claim whose words the passage holds, no sentence stating them negated",
    "passage", (Wrong,), _negation_unstated,
)


def _roles(look: Look) -> Finding:
    lang = look.doc.lang
    swap = role_swap(look.claim, look.ev, look.case.settings.pair_distance, PASSIVE.get(lang), lang)
    return Wrong((swap,), look.ev) if swap else None


ROLES = Rule(
    "roles swapped", "two claim words on the other sides of the word between them, same voice (Korean: case "
    "particles)", "passage", (Wrong,), _roles,
)


def _turned(look: Look, found: tuple[str, str, Sentence] | None) -> Finding:
    """A claim word against the source's opposite in the sentence ``found`` names."""
    if not found:
        return None
    mine, theirs, s = found
    ev, doc = look.ev, look.doc
    where = ev.where if s in ev.sentences else f"sentence {doc.sentences.index(s) + 1}"  # a unit elsewhere
    return Wrong((Shown(
        f"{mine!r} contradicts the source's {theirs!r}: the claim says \"{quote(look.claim.text, 100)}\", "
        f"the source says \"{quote(s.text, 100)}\" ({where})", mine, theirs,
    ),), ev)


def _link_turned(look: Look) -> Finding:
    return _turned(look, opposite_link(look.claim, look.ev.sentences, look.doc.lang))


LINK_TURNED = Rule(
    "link turned", "a claim word whose opposite stands between the same two words (\"before\"/\"after\", "
    "\"for\"/\"against\", \"months\"/\"years\")", "passage", (Wrong,), _link_turned,
)


def _unit_changed(look: Look) -> Finding:
    return _turned(look, unit_changed(look.claim, look.doc.sentences, look.doc.lang))


UNIT_CHANGED = Rule(
    "unit changed", "a number's length or weight unit where the source gives that number another",
    "passage", (Wrong,), _unit_changed, english_only=True,
)


def _swapped_names(look: Look) -> Finding:
    subject = swap_shown(look.claim, look.ev.sentences)
    if not subject:
        return None
    mine, theirs, verb = subject
    ev = look.ev
    reason = f'the source says {theirs!r} {verb}, not {mine!r}: "{quote(ev.text, 100)}" ({ev.where})'
    return Wrong((Shown(reason, mine, theirs),), ev)


SWAPPED_NAMES = Rule(
    "swapped names", "the same people in swapped roles, another winner, a comparison turned around, the "
    "loser as the winner", "passage", (Wrong,), _swapped_names, english_only=True,
)


def _other_subject(look: Look) -> Finding:
    other = subject_swap(look.claim, look.ev.sentences, named_after=False)
    if not other:
        return None
    mine, theirs, verb = other
    return Doubt((f"the source ({look.ev.where}) says {theirs!r} {verb}, where the claim has {mine!r}",))


OTHER_SUBJECT = Rule(
    "another subject", "the claim's verb with another subject in the passage",
    "passage", (Doubt,), _other_subject, english_only=True,
)


def _planned(look: Look) -> Finding:
    planned = planned_as_done(look.claim, look.ev, look.case.analyser)
    if not planned:
        return None
    return Doubt((f"the source ({look.ev.where}) has {planned!r} only as planned, asked for or possible: "
                  "the claim states it as done",))


PLANNED = Rule(
    "plan as done", "what the passage only plans, asks for or expects, stated as done",
    "passage", (Doubt,), _planned, english_only=True,
)


def _crossing(look: Look) -> Finding:
    return _doubt(crossing_note(look.claim, look.ev, look.case.analyser))


CROSSING = Rule(
    "words across clauses", "words joined from different clauses or sentences",
    "passage", (Doubt,), _crossing, english_only=True,
)


def _reordered(look: Look) -> Finding:
    reordered = anchors_reordered(look.claim, look.ev)
    if not reordered:
        return None
    return Doubt((f"the source ({look.ev.where}) has {reordered[1]!r} before {reordered[0]!r}: "
                  "the claim may relate them otherwise",))


REORDERED = Rule(
    "names reordered", "two of the claim's names or numbers in the other order",
    "passage", (Doubt,), _reordered,
)


def _apart(look: Look) -> Finding:
    claim, ev, cfg = look.claim, look.ev, look.case.settings
    if cfg.pair_threshold <= 0:
        return None
    loose, judged = loose_pairs(claim, ev, cfg.pair_distance)
    if not judged or 1 - len(loose) / judged >= cfg.pair_threshold:
        return None
    shown = ", ".join(f"{claim.forms.get(a, a)!r} with {claim.forms.get(b, b)!r}" for a, b in loose[:3])
    return Doubt((
        f"the words occur in the source ({ev.where}) but not together as the claim puts them: {shown}",
    ))


APART = Rule(
    "words apart", "neighbouring claim words far apart in the passage sentence holding both",
    "passage", (Doubt,), _apart,
)


__all__ = [
    "ANTONYM_IN_PLACE", "ANTONYM_SUBSTITUTED", "APART", "CROSSING", "LINK_TURNED", "SWAPPED_NAMES",
    "NEGATION_UNSTATED", "OTHER_SUBJECT", "PLANNED", "POLARITY", "REORDERED", "ROLES", "SHARE", "SLOT_WORD",
    "UNIT_CHANGED",
]
