"""A claim's alternatives built from its source: the claim with one of its values (a name, a number,
a sum of money, a share, a month, a weekday, a year, a decision verb) replaced by another value of the
same kind that the source holds, or two of its values of one kind swapped. The reader asks the model
about a claim and its alternatives after the same read of the source; a claim whose alternative the
model finds clearly more probable than the claim itself is one whose value the source attaches to
something else (a figure moved to another line of a budget, two people's roles swapped, a supplier
replaced by the retailer the article also names).

A faithful claim's alternatives are wrong by construction, so they score lower than the claim: what
keeps faithful summaries passing. Only words are compared here (no model): English patterns; a text
with none of them has no alternatives, and the reader decides its claims by their P alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import regex

_SCALE = r"(?:\s(?:million|billion|trillion|thousand|bn|m)\b)?"
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_WEEKDAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
_KINDS: tuple[tuple[str, regex.Pattern[str]], ...] = (
    ("money", regex.compile(r"[$£€]\s?\d(?:[\d,]*\d)?(?:\.\d+)?" + _SCALE + r"|\b\d(?:[\d,]*\d)?(?:\.\d+)?" + _SCALE
                            + r"\s(?:dollars|euros|pounds|yen|francs)\b")),
    ("share", regex.compile(r"\b\d+(?:\.\d+)?\s?(?:%|percent\b|per cent\b)")),
    ("month", regex.compile(rf"\b(?:{_MONTHS})(?:\s\d{{1,2}}\b)?")),
    ("weekday", regex.compile(rf"\b(?:{_WEEKDAYS})\b")),
    ("year", regex.compile(r"\b(?:1[89]|20)\d\d\b")),
    ("number", regex.compile(r"\b\d(?:[\d,]*\d)?(?:\.\d+)?" + _SCALE)),
    ("decision", regex.compile(
        r"\b(?:approved|rejected|accepted|refused|won|lost|rose|fell|increased|decreased|raised|lowered|cut|"
        r"opened|closed|backed|opposed|upheld|overturned|acquitted|convicted|confirmed|denied|allowed|banned|"
        r"supported|criticised|criticized|praised|hired|fired|expanded|reduced)\b", regex.I)),
    ("name", regex.compile(r"\b\p{Lu}[\p{L}'’.\-]*(?:\s(?:of|de|van|von|da|del|la)?\s?\p{Lu}[\p{L}'’.\-]*)*")),
)
"""Each kind of value and its pattern, most specific first: a span taken by one kind is not another's."""

_OPPOSITE = {
    "approved": "rejected", "rejected": "approved", "accepted": "refused", "refused": "accepted", "won": "lost",
    "lost": "won", "rose": "fell", "fell": "rose", "increased": "decreased", "decreased": "increased",
    "raised": "lowered", "lowered": "raised", "cut": "raised", "opened": "closed", "closed": "opened",
    "backed": "opposed", "opposed": "backed", "upheld": "overturned", "overturned": "upheld",
    "acquitted": "convicted", "convicted": "acquitted", "confirmed": "denied", "denied": "confirmed",
    "allowed": "banned", "banned": "allowed", "supported": "opposed", "criticised": "praised",
    "criticized": "praised", "praised": "criticised", "hired": "fired", "fired": "hired",
    "expanded": "reduced", "reduced": "expanded",
}
"""A decision verb and the one that reverses it: the alternative of a decision is its reversal, whether
or not the source has that word."""

_NOT_NAMES = frozenset(
    "the a an in on at he she it they we i his her its their this that these those but and or after before "
    "when while as if for from by with to of mr mrs ms dr st said says its however also yet so then there "
    "here one two three on under over about according since until during many some most all each every "
    "jan feb mar apr aug sep sept oct nov dec".split()
)
"""Capitalised words that open a sentence without naming anything: cut from the front of a name."""


@dataclass(frozen=True)
class Value:
    kind: str
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Alternative:
    """The claim with ``was`` replaced by ``now`` (a swap: both ways)."""

    text: str
    was: str
    now: str
    at: int = 0
    """Where it first differs from the claim (characters): read right after the claim, the words
    before it are the claim's, already in llama.cpp's context."""


