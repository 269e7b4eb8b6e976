"""Evidence in HTML, for the report and the viewer: texts with their marked passages (the long-source
evidence each claim was judged against, and the located quotes of the verdicts), and the line under a
verdict that shows its quote and whether it was found.

Every secret in a text (:func:`~sumjudge.guards.redact.secret_spans`: the environment's keys, key-shaped strings)
is hidden before the text is cut into marked passages: a key that a ``<mark>`` boundary splits would
otherwise be written in two pieces that no search for it finds."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from ..guards.redact import MASK, redact, secret_spans
from .counterparts import with_counterparts


def e(value: Any) -> str:
    return escape("" if value is None else str(value), quote=True)


def shown(value: Any) -> str:
    """A text of the data or of the judge, escaped, with every secret hidden (:func:`~sumjudge.guards.redact.redact`)."""
    return e(redact("" if value is None else str(value)))


def highlight(
    source: str,
    spans: list[tuple[int, int, int]],
    quotes: Sequence[tuple[int, int, str]] = (),
    against: Sequence[tuple[int, int, str]] = (),
    differs: Sequence[tuple[int, int, str]] = (),
) -> str:
    """``source`` as escaped HTML with each evidence span (start, end, claim index) in a ``<mark>``
    naming the claims it backs, and each located quote (start, end, the verdict's key, such as
    ``claim-0`` or ``answer-2``) in a ``<mark class="quote">`` naming the verdicts that quote it (the
    page lights them when a verdict is hovered); overlapping spans are cut at every boundary.

    Errors where they are: ``against`` are the passages that disprove unsupported claims
    (``<mark class="quote against">``, their own colour), ``differs`` the words a judge shows wrong
    (``<mark class="quote differs">``: in the summary the claim's, in the source the passage's in
    their place); both are named by their verdict's key, as quotes are."""
    n = len(source)
    hidden = secret_spans(source)  # hidden before the cut: a key split by a <mark> is still a key

    def clip(items: Sequence[tuple[int, int, Any]]) -> list[tuple[int, int, Any]]:
        kept = [(max(0, min(s, n)), max(0, min(t, n)), k) for s, t, k in items]
        return [(s, t, k) for s, t, k in kept if t > s]

    spans = clip(spans)
    layers = [("quote", clip(quotes)), ("quote against", clip(against)), ("quote differs", clip(differs))]
    cuts = sorted({0, n, *(x for s, t, _ in spans for x in (s, t)),
                   *(x for _, items in layers for s, t, _ in items for x in (s, t)),
                   *(x for span in hidden for x in span)})
    out: list[str] = []
    for lo, hi in zip(cuts, cuts[1:]):
        secret = next((s for s, t in hidden if s <= lo and hi <= t), None)
        if secret is not None and secret != lo:
            continue  # the rest of a secret already written as one mask
        claims = sorted({i for s, t, i in spans if s <= lo and hi <= t})
        text = MASK if secret is not None else e(source[lo:hi])
        for cls, items in reversed(layers):  # the innermost first: the differing words, the passage, the quote
            keys = sorted({k for s, t, k in items if s <= lo and hi <= t})
            if keys:
                what = {"quote": "quoted by", "quote against": "disproves", "quote differs": "differs, for"}[cls]
                text = f'<mark class="{cls}" data-quotes="{e(" ".join(keys))}" title="{what} {e(", ".join(keys))}">{text}</mark>'
        if claims:
            names = " ".join(str(i) for i in claims)
            title = "evidence for claim " + ", ".join(str(i + 1) for i in claims)
            out.append(f'<mark class="evidence" data-claims="{names}" title="{title}">{text}</mark>')
        else:
            out.append(text)
    return "".join(out)


def disproves(verdict: object) -> bool:
    """Whether an unsupported claim's quote is shown to disprove it: a word the judge shows wrong is
    located in the source. Else the quote is only the passage the claim was judged against (for a
    claim whose words the source lacks, the nearest sentence, which says nothing against it)."""
    return any(getattr(d, "source_offsets", None) for d in getattr(verdict, "differs", None) or [])


