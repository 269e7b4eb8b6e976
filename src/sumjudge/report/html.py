"""One self-contained HTML page for a run: figures, a histogram, a sortable table, every verdict.

The page needs no network: its style and script are inlined (``report.css``, ``report.js`` beside
this module) and the histogram is inline SVG. Sources, summaries, claims, questions and reasons are
untrusted text: every one is HTML-escaped, none is put into the script, and a Content-Security-Policy
allows only this page's own script and style (by hash), so even a missed escape could not run code
or fetch anything.

Items are streamed to the file one at a time, so a run of any size is written in flat memory.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from html import escape
from importlib import resources
from pathlib import Path
from typing import IO, Any

from ..figures import number, verdict_probability
from .evidence import claims_shown, error_spans, evidence_line, highlight, quote_spans, shown
from ..store.records import FailedItem
from ..store.database import ItemRecord, RunRecord, RunStats

BINS = 10


def _e(value: Any) -> str:
    return escape("" if value is None else str(value), quote=True)


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def _fmt(value: float | None, digits: int = 3) -> str:
    return number(value, digits, missing="–")


def histogram_counts(scores: Iterable[float], scale: float, bins: int = BINS) -> list[int]:
    counts = [0] * bins
    for s in scores:
        i = int(s / scale * bins) if scale > 0 else 0
        counts[min(max(i, 0), bins - 1)] += 1
    return counts


def histogram_svg(counts: list[int], scale: float) -> str:
    """Bars of the score histogram as inline SVG (no script, no style attribute)."""
    width, height, pad_l, pad_b, pad_t = 520, 200, 36, 28, 14
    plot_w, plot_h = width - pad_l - 8, height - pad_b - pad_t
    top = max(counts) if counts and max(counts) > 0 else 1
    bar_w = plot_w / len(counts)
    parts = [
        f'<svg class="histogram" role="img" aria-label="histogram of scores" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">',
        f'<line class="axis" x1="{pad_l}" y1="{pad_t + plot_h}" x2="{pad_l + plot_w}" y2="{pad_t + plot_h}"/>',
        f'<text class="tick" x="{pad_l - 4}" y="{pad_t + 4}" text-anchor="end">{top}</text>',
        f'<text class="tick" x="{pad_l - 4}" y="{pad_t + plot_h}" text-anchor="end">0</text>',
    ]
    for i, n in enumerate(counts):
        h = plot_h * n / top
        x = pad_l + i * bar_w
        lo, hi = scale * i / len(counts), scale * (i + 1) / len(counts)
        closing = "]" if i == len(counts) - 1 else ")"
        parts.append(
            f'<rect class="bar" x="{x + 1:.1f}" y="{pad_t + plot_h - h:.1f}" width="{bar_w - 2:.1f}" '
            f'height="{h:.1f}"><title>[{lo:g}, {hi:g}{closing}: {n} item(s)</title></rect>'
        )
        if n:
            parts.append(
                f'<text class="count" x="{x + bar_w / 2:.1f}" y="{pad_t + plot_h - h - 3:.1f}" '
                f'text-anchor="middle">{n}</text>'
            )
        parts.append(
            f'<text class="tick" x="{x:.1f}" y="{height - 10}" text-anchor="middle">{lo:g}</text>'
        )
    parts.append(f'<text class="tick" x="{pad_l + plot_w:.1f}" y="{height - 10}" text-anchor="middle">{scale:g}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _claim_mark(supported: bool, unchecked: bool) -> str:
    """How a claim's verdict reads: an unchecked one says so (nothing contradicts it, nothing confirms it)."""
    if unchecked:
        return "? unchecked (supported: nothing contradicts it)" if supported else "? unchecked"
    return "✔ supported" if supported else "✘ not supported"


