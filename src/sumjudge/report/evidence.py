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


def e(value: Any) -> str:
    return escape("" if value is None else str(value), quote=True)


def shown(value: Any) -> str:
    """A text of the data or of the judge, escaped, with every secret hidden (:func:`~sumjudge.guards.redact.redact`)."""
    return e(redact("" if value is None else str(value)))


def highlight(source: str, spans: list[tuple[int, int, int]], quotes: Sequence[tuple[int, int, str]] = ()) -> str:
    """``source`` as escaped HTML with each evidence span (start, end, claim index) in a ``<mark>``
    naming the claims it backs, and each located quote (start, end, the verdict's key, such as
    ``claim-0`` or ``answer-2``) in a ``<mark class="quote">`` naming the verdicts that quote it (the
    page lights them when a verdict is hovered); overlapping spans are cut at every boundary."""
    n = len(source)
    hidden = secret_spans(source)  # hidden before the cut: a key split by a <mark> is still a key
    spans = [(max(0, min(s, n)), max(0, min(t, n)), i) for s, t, i in spans]
    spans = [(s, t, i) for s, t, i in spans if t > s]
    quoted = [(max(0, min(s, n)), max(0, min(t, n)), k) for s, t, k in quotes]
    quoted = [(s, t, k) for s, t, k in quoted if t > s]
    cuts = sorted({0, n, *(s for s, _, _ in spans), *(t for _, t, _ in spans),
                   *(s for s, _, _ in quoted), *(t for _, t, _ in quoted), *(x for span in hidden for x in span)})
    out: list[str] = []
    for lo, hi in zip(cuts, cuts[1:]):
        secret = next((s for s, t in hidden if s <= lo and hi <= t), None)
        if secret is not None and secret != lo:
            continue  # the rest of a secret already written as one mask
        claims = sorted({i for s, t, i in spans if s <= lo and hi <= t})
        keys = sorted({k for s, t, k in quoted if s <= lo and hi <= t})
        text = MASK if secret is not None else e(source[lo:hi])
        if keys:
            text = f'<mark class="quote" data-quotes="{e(" ".join(keys))}" title="quoted by {e(", ".join(keys))}">{text}</mark>'
        if claims:
            names = " ".join(str(i) for i in claims)
            title = "evidence for claim " + ", ".join(str(i + 1) for i in claims)
            out.append(f'<mark class="evidence" data-claims="{names}" title="{title}">{text}</mark>')
        else:
            out.append(text)
    return "".join(out)


def evidence_line(verdict: object) -> str:
    """The judge's quote under a verdict, and whether it was found (nothing for verdicts no scorer checked)."""
    quote, verified = getattr(verdict, "quote", ""), getattr(verdict, "verified", None)
    if verified is None:
        return ""
    badge = ('<span class="found">✔ quote found</span>' if verified and getattr(verdict, "quote_offsets", None)
             else '<span class="found">nothing to check</span>' if verified
             else '<span class="not-found">⚠ unverified: quote not found where it should be</span>')
    said = f' <q>{shown(quote)}</q>' if quote else ' <span class="none">no quote</span>'
    return f'<div class="quote-line">{badge}{said}</div>'


def quote_spans(o: Any) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    """The located quotes of the item's verdicts: claims' in the source, answers' in the summary."""
    v = o.verdicts
    if v is None:
        return [], []
    claims = [(a.quote_offsets[0], a.quote_offsets[1], f"claim-{i}") for i, a in enumerate(v.alignment) if a.quote_offsets]
    answers = [(a.quote_offsets[0], a.quote_offsets[1], f"answer-{i}") for i, a in enumerate(v.coverage) if a.quote_offsets]
    return claims, answers



__all__ = ["evidence_line", "highlight", "quote_spans", "shown"]
