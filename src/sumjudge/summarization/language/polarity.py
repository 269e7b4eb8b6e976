"""Polarity: negation cues and antonym pairs, per language.

A statement and the passage it is compared with must agree in polarity. Two signals, both local to
a *phrase* (a stretch of a sentence between commas, semicolons and clause-opening conjunctions; see
:mod:`.units`):

- **negation**: a negation cue ("not", "never", "n't", "nicht", "kein", "ne ... pas", "no", "않다",
  "없다", ...) on one side only;
- **antonyms**: the statement uses one word of a clear antonym pair ("opened" / "closed") where the
  passage uses the other, and neither side uses both.

The lists are short and hand-written on purpose: they name grammar (cues) and a few unambiguous
pairs, nothing tuned to a data set.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from .lexicon import NUMBER_WORDS

NEGATION_CUES: dict[str, frozenset[str]] = {
    "en": frozenset(
        "not no never none nobody nothing neither nor nowhere without cannot cant dont didnt doesnt "
        "isnt wasnt werent wont wouldnt couldnt shouldnt hasnt havent hadnt arent".split()
    ),
    "de": frozenset(
        "nicht kein keine keinen keinem keiner keines nie niemals nichts niemand weder ohne".split()
    ),
    "fr": frozenset("ne n pas jamais aucun aucune rien nul nulle sans ni guère".split()),
    "es": frozenset("no nunca jamás ningún ninguna ninguno nada nadie ni sin tampoco".split()),
    "it": frozenset("non mai nessun nessuno nessuna niente nulla senza né".split()),
    "pt": frozenset("não nunca jamais nenhum nenhuma nada ninguém sem nem".split()),
    "nl": frozenset("niet geen nooit niets niemand zonder noch".split()),
}
"""Words that negate the phrase they stand in (lower case; apostrophes removed for English)."""

# Korean negates inside the predicate: 않- ("-지 않다"), 없- ("없다": there is no), 아니- / 아닌
# ("is not"), and the adverbs 안 / 못 standing before the verb ("안 했다", "못 했다", "못했다").
_KO_NEGATION = regex.compile(r"않|없[다었는고어이음지을]|없$|^아니|^아닌|^안$|^못")

_EN_JOINED_NOT = regex.compile(r"^(?:do|does|did|is|was|are|were|has|have|had|will|would|could|should|must|need)not$")
_EN_NT_STEMS = frozenset(
    "didn doesn don isn wasn weren hasn haven hadn couldn wouldn shouldn aren won can ain mustn needn n".split()
)
# "not only ... but also" adds, it does not negate.
NOT_NEGATING_NEXT: dict[str, frozenset[str]] = {"en": frozenset({"only", "just", "merely"})}


def is_negation(word: str, lang: str, next_word: str = "") -> bool:
    """True when ``word`` (as written, any case) is a negation cue in ``lang``."""
    low = word.lower()
    if lang == "ko":
        return bool(_KO_NEGATION.search(low))
    if lang == "en":
        if low in NEGATION_CUES["en"]:
            if low == "no":
                return not next_word[:1].isdigit()  # "No 1", "No. 10": a number, not a negation
            return not (low == "not" and next_word.lower() in NOT_NEGATING_NEXT["en"])
        if low.endswith(("n't", "n’t")):
            return True  # "didn't", tokenized "did n't"
        if low in _EN_NT_STEMS:
            return next_word.lower() in {"t", "'t", "’t"}  # "didn ’ t"
        if low in _EN_FAIL:
            return next_word.lower() == "to"  # "failing to act", "yet to be revealed", "refused to pay": not
        if low == "far":
            return next_word.lower() == "from"  # "far from being combative": not combative
        if low in _EN_CALL:
            return next_word.lower() == "off"  # "called off the strike": no strike
        if low == "against":
            # "voted against building a pool" states the pool is not to be built; "against the plan" is a noun's
            nxt = next_word.lower()
            return len(nxt) > 4 and nxt.endswith("ing")
        return low.endswith("not") and bool(_EN_JOINED_NOT.match(low))  # "donot"
    if lang == "fr" and low.startswith(("n'", "n’")):
        return True
    cues = NEGATION_CUES.get(lang)
    return cues is not None and low in cues


def depends_on_next_word(word: str, lang: str) -> bool:
    """True when :func:`is_negation` may answer differently for ``word`` with another next word."""
    low = word.lower()
    return lang == "en" and (low in {"no", "not", "far", "against"} or low in _EN_NT_STEMS or low in _EN_FAIL or low in _EN_CALL)


_EN_FAIL = frozenset({
    "fail", "fails", "failed", "failing", "yet",
    # negative implicatives: "refused to give a refund" states that no refund was given
    "refuse", "refuses", "refused", "refusing", "decline", "declines", "declined", "declining",
})


_EN_CALL = frozenset({"call", "calls", "called", "calling"})
ENDING_EN = regex.compile(
    r"(?i)\b(?:withdr[ae]w|withdrawn|withdraws|ended|ends|stopped|stops|dropped|drops|abandoned|quit|ceased|halted"
    r"|scrapped|cancell?ed|suspended|revoked|cut|cuts|cutting|lost|loses|losing"
    r"|(?:mov|relocat|switch|shift|transferr)(?:ed|es|e|s)?\s+(?:\w+\s+){0,3}?from)\b"
)
"""English verbs that end what follows them: "withdrew her support" says what "no longer supports"
says, "cancelled the strike" what "called off the strike" says, "moved from Vienna" what "not in
Vienna" says, "cutting power to 85,000 homes" what "85,000 homes without power" says."""