def evidence_line(verdict: object) -> str:
    """The judge's quote under a verdict, and whether it was found (nothing for verdicts no scorer
    checked). An unsupported claim's quote is the passage that disproves it where the words that differ
    are in it (:func:`disproves`), shown as such with them; else the passage it was judged against; a
    verdict with no quote says there was nothing to check, never as a success."""
    quote, verified = getattr(verdict, "quote", ""), getattr(verdict, "verified", None)
    if verified is None:
        return ""
    located = bool(getattr(verdict, "quote_offsets", None))
    against = getattr(verdict, "supported", True) is False
    if not verified:
        badge = '<span class="not-found">⚠ unverified: quote not found where it should be</span>'
    elif located and against and disproves(verdict):
        badge = '<span class="against">✘ disproved by the source:</span>'
    elif located and against:
        badge = '<span class="nothing">✘ not supported; the passage it was judged against:</span>'
    elif located:
        badge = '<span class="found">✔ quote found</span>'
    else:
        badge = '<span class="nothing">– nothing to check: no quote</span>'
    said = f" <q>{shown(quote)}</q>" if quote else ""
    return f'<div class="quote-line">{badge}{said}</div>{_differs_line(verdict)}'


def _differs_line(verdict: object) -> str:
    """The words a judge shows wrong: what the claim says, and what the source says in its place."""
    parts = []
    for d in getattr(verdict, "differs", None) or []:
        theirs = f'says <mark class="differs">{shown(d.source)}</mark>' if d.source else "has nothing in its place"
        parts.append(f'the claim says <mark class="differs">{shown(d.claim)}</mark>, the source {theirs}')
    return f'<div class="differs-line">{"; ".join(parts)}</div>' if parts else ""


def quote_spans(o: Any) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    """The located quotes of the item's verdicts: supported claims' in the source, answers' in the
    summary (an unsupported claim's quote disproves it: :func:`error_spans`)."""
    v = o.verdicts
    if v is None:
        return [], []
    claims = [(a.quote_offsets[0], a.quote_offsets[1], f"claim-{i}") for i, a in enumerate(v.alignment)
              if a.quote_offsets and a.supported]
    answers = [(a.quote_offsets[0], a.quote_offsets[1], f"answer-{i}") for i, a in enumerate(v.coverage) if a.quote_offsets]
    return claims, answers


def claims_shown(o: Any, source: str | None, summary: str | None) -> list[Any]:
    """The item's claim verdicts as the report shows them: with the texts at hand, each unsupported
    claim's differing words aligned with their counterparts in its passage (:mod:`.counterparts`)."""
    claims = o.verdicts.alignment if o.verdicts is not None else []
    if source is None or summary is None:
        return list(claims)
    return [with_counterparts(c, source, summary) for c in claims]


def error_spans(
    claims: list[Any],
) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    """For unsupported ``claims`` (their verdicts, with the differing words aligned:
    :func:`.counterparts.with_counterparts`): the passages that disprove them (in the source: only a
    passage that holds a differing word, :func:`disproves`), the source's differing words and the
    claims' differing words (in the summary), each keyed by its claim."""
    against: list[tuple[int, int, str]] = []
    in_source: list[tuple[int, int, str]] = []
    in_summary: list[tuple[int, int, str]] = []
    for i, a in enumerate(claims):
        if a.supported:
            continue
        key = f"claim-{i}"
        if a.quote_offsets and disproves(a):
            against.append((a.quote_offsets[0], a.quote_offsets[1], key))
        for d in a.differs or []:
            if d.source_offsets:
                in_source.append((d.source_offsets[0], d.source_offsets[1], key))
            if d.claim_offsets:
                in_summary.append((d.claim_offsets[0], d.claim_offsets[1], key))
    return against, in_source, in_summary


__all__ = ["claims_shown", "disproves", "error_spans", "evidence_line", "highlight", "quote_spans", "shown"]