def _figures(stats: RunStats, total: int, extra: Sequence[tuple[str, str]] = ()) -> str:
    pct = f"{round(stats.confidence * 100)}% CI"

    def ci(interval: tuple[float, float] | None) -> str:
        return "–" if interval is None else f"{_fmt(interval[0])} – {_fmt(interval[1])}"

    cells = [
        ("items", f"{stats.count + stats.errors} / {total}"),
        ("mean score", _fmt(stats.mean) + (f" ({stats.errors} failed, not in the mean)" if stats.errors else "")),
        (f"mean score {pct}", ci(stats.mean_ci)),
        ("median", _fmt(stats.median)),
        ("p10", _fmt(stats.p10)),
        ("mean alignment", _fmt(stats.mean_alignment)),
        (f"alignment {pct}", ci(stats.alignment_ci)),
        ("mean coverage", _fmt(stats.mean_coverage)),
        (f"coverage {pct}", ci(stats.coverage_ci)),
        ("zero scores", str(stats.zero_scores)),
        ("unchecked claims", "–" if stats.unchecked_share is None
         else f"{stats.unchecked_share:.0%} ({stats.unchecked_claims:,} of {stats.claims:,})"),
        ("unchecked questions", "–" if stats.unchecked_question_share is None
         else f"{stats.unchecked_question_share:.0%} ({stats.unchecked_questions:,} of {stats.questions:,})"),
        ("errors", str(stats.errors)),
        ("judge calls", f"{stats.calls:,}"),
        # a judge that counts no tokens (the offline judge) gets no token figures, not a "0"
        *([("tokens", f"{stats.tokens:,}"), ("cached prompt tokens", f"{stats.cached_tokens:,}")] if stats.tokens else []),
        *([("evidence", stats.evidence_line.removeprefix("evidence "))] if stats.evidence_line else []),
        *extra,
    ]
    return "".join(
        f'<div class="figure"><div class="label">{_e(k)}</div><div class="value" data-figure="{_e(k)}">{_e(v)}</div></div>'
        for k, v in cells
    )


_COLUMNS = [
    ("row", "num", "#"),
    ("id", "text", "id"),
    ("score", "num", "score"),
    ("alignment", "num", "alignment"),
    ("coverage", "num", "coverage"),
    ("claims", "num", "claims supported"),
    ("questions", "num", "questions answered"),
    ("tokens", "num", "tokens"),
    ("unverified", "num", "unverified quotes"),
    ("unchecked", "num", "unchecked claims"),
    ("status", "text", "status"),
]


def _num_attr(value: float | int | None) -> str:
    # Missing numbers sort first ascending.
    return "-1" if value is None else repr(float(value))


def _item_html(item: ItemRecord, texts: tuple[str, str] | None = None) -> str:
    r = item.outcome
    failed = isinstance(r, FailedItem)
    v = r.verdicts
    claims = v.alignment if v else []
    questions = v.questions if v else []
    coverage = v.coverage if v else []
    supported = v.claims_supported if v else 0
    answered = v.questions_answered if v else 0
    tokens = r.usage.total_tokens if r.usage else None
    unverified = sum(1 for c in [*claims, *coverage] if c.verified is False)
    unchecked = sum(1 for c in claims if c.unchecked)
    state = "error" if failed else "zero score" if r.score == 0 else "scored"
    attrs = {
        "row": _num_attr(item.row_number),
        "id": _e(item.item_id),
        "score": _num_attr(r.score),
        "alignment": _num_attr(r.alignment_score),
        "coverage": _num_attr(r.coverage_score),
        "claims": _num_attr(supported / len(claims) if claims else (None if failed else 0)),
        "questions": _num_attr(answered / len(questions) if questions else (None if failed else 0)),
        "tokens": _num_attr(tokens),
        "unverified": _num_attr(None if failed else unverified),
        "unchecked": _num_attr(None if failed else unchecked),
        "status": state,
    }
    data = " ".join(f'data-{k}="{v}"' for k, v in attrs.items())
    status = f'<span class="{"good" if state == "scored" else "bad"}">{state}</span>'
    cells = [
        f'<td><button type="button" class="toggle" aria-expanded="false" title="show verdicts">▸</button> {item.row_number}</td>',
        f"<td class=\"id\">{_e(item.item_id)}</td>",
        f"<td class=\"score\">{_fmt(r.score, 2)}</td>",
        f"<td>{_fmt(r.alignment_score)}</td>",
        f"<td>{_fmt(r.coverage_score)}</td>",
        f"<td>{'–' if failed else f'{supported} / {len(claims)}'}</td>",
        f"<td>{'–' if failed else f'{answered} / {len(questions)}'}</td>",
        f"<td>{'–' if tokens is None else f'{tokens:,}'}</td>",
        f"<td>{'–' if failed else unverified}</td>",
        f"<td>{'–' if failed else unchecked}</td>",
        f"<td>{status}</td>",
    ]
    detail = [f'<p class="error"><strong>error:</strong> {shown(r.error)}</p>'] if failed else _detail(r, texts)
    return (
        f'<tbody class="item" id="item-{_e(item.item_id)}" {data}><tr class="main">{"".join(cells)}</tr>'
        f'<tr class="detail" hidden><td colspan="{len(_COLUMNS)}">{"".join(detail)}</td></tr></tbody>\n'
    )