def values(text: str, known: frozenset[str] = frozenset()) -> list[Value]:
    """The values of ``text``, by kind, in the order the text writes them; a span belongs to the first
    kind whose pattern takes it. A one-word name that opens a sentence is a name only where ``known``
    (words written capitalised inside a sentence) holds it: else it is an ordinary word capitalised."""
    taken: list[Value] = []
    for kind, pattern in _KINDS:
        for m in pattern.finditer(text):
            spans = _names(text, m.start(), m.group(0), known) if kind == "name" else [(m.start(), m.group(0))]
            for start, found in spans:
                end = start + len(found)
                if not any(v.start < end and start < v.end for v in taken):
                    taken.append(Value(kind, found, start, end))
    return sorted(taken, key=lambda v: v.start)


_OPENS = regex.compile(r"(?:^|[.!?:;\"“(]\s*)$")


def _names(text: str, start: int, found: str, known: frozenset[str]) -> list[tuple[int, str]]:
    """The names in one run of capitalised words: the words that open sentences without naming
    anything cut from its front, split at a possessive ("Alderton's Kellan River"), a dateline in
    capitals left out."""
    out = []
    for part in regex.finditer(r"[^'’]+(?:['’](?!s\b)[^'’]*)*", found):
        words, at = part.group(0).split(" "), start + part.start()
        while words and (not words[0] or words[0].lower().strip("'’.") in _NOT_NAMES or words[0].lower() == "s"):
            at += len(words[0]) + 1
            words = words[1:]
        name = " ".join(words).rstrip(".'’ ")
        if len(name) < 2 or name.lower() in _NOT_NAMES or (name.isupper() and len(name) > 4):
            continue
        if " " not in name and _OPENS.search(text[:at]) and name not in known:
            continue
        out.append((at, name))
    return out


def capitalised_inside(text: str) -> frozenset[str]:
    """The words ``text`` writes capitalised inside a sentence (not after its opening): names."""
    return frozenset(m.group(1) for m in regex.finditer(r"(?<=[\p{L}\p{N},]\s)(\p{Lu}[\p{L}\-]+)", text))


def _same(a: str, b: str) -> bool:
    """One value twice: equal, or one a part of the other ("Farrow", "Denise Farrow")."""
    x, y = _key(a), _key(b)
    return x == y or (len(x) > 3 and len(y) > 3 and (f" {x} " in f" {y} " or f" {y} " in f" {x} "))


def _key(text: str) -> str:
    return regex.sub(r"[\s,]+", " ", text.casefold().replace("’", "'")).strip()


_WORD = regex.compile(r"[\p{L}\p{N}]+")
_STOP = frozenset("the and for was were with that this from have has had its their his her are will would said "
                  "says about after before into than also been which who more".split())


Context = dict[str, int]
"""A word cut to five letters -> its nearness to a value, on either side (a paraphrase may put it on
the other): ``width`` for the word next to it, 1 for the farthest."""


def _around(text: str, start: int, end: int, width: int = 3) -> Context:
    """The content words within ``width`` words of a value in ``text`` (where the other values are
    blanked out: they are what may be swapped, not what a value is said of), by nearness."""
    before = [w for w in _WORD.findall(text[:start]) if len(w) > 2 and w.lower() not in _STOP][-width:]
    after = [w for w in _WORD.findall(text[end:]) if len(w) > 2 and w.lower() not in _STOP][:width]
    out: Context = {}
    for words in (before[::-1], after):
        for rank, w in enumerate(words):
            key = w.lower()[:5]
            out[key] = max(out.get(key, 0), width - rank)
    return out


def _shared(a: Context, b: Context) -> int:
    """How much of one value's surroundings the other's repeat, the nearest words counting most."""
    return sum(min(n, b[k]) for k, n in a.items() if k in b)


