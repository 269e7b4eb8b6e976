"""The item page: the source with each claim's evidence highlighted, the summary, the claims with
their verdicts and reasons, the questions with their answers, samples and their spread, usage;
previous and next; and the labelling controls (keyboard first: j/k move, y/n mark, u clears).

Each mark is a small form (posted with the page's token), so it works without the script too; the
script (``static/view.js``) sends the same mark with ``fetch`` and the token in a header."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...figures import verdict_probability
from ...store.database import ItemRecord, RunRecord
from ...store.labels import ItemLabel
from ...store.records import ScoredItem
from ..markup import e, figures, fmt, hidden, url
from ...report.evidence import claims_shown, error_spans, evidence_line, highlight, quote_spans, shown
from ..sources import Texts


@dataclass(frozen=True)
class ItemContext:
    run: RunRecord
    item: ItemRecord
    prev_id: str | None
    next_id: str | None
    texts: Texts
    reviewer: str
    marks: Mapping[tuple[str, int], bool]
    """This reviewer's marks: (target, index) -> right."""
    rating: ItemLabel | None
    others: Sequence[str]
    """Other reviewers who labelled this item."""
    read_only: bool
    token: str | None
    queue: bool = False
    """Reached through the queue: "next" goes on through it."""


def _nav(c: ItemContext) -> str:
    base = "/run/" + c.run.id + "/item"
    who = c.reviewer or None
    prev = f'<a rel="prev" href="{url(base, id=c.prev_id, reviewer=who)}">← previous</a>' if c.prev_id else "<span>← previous</span>"
    nxt = f'<a rel="next" href="{url(base, id=c.next_id, reviewer=who)}">next →</a>' if c.next_id else "<span>next →</span>"
    queue = (f' <a class="queue-next" href="{url("/run/" + c.run.id + "/queue", reviewer=c.reviewer)}">next in the queue ⇥</a>'
             if c.reviewer and not c.read_only else "")
    return f'<nav class="items"><a href="{url("/run/" + c.run.id)}">run {e(c.run.id)}</a> {prev} {nxt}{queue}</nav>'


def _reviewer_form(c: ItemContext) -> str:
    return (
        f'<form class="reviewer" method="get" action="{url("/run/" + c.run.id + "/item")}">'
        f'{hidden({"id": c.item.item_id})}<label>reviewer <input id="reviewer" name="reviewer" value="{e(c.reviewer)}" '
        'maxlength="64" autocomplete="username"></label> <button type="submit">label as</button>'
        '<span class="hint"> keys: j / k move, y the judge is right, n wrong, u unmark, 1-5 rate, ] next in the queue, [ previous</span></form>'
    )


def _mark_form(c: ItemContext, target: str, index: int) -> str:
    if c.read_only or not c.reviewer:
        return ""
    fields = hidden({"token": c.token, "run": c.run.id, "item": c.item.item_id, "reviewer": c.reviewer,
                     "target": target, "index": index})
    return (
        f'<form class="mark" method="post" action="{url("/label", token=c.token)}">{fields}'
        '<button type="submit" name="correct" value="right" title="the judge is right (y)">right</button>'
        '<button type="submit" name="correct" value="wrong" title="the judge is wrong (n)">wrong</button></form>'
    )


def _label_text(mark: bool | None) -> str:
    return "" if mark is None else ("right" if mark else "wrong")


def _prob(verdict: object, what: str) -> str:
    """The judge's probability of the verdict, as a small figure beside it (where it gave one)."""
    shown = verdict_probability(getattr(verdict, "probability", None), unchecked=getattr(verdict, "unchecked", False))
    return f' <span class="prob" title="the judge\'s probability that it is {what}">{e(shown)}</span>' if shown else ""


def _verdicts(c: ItemContext, o: ScoredItem) -> str:
    v = o.verdicts
    if v is None:
        return '<p class="none">this record holds no verdicts</p>'
    unchecked = f", {v.claims_unchecked} of them unchecked" if v.claims_unchecked else ""
    out = [f'<h2>claims of the summary ({v.claims_supported} of {len(v.alignment)} supported{unchecked})</h2><ol class="verdicts">']
    for i, claim in enumerate(claims_shown(o, c.texts.source, c.texts.summary)):
        mark = c.marks.get(("claim", i))
        ev = ", ".join(f"{s.start}–{s.end}" for s in claim.evidence or [])
        out.append(
            f'<li class="verdict {"supported" if claim.supported else "unsupported"}{" unchecked" if claim.unchecked else ""}'
            f'{_doubt(claim)}" tabindex="-1" data-target="claim" data-quote="claim-{i}" data-index="{i}" '
            f'data-judge="{"supported" if claim.supported else "unsupported"}" data-label="{_label_text(mark)}" '
            f'data-unchecked="{str(claim.unchecked).lower()}">'
            f'<span class="says">{"✔ supported" if claim.supported else "✘ not supported"}</span>{_prob(claim, "supported")} '
            + ('<span class="unchecked-mark" title="nothing in the source contradicts it, nothing confirms it">'
               "? unchecked</span> " if claim.unchecked else "")
            + f'<span class="text">{shown(claim.claim)}</span>{evidence_line(claim)}<div class="why">{shown(claim.reason)}</div>'
            + (f'<div class="evidence-at">evidence at {e(ev)}</div>' if ev else "")
            + f'<span class="label">{_label_text(mark)}</span>{_mark_form(c, "claim", i)}</li>'
        )
    out.append("</ol>")
    unsettled = f", {v.questions_unchecked} unchecked" if v.questions_unchecked else ""
    out.append(
        f'<h2>questions from the source ({v.questions_answered} of {len(v.questions)} answered by the summary{unsettled})</h2>'
        '<ol class="verdicts">'
    )
    for i, q in enumerate(v.questions):
        ans = v.coverage[i] if i < len(v.coverage) else None
        ok = bool(ans and ans.answered)
        unsure = bool(ans and ans.unchecked)
        mark = c.marks.get(("answer", i))
        out.append(
            f'<li class="verdict {"answered" if ok else "unanswered"}{" unchecked" if unsure else ""}{_doubt(ans)}" '
            f'tabindex="-1" data-target="answer" data-quote="answer-{i}" data-index="{i}" '
            f'data-judge="{"answered" if ok else "unanswered"}" data-label="{_label_text(mark)}" '
            f'data-unchecked="{str(unsure).lower()}">'
            f'<span class="says">{"? unchecked" if unsure else "✔ answered" if ok else "✘ not answered"}</span>'
            f'{_prob(ans, "answered")} '
            f'<span class="text">{shown(q)}</span>'
            + (evidence_line(ans) if ans else "") +
            f'<div class="why">{shown(ans.reason if ans else "no verdict")}</div>'
            f'<span class="label">{_label_text(mark)}</span>{_mark_form(c, "answer", i) if ans else ""}</li>'
        )
    out.append("</ol>")
    return "".join(out)