def _detail(r: Any, texts: tuple[str, str] | None) -> list[str]:
    """A scored item's unfolded part: its reason, its samples, its claims and questions with their
    verdicts, and the two texts with the quoted words marked."""
    v = r.verdicts
    questions, coverage = (v.questions, v.coverage) if v else ([], [])
    claims = claims_shown(r, *(texts or (None, None)))
    detail = [f'<p class="reason"><strong>reason:</strong> {shown(r.reason)}</p>']
    samples = r.samples or []
    if samples:
        listed = ", ".join(_fmt(s.score, 2) for s in samples)
        detail.append(
            f'<p class="samples"><strong>{len(samples)} samples</strong> ({_e(r.reducer)} of {_e(listed)}; '
            f'spread {_fmt(r.score_spread)}); the verdicts below are those of the sample nearest the score.</p>'
        )
    detail += _claim_list(claims, v.claims_supported if v else 0)
    detail += _question_list(questions, coverage, v.questions_answered if v else 0)
    if texts is not None:
        claim_quotes, answer_quotes = quote_spans(r)
        against, wrong_there, wrong_here = error_spans(claims)
        detail.append(
            '<div class="texts"><p class="hint">hover a verdict to see the words it quotes'
            + ('; in red: the passages that disprove a claim, and the words that differ' if against or wrong_here else "")
            + "</p>"
            f'<h4>summary</h4><div class="summary text-block">{highlight(texts[1], [], answer_quotes, differs=wrong_here)}</div>'
            f'<h4>source</h4><div class="source text-block">{highlight(texts[0], [], claim_quotes, against, wrong_there)}</div></div>'
        )
    return detail


def _listed(heading: str, kind: str, items: list[str]) -> list[str]:
    """A verdict list under its heading, or the heading and "no <kind>" when there is none."""
    if not items:
        return [heading, f'<p class="none">no {kind}</p>']
    return [heading, f'<ul class="{kind}">', *items, "</ul>"]


def _claim_list(claims: list[Any], supported: int) -> list[str]:
    """The summary's claims, each with its verdict, its probability, its evidence and the judge's reason."""
    unchecked = sum(1 for c in claims if c.unchecked)
    heading = (f'<h4>claims of the summary ({supported} of {len(claims)} supported'
               + (f", {unchecked} of them unchecked" if unchecked else "") + ")</h4>")
    items = [
        f'<li class="{"supported" if c.supported else "unsupported"}{" unchecked" if c.unchecked else ""}'
        f'{_doubt(c)}" data-quote="claim-{n}">'
        f'<span class="mark">{_claim_mark(c.supported, c.unchecked)}</span>{_prob(c, "supported")} '
        f'<span class="text">{shown(c.claim)}</span>{evidence_line(c)}<div class="why">{shown(c.reason)}</div></li>'
        for n, c in enumerate(claims)
    ]
    return _listed(heading, "claims", items)


def _question_list(questions: list[str], coverage: list[Any], answered: int) -> list[str]:
    """The source's questions, each with the summary's verdict (a question without one: not answered)."""
    unsettled = sum(1 for v in coverage if v.unchecked)
    heading = (f'<h4>questions from the source ({answered} of {len(questions)} answered'
               + (f", {unsettled} unchecked" if unsettled else "") + ")</h4>")
    items = []
    for i, q in enumerate(questions):
        verdict = coverage[i] if i < len(coverage) else None
        ok = bool(verdict and verdict.answered)
        items.append(
            f'<li class="{"answered" if ok else "unanswered"}{_doubt(verdict)}" data-quote="answer-{i}">'
            f'<span class="mark">{"✔ answered" if ok else "✘ not answered"}</span>{_prob(verdict, "answered")} '
            f'<span class="text">{shown(q)}</span>'
            + (evidence_line(verdict) if verdict else "")
            + f'<div class="why">{shown(verdict.reason if verdict else "no verdict")}</div></li>'
        )
    return _listed(heading, "questions", items)


def _doubt(verdict: Any) -> str:
    return " unverified" if getattr(verdict, "verified", None) is False else ""


def _texts_of(rows: Iterator[tuple[str, str, str]] | None, item_id: str) -> tuple[str, str] | None:
    """The texts of ``item_id`` from the rows read in input order (items and rows share it; a row
    the store does not hold is passed over)."""
    if rows is None:
        return None
    for row_id, source, summary in rows:
        if row_id == item_id:
            return source, summary
    return None