def _blanked(text: str, found: list[Value]) -> str:
    """``text`` with each of its values' spans turned to spaces (offsets kept)."""
    chars = list(text)
    for v in found:
        chars[v.start : v.end] = " " * (v.end - v.start)
    return "".join(chars)


@dataclass(frozen=True)
class _Held:
    """A value of the source with the words around it there."""

    kind: str
    text: str
    around: Context


def alternatives(claim: str, sentences: Sequence[str], limit: int) -> list[Alternative]:
    """At most ``limit`` alternatives of ``claim`` from the source ``sentences``, those whose new value
    the source writes among the words the claim writes around the old one first (what the source
    attaches there): two of the claim's values of a kind swapped, a value replaced by the source's
    value of its kind, a decision reversed. Built only where the source writes more of the claim's
    words around the new value than around the claim's own: a value the source attaches to the
    claim's words as well ("a Melbourne hospital", "the Royal Children's Hospital in Melbourne") is
    no alternative but another true detail. A value the claim already holds is never put in."""
    if limit <= 0:
        return []
    known = capitalised_inside(" ".join(sentences)) | capitalised_inside(claim)
    own = values(claim, known)
    held = []
    for sentence in sentences:
        found = values(sentence, known)
        plain = _blanked(sentence, found)
        held += [_Held(v.kind, v.text, _around(plain, v.start, v.end)) for v in found]
    bare = _blanked(claim, own)
    ranked: list[tuple[int, int, Alternative]] = []
    for i, a in enumerate(own):
        ctx = _around(bare, a.start, a.end)
        if a.kind == "decision":
            opposite = _OPPOSITE.get(a.text.lower())
            if opposite is not None:
                now = opposite.capitalize() if a.text[:1].isupper() else opposite
                ranked.append((1, i, Alternative(_replaced(claim, a, now), a.text, now, a.start)))
            continue
        mine = _fit(ctx, a.text, held)  # how much of the claim's words the source writes around the claim's value
        best: dict[str, int] = {}
        for h in held:
            if h.kind == a.kind and not any(_same(h.text, w.text) for w in own):
                best[h.text] = max(best.get(h.text, 0), _shared(ctx, h.around))
        ranked += [(n, i, Alternative(_replaced(claim, a, u), a.text, u, a.start)) for u, n in best.items() if n > mine]
        for b in own[i + 1 :]:  # two values of one kind, each where the source writes the other
            if b.kind == a.kind and a.kind != "year" and not _same(a.text, b.text):
                around_b = _around(bare, b.start, b.end)
                crossed = _fit(ctx, b.text, held) + _fit(around_b, a.text, held)
                if crossed > mine + _fit(around_b, b.text, held):
                    swapped = claim[: a.start] + b.text + claim[a.end : b.start] + a.text + claim[b.end :]
                    ranked.append((crossed, i, Alternative(swapped, f"{a.text} ... {b.text}", f"{b.text} ... {a.text}", a.start)))
    ranked.sort(key=lambda r: (-r[0], r[1]))
    out: list[Alternative] = []
    seen = {_key(claim)}
    for _, _, alt in ranked:
        if _key(alt.text) not in seen and len(out) < limit:
            seen.add(_key(alt.text))
            out.append(alt)
    return out


def _fit(ctx: Context, value: str, held: list[_Held]) -> int:
    """How much of the surroundings ``ctx`` the source writes around ``value`` (at its best place)."""
    return max((_shared(ctx, h.around) for h in held if _same(h.text, value)), default=0)


def _replaced(text: str, v: Value, now: str) -> str:
    return text[: v.start] + now + text[v.end :]


def logit(p: float) -> float:
    """The log-odds of ``p``, kept finite at 0 and 1."""
    p = min(max(p, 1e-9), 1 - 1e-9)
    return math.log(p / (1 - p))


def beaten_by(claim_p: float, alternative_p: float) -> float:
    """How much more probable the alternative reads than the claim, in log-odds (> 0: the alternative)."""
    return logit(alternative_p) - logit(claim_p)


__all__ = ["Alternative", "Value", "alternatives", "beaten_by", "capitalised_inside", "logit", "values"]