ANTONYMS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("open", "close"), ("opened", "closed"), ("win", "lose"), ("won", "lost"), ("victory", "defeat"),
        ("increase", "decrease"), ("increased", "decreased"), ("rise", "fall"), ("rose", "fell"),
        ("higher", "lower"), ("more", "fewer"), ("larger", "smaller"), ("accept", "reject"),
        ("accepted", "rejected"), ("approve", "reject"), ("approved", "rejected"), ("buy", "sell"),
        ("bought", "sold"), ("arrive", "depart"), ("arrived", "left"), ("begin", "end"), ("began", "ended"),
        ("before", "after"), ("guilty", "innocent"), ("alive", "dead"), ("succeed", "fail"),
        ("succeeded", "failed"), ("success", "failure"), ("support", "oppose"), ("supported", "opposed"),
        ("include", "exclude"), ("included", "excluded"), ("allow", "forbid"), ("allowed", "banned"),
        ("gain", "loss"), ("profit", "loss"), ("maximum", "minimum"), ("first", "last"), ("early", "late"),
        ("earlier", "later"), ("true", "false"), ("positive", "negative"), ("import", "export"),
        ("male", "female"), ("public", "private"), ("legal", "illegal"), ("hired", "fired"),
        ("entered", "exited"), ("acquitted", "convicted"), ("remember", "forget"), ("remembered", "forgot"),
        # what befell a person, and what a ruling or a request came to
        ("unhurt", "injured"), ("unharmed", "injured"), ("uninjured", "injured"), ("unhurt", "hurt"),
        ("unharmed", "harmed"), ("survived", "died"), ("granted", "denied"), ("upheld", "overturned"),
        ("most", "least"), ("largest", "smallest"), ("biggest", "smallest"), ("better", "worse"),
        ("best", "worst"),
        # decisions reversed: a board, a court, a vote says yes or no
        ("approve", "refuse"), ("approved", "refused"), ("accept", "refuse"), ("accepted", "refused"),
        ("approved", "blocked"), ("approved", "vetoed"), ("granted", "refused"), ("allowed", "refused"),
        ("guilty", "acquitted"), ("convicted", "cleared"), ("confirmed", "denied"), ("admitted", "denied"),
        # a change in the other direction, said with another verb, and the time before or after now
        ("cut", "raised"), ("cut", "increased"), ("reduce", "increase"),
        ("reduced", "increased"), ("lowered", "raised"), ("ahead", "behind"), ("next", "last"),
        # what carries on and what ends: a service, a ban, a building
        ("reopen", "close"), ("reopened", "closed"), ("start", "stop"), ("started", "stopped"),
        ("continue", "stop"), ("continued", "stopped"), ("keep", "stop"), ("resume", "suspend"),
        ("resumed", "suspended"), ("lifted", "imposed"), ("hired", "sacked"), ("north", "south"),
        ("east", "west"), ("northern", "southern"), ("eastern", "western"),
    ),
    "de": (
        ("öffnen", "schließen"), ("eröffnet", "geschlossen"), ("gewinnen", "verlieren"), ("gewann", "verlor"),
        ("gewonnen", "verloren"), ("sieg", "niederlage"), ("steigen", "sinken"), ("stieg", "sank"),
        ("erhöht", "gesenkt"), ("mehr", "weniger"), ("höher", "niedriger"), ("größer", "kleiner"),
        ("kaufen", "verkaufen"), ("kaufte", "verkaufte"), ("zustimmen", "ablehnen"), ("angenommen", "abgelehnt"),
        ("anfang", "ende"), ("erste", "letzte"), ("früh", "spät"), ("vor", "nach"), ("schuldig", "unschuldig"),
        ("lebendig", "tot"), ("erfolg", "misserfolg"), ("gewinn", "verlust"), ("erlaubt", "verboten"),
    ),
    "fr": (
        ("ouvert", "fermé"), ("ouvrir", "fermer"), ("gagner", "perdre"), ("gagné", "perdu"),
        ("victoire", "défaite"), ("augmenter", "diminuer"), ("augmenté", "diminué"), ("hausse", "baisse"),
        ("plus", "moins"), ("acheter", "vendre"), ("acheté", "vendu"), ("accepté", "refusé"),
        ("premier", "dernier"), ("avant", "après"), ("coupable", "innocent"), ("vivant", "mort"),
        ("succès", "échec"), ("autorisé", "interdit"),
    ),
    "es": (
        ("abrir", "cerrar"), ("abrió", "cerró"), ("abierto", "cerrado"), ("ganar", "perder"), ("ganó", "perdió"),
        ("victoria", "derrota"), ("aumentar", "disminuir"), ("aumentó", "disminuyó"), ("subió", "bajó"),
        ("más", "menos"), ("comprar", "vender"), ("compró", "vendió"), ("aceptó", "rechazó"),
        ("aprobó", "rechazó"), ("primero", "último"), ("antes", "después"), ("culpable", "inocente"),
        ("vivo", "muerto"), ("éxito", "fracaso"), ("permitido", "prohibido"),
    ),
    "ko": (
        ("증가", "감소"), ("상승", "하락"), ("승리", "패배"), ("찬성", "반대"), ("구매", "판매"), ("개통", "폐쇄"),
        ("개장", "폐장"), ("흑자", "적자"), ("합격", "탈락"), ("유죄", "무죄"), ("시작", "종료"), ("이전", "이후"),
        ("최대", "최소"), ("확대", "축소"), ("인상", "인하"), ("허용", "금지"), ("성공", "실패"), ("수입", "수출"),
        ("기각", "인용"), ("가결", "부결"), ("승", "패"), ("승소", "패소"), ("당선", "낙선"), ("이기다", "지다"),
        ("늘다", "줄다"), ("오르다", "내리다"), ("높다", "낮다"), ("석방", "구속"), ("승인", "거부"),
        ("늘다", "감소"), ("증가", "줄다"), ("오르다", "하락"), ("상승", "내리다"), ("늘리다", "줄이다"),
        ("확대", "줄이다"), ("축소", "늘리다"), ("꺾다", "지다"), ("꺾다", "패하다"), ("이기다", "패하다"),
        ("통과", "부결"),
    ),
}
"""Clear antonym pairs, as written; they are compared after the judge's own stemming (Korean:
as the character bigrams the judge compares). Korean writes a change both as a verb and as a
Sino-Korean noun (줄었다, 감소했다), so each direction's verb is paired with the other's noun too."""