def _formula_note(options: dict[str, Any]) -> str:
    if options.get("graded"):
        return ("score = min(alignment, coverage) × scale, graded: alignment is the mean probability of the "
                "summary's claims being supported, coverage the mean probability of the source's questions being "
                "answered (a verdict without a probability counts as its yes or no).")
    return ("score = min(alignment, coverage) × scale. Alignment: share of the summary's claims the source "
            "supports. Coverage: share of the source's questions the summary answers.")


def _prob(verdict: Any, what: str) -> str:
    """The verdict's probability as a small figure beside it, where the judge gave one."""
    shown = verdict_probability(getattr(verdict, "probability", None), unchecked=getattr(verdict, "unchecked", False))
    if not shown:
        return ""
    title = ("the share of its words the source holds (not a probability)" if shown.startswith("words=")
             else f"the judge's probability that it is {what}")
    return f' <span class="prob" title="{_e(title)}">{_e(shown)}</span>'


def write_report(
    path: str | Path,
    run: RunRecord,
    stats: RunStats,
    items: Iterable[ItemRecord] | Any,
    *,
    scale: float | None = None,
    extra_figures: Sequence[tuple[str, str]] = (),
    texts: Callable[[], Iterable[tuple[str, str, str]]] | None = None,
) -> None:
    """Write the report of ``run`` to ``path`` (``extra_figures``: more (label, value) figures, such as
    the billed cost of provider batch jobs).

    ``items`` is read twice (once for the histogram, once for the table): pass a callable that
    returns a fresh iterator (``lambda: store.iter_items(run.id)``, which keeps memory flat) or a list.
    ``texts``: a callable giving ``(id, source, summary)`` in input order (the data's rows, read again):
    each item's texts are then shown with the verdicts' quotes marked (hover a verdict, see its words).
    """
    scale = float(scale if scale is not None else run.options.get("scale", 1) or 1)
    make_items = items if callable(items) else (lambda: items)
    counts = histogram_counts(
        (i.score for i in make_items() if i.status == "ok" and i.score is not None), scale
    )
    css, js = _asset("report.css"), _asset("report.js")
    csp = (
        f"default-src 'none'; style-src {_csp_hash(css)}; script-src {_csp_hash(js)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    created = dt.datetime.fromtimestamp(run.created_at).strftime("%Y-%m-%d %H:%M:%S")
    head = (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{_e(csp)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>sumjudge report · {_e(run.id)}</title><style>{css}</style></head><body>"
        f'<header><h1>sumjudge report</h1><dl class="meta">'
        f"<dt>run</dt><dd>{_e(run.id)}</dd><dt>judge</dt><dd>{_e(run.model)}</dd>"
        f"<dt>data</dt><dd>{_e(run.data)}</dd><dt>options</dt><dd>{_e(json.dumps(run.options, sort_keys=True))}</dd>"
        + (f"<dt>calibration</dt><dd>{_e(str(run.options['calibration']))}</dd>" if run.options.get("calibration") else "")
        + f"<dt>created</dt><dd>{_e(created)}</dd><dt>status</dt><dd>{_e(run.status)}</dd></dl></header>"
        f'<section class="figures">{_figures(stats, run.total_items, extra_figures)}</section>'
        f'<section class="chart"><h2>scores</h2>{histogram_svg(counts, scale)}'
        f'<p class="note">{_e(_formula_note(run.options))}</p></section>'
        '<section class="items"><h2>items</h2>'
        '<p class="hint">Click a column to sort; click ▸ to see the claims and questions.</p>'
        '<table id="items"><thead><tr>'
        + "".join(
            f'<th scope="col" data-key="{key}" data-type="{kind}" aria-sort="none" tabindex="0">{_e(label)}</th>'
            for key, kind, label in _COLUMNS
        )
        + "</tr></thead>\n"
    )
    tail = f"</table></section><footer>written by sumjudge</footer><script>{js}</script></body></html>\n"
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8") as fh:
        _write(fh, head, make_items(), tail, texts() if texts is not None else None)


def _write(fh: IO[str], head: str, items: Iterable[ItemRecord], tail: str,
           texts: Iterable[tuple[str, str, str]] | None = None) -> None:
    fh.write(head)
    rows = iter(texts) if texts is not None else None
    for item in items:
        fh.write(_item_html(item, _texts_of(rows, item.item_id)))
    fh.write(tail)