def _doubt(verdict: object) -> str:
    return " unverified" if getattr(verdict, "verified", None) is False else ""


def _rating_form(c: ItemContext) -> str:
    if not c.reviewer:
        return ""
    now = c.rating.rating if c.rating else None
    note = c.rating.note if c.rating else ""
    if c.read_only:
        return f'<section class="rating"><h2>rating</h2><p>{e(now or "none")}</p><p class="note">{e(note)}</p></section>'
    opts = '<option value="">none</option>' + "".join(
        f'<option{" selected" if now == r else ""}>{r}</option>' for r in range(1, 6)
    )
    fields = hidden({"token": c.token, "run": c.run.id, "item": c.item.item_id, "reviewer": c.reviewer})
    return (
        f'<section class="rating"><h2>your rating of the summary</h2><form class="rate" method="post" action="{url("/rate", token=c.token)}">{fields}'
        f'<label>1 (poor) to 5 (faithful and complete) <select name="rating">{opts}</select></label> '
        f'<label class="note">note <textarea name="note" rows="2" maxlength="4000">{e(note)}</textarea></label> '
        '<button type="submit">save</button></form></section>'
    )


def item_body(c: ItemContext) -> str:
    o = c.item.outcome
    parts = [_nav(c), f'<h1>item <span class="id">{e(c.item.item_id)}</span></h1>', _reviewer_form(c)]
    if c.others:
        parts.append(f'<p class="others">also labelled by {e(", ".join(c.others))}</p>')
    if not isinstance(o, ScoredItem):
        parts.append(f'<p class="error"><strong>failed:</strong> {e(o.error)}</p>')
        return "".join(parts)
    usage = o.usage
    cells = [("score", fmt(o.score)), ("alignment", fmt(o.alignment_score)), ("coverage", fmt(o.coverage_score))]
    if o.samples:
        cells += [("samples", f"{len(o.samples)} ({o.reducer})"), ("spread", fmt(o.score_spread))]
    if usage:
        cells += [("judge calls", str(usage.calls)), ("tokens", f"{usage.total_tokens:,}")]
    parts.append(figures(cells))
    parts.append(f'<p class="reason"><strong>reason:</strong> {shown(o.reason)}</p>')
    if o.samples:
        parts.append('<table class="samples"><thead><tr><th>sample</th><th>score</th><th>alignment</th><th>coverage</th>'
                     "</tr></thead><tbody>" + "".join(
                         f"<tr><td>{s.index}</td><td>{fmt(s.score)}</td><td>{fmt(s.alignment_score)}</td>"
                         f"<td>{fmt(s.coverage_score)}</td></tr>" for s in o.samples) + "</tbody></table>"
                     '<p class="hint">the verdicts below are those of the sample nearest the score</p>')
    spans = [(s.start, s.end, i) for i, a in enumerate(o.verdicts.alignment if o.verdicts else []) for s in a.evidence or []]
    if c.texts.source is not None:
        claim_quotes, answer_quotes = quote_spans(o)
        against, wrong_there, wrong_here = error_spans(claims_shown(o, c.texts.source, c.texts.summary))
        texts = (
            f'<section class="texts"><h2>summary</h2><div class="summary text-block">'
            f'{highlight(c.texts.summary or "", [], answer_quotes, differs=wrong_here)}</div>'
            f'<h2>source</h2><p class="hint">{e(c.texts.note)}'
            + ("; marked: the passages each claim was judged against" if spans else "")
            + ("; hover a verdict to see the words it quotes" if claim_quotes or answer_quotes or against else "")
            + ("; in red: the passages that disprove a claim, and the words that differ" if against or wrong_here else "")
            + f'</p><div class="source text-block">{highlight(c.texts.source, spans, claim_quotes, against, wrong_there)}</div></section>'
        )
    else:
        texts = f'<section class="texts"><p class="hint">{e(c.texts.note)}</p></section>'
    parts.append(f'<div class="item-grid"><div class="judged">{_verdicts(c, o)}{_rating_form(c)}</div>{texts}</div>')
    return "".join(parts)