OPPOSITE_LINKS: dict[str, dict[str, str]] = {
    "en": {"before": "after", "after": "before", "for": "against", "against": "for", "to": "from",
           "from": "to", "above": "below", "below": "above", "up": "down", "down": "up"},
}
"""Function words whose opposite between the same two words turns a fact around ("resigned before
the vote" / "after the vote", "voted for the bill" / "against the bill", "moved to Boston" / "from
Boston"). They are no content units, so the antonym pairs above cannot hold them."""
_DIRECTIONS = frozenset({"to", "from"})
_COUNTS = frozenset(NUMBER_WORDS) | {"one", "a", "an"}
_SPANS = ("second", "minute", "hour", "day", "week", "month", "year")
SPANS_OF_TIME: dict[str, frozenset[str]] = {
    form: frozenset(o + end for o in _SPANS if o != unit for end in ("", "s"))
    for unit in _SPANS for form in (unit, unit + "s")
}
"""A span of time and the others: after the same number, one for another changes the fact ("six
months" for "six years"); "over the years" for "a week" does not."""
_MEASURES = (
    ("millimetre millimetres millimeter millimeters", "centimetre centimetres centimeter centimeters",
     "metre metres meter meters", "kilometre kilometres kilometer kilometers", "mile miles", "foot feet",
     "inch inches", "yard yards"),
    ("gram grams", "kilogram kilograms kilo kilos", "tonne tonnes ton tons"),
)
UNITS_OF_MEASURE: dict[str, frozenset[str]] = SPANS_OF_TIME | {
    form: frozenset(o for other in group if other != unit for o in other.split())
    for group in _MEASURES for unit in group for form in unit.split()
}
"""Spans of time, lengths and weights, each with the other units of its kind: after the same
number, one for another changes the fact ("40 metres" for "40 centimetres")."""

MOVING: dict[str, tuple[str, ...]] = {
    "en": ("mov", "relocat", "transfer", "shift", "flew", "fly", "flies", "travel", "return", "switch", "sail",
           "drove", "fled", "flee", "migrat", "emigrat", "defect", "sent", "send", "ship", "deport"),
}
"""Beginnings of the verbs of moving: "to" and "from" are opposite only after one ("moved to
Boston" / "moved from Boston"); elsewhere they are not ("cards shown to United players" / "players
from United")."""


def opposites_after(word: str, before: list[str], lang: str) -> frozenset[str]:
    """The words that turn ``word`` (lower case) around where the words ``before`` it allow: its
    opposite link word (:data:`OPPOSITE_LINKS`; "to" and "from" only within four words after a verb of
    moving, :data:`MOVING`: "moved its headquarters to Boston"), or, in English right after a number,
    the other units of its kind (:data:`UNITS_OF_MEASURE`). Empty where none."""
    other = OPPOSITE_LINKS.get(lang, {}).get(word)
    moving = MOVING.get(lang, ())
    if other is not None and word in _DIRECTIONS and not any(w.startswith(moving) for w in before[-4:]):
        return frozenset()
    if other is not None:
        return frozenset({other})
    if lang == "en" and word in UNITS_OF_MEASURE and before and (before[-1].isdigit() or before[-1] in _COUNTS):
        return UNITS_OF_MEASURE[word]
    return frozenset()


def antonym_map(lang: str, unit_of: Callable[[str], str]) -> dict[str, frozenset[str]]:
    """unit -> the units that contradict it, for ``lang``, with ``unit_of`` turning a listed word
    into the unit the judge compares (a stem, or the word itself for Korean)."""
    out: dict[str, set[str]] = {}
    for a, b in ANTONYMS.get(lang, ()):
        ua, ub = unit_of(a), unit_of(b)
        if ua and ub and ua != ub:
            out.setdefault(ua, set()).add(ub)
            out.setdefault(ub, set()).add(ua)
    return {k: frozenset(v) for k, v in out.items()}
