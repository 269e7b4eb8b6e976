"""One self-contained HTML page comparing two runs (``sumjudge compare A B --report FILE.html``).

The page holds the figures of B against A (score and both axes), a paired scatter (each item's A
score against its B score; points above the diagonal are items B scored higher), the distribution
of the per-item differences, the items that moved most with both runs' reasons, and the items left
out of the comparison. Like the run report it needs no network and runs no script: the style is
inlined (the run report's ``report.css`` plus a few rules) and allowed by hash in the
Content-Security-Policy, the charts are inline SVG, and every piece of user text (ids, reasons, run
labels) is HTML-escaped.
"""

from __future__ import annotations

import math
from pathlib import Path

from ..analysis.compare import ComparisonResult, exam_note
from ..analysis.compare_text import disagreement_note, power_lines
from ..figures import number, p_value
from .html import _asset, _csp_hash, _e

DIFF_BINS = 21
"""Odd, so that "no change" is the middle bar rather than an edge between two."""

_EXTRA_CSS = """
svg.scatter, svg.diffs { max-width: 100%; height: auto; }
svg .pt { fill: var(--bar); fill-opacity: .55; }
svg .diag { stroke: var(--muted); stroke-dasharray: 4 3; }
svg .zero { stroke: var(--fg); stroke-width: 1.5; }
svg .bar.up { fill: var(--good); }
svg .bar.down { fill: var(--bad); }
svg .bar.same { fill: var(--muted); }
.charts { display: flex; flex-wrap: wrap; gap: 24px; }
.better { color: var(--good); font-weight: 600; }
.worse { color: var(--bad); font-weight: 600; }
td.num { text-align: right; white-space: nowrap; }
"""


def _f(x: float | None, digits: int = 3, sign: bool = False) -> str:
    return number(x, digits, missing="–", sign=sign)


def _p(p: float | None) -> str:
    return p_value(p, missing="–", below="&lt;0.001")


def _scale(result: ComparisonResult) -> float:
    if result.scale:
        return result.scale
    top = max([1.0, *(max(a, b) for _, a, b in result.pairs)])
    return float(top)


def scatter_svg(result: ComparisonResult, scale: float) -> str:
    """Each paired item as a point (x: A's score, y: B's score) with the no-change diagonal."""
    size, pad = 320, 36
    plot = size - 2 * pad

    def x(v: float) -> float:
        return pad + plot * min(max(v / scale, 0.0), 1.0)

    def y(v: float) -> float:
        return size - pad - plot * min(max(v / scale, 0.0), 1.0)

    parts = [
        f'<svg class="scatter" role="img" aria-label="paired scatter: score in A against score in B" '
        f'viewBox="0 0 {size} {size}" width="{size}" height="{size}" xmlns="http://www.w3.org/2000/svg">',
        f'<line class="axis" x1="{pad}" y1="{size - pad}" x2="{size - pad}" y2="{size - pad}"/>',
        f'<line class="axis" x1="{pad}" y1="{pad}" x2="{pad}" y2="{size - pad}"/>',
        f'<line class="diag" x1="{x(0)}" y1="{y(0)}" x2="{x(scale)}" y2="{y(scale)}"/>',
        f'<text class="tick" x="{pad}" y="{size - pad + 14}" text-anchor="middle">0</text>',
        f'<text class="tick" x="{size - pad}" y="{size - pad + 14}" text-anchor="middle">{scale:g}</text>',
        f'<text class="tick" x="{pad - 4}" y="{pad + 4}" text-anchor="end">{scale:g}</text>',
        f'<text class="tick" x="{size / 2}" y="{size - 6}" text-anchor="middle">A</text>',
        f'<text class="tick" x="10" y="{size / 2}" text-anchor="middle">B</text>',
    ]
    for item_id, a, b in result.pairs:
        parts.append(
            f'<circle class="pt" cx="{x(a):.1f}" cy="{y(b):.1f}" r="3.5">'
            f"<title>{_e(item_id)}: A {a:.3f}, B {b:.3f}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)


def diff_counts(diffs: list[float], scale: float, bins: int = DIFF_BINS) -> list[int]:
    """Counts of B - A over ``bins`` equal bins on [-scale, scale]; no change falls in the middle one."""
    width = 2 * scale / bins
    counts = [0] * bins
    for d in diffs:
        i = math.floor((d + scale) / width) if width > 0 else bins // 2
        counts[min(max(i, 0), bins - 1)] += 1
    return counts


def diffs_svg(counts: list[int], scale: float) -> str:
    """The distribution of B - A as bars: green where B is higher, red where lower, grey for no change."""
    width, height, pad_l, pad_b, pad_t = 520, 200, 36, 28, 14
    plot_w, plot_h = width - pad_l - 8, height - pad_b - pad_t
    top = max(counts) if counts and max(counts) > 0 else 1
    bar_w = plot_w / len(counts)
    mid = len(counts) // 2
    step = 2 * scale / len(counts)
    parts = [
        f'<svg class="diffs" role="img" aria-label="distribution of the differences B - A" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">',
        f'<line class="axis" x1="{pad_l}" y1="{pad_t + plot_h}" x2="{pad_l + plot_w}" y2="{pad_t + plot_h}"/>',
        f'<line class="zero" x1="{pad_l + plot_w / 2:.1f}" y1="{pad_t}" x2="{pad_l + plot_w / 2:.1f}" '
        f'y2="{pad_t + plot_h}"/>',
        f'<text class="tick" x="{pad_l - 4}" y="{pad_t + 4}" text-anchor="end">{top}</text>',
    ]
    for i, n in enumerate(counts):
        h = plot_h * n / top
        x = pad_l + i * bar_w
        kind = "same" if i == mid else ("up" if i > mid else "down")
        lo, hi = -scale + i * step, -scale + (i + 1) * step
        parts.append(
            f'<rect class="bar {kind}" x="{x + 1:.1f}" y="{pad_t + plot_h - h:.1f}" width="{bar_w - 2:.1f}" '
            f'height="{h:.1f}"><title>B - A in [{lo:+.2f}, {hi:+.2f}): {n} item(s)</title></rect>'
        )
        if n:
            parts.append(
                f'<text class="count" x="{x + bar_w / 2:.1f}" y="{pad_t + plot_h - h - 3:.1f}" '
                f'text-anchor="middle">{n}</text>'
            )
    for label, xpos in ((f"{-scale:+g}", pad_l), ("0", pad_l + plot_w / 2), (f"{scale:+g}", pad_l + plot_w)):
        parts.append(f'<text class="tick" x="{xpos:.1f}" y="{height - 10}" text-anchor="middle">{label}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _figures_table(result: ComparisonResult) -> str:
    pct = round(result.confidence * 100)
    rows, notes = [], []
    for name, c in (("score", result), ("alignment", result.alignment), ("coverage", result.coverage)):
        cls = {"better": "better", "worse": "worse"}.get(c.verdict, "")
        note = disagreement_note(name, c)
        if note:
            notes.append(f'<p class="note disagrees">* {_e(note)}</p>')
        rows.append(
            f'<tr data-figure="{name}"><th scope="row">{name}</th><td class="num">{c.n_pairs}</td>'
            f'<td class="num">{_f(c.mean_a)}</td><td class="num">{_f(c.mean_b)}</td>'
            f'<td class="num">{_f(c.diff, sign=True)}</td>'
            f'<td class="num">[{_f(c.ci_low, sign=True)}, {_f(c.ci_high, sign=True)}]{"*" if note else ""}</td>'
            f'<td class="num">{_p(c.p_value)}</td><td class="num">{c.wins} / {c.ties} / {c.losses}</td>'
            f'<td class="verdict {cls}">{_e(c.verdict)}</td></tr>'
        )
    if (said := exam_note(result)) is not None:  # the same exam, or a warning that the questions differ
        notes.append(f'<p class="note{" disagrees" if said[1] else ""}" data-exam="{"differs" if said[1] else "same"}">'
                     f'{"warning: " if said[1] else "exam: "}{_e(said[0])}</p>')
    return (
        '<table class="figures-table"><thead><tr><th></th><th>pairs</th><th>mean A</th><th>mean B</th>'
        f"<th>B − A</th><th>{pct}% CI (paired bootstrap)</th><th>p (Wilcoxon)</th>"
        f"<th>B wins / ties / losses</th><th>verdict (Wilcoxon) at α = {result.alpha:g}</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>{''.join(notes)}"
    )


def _moved_table(result: ComparisonResult) -> str:
    if not result.moved:
        if result.changed:
            return f'<p class="none">{result.changed} item(s) changed their score; none listed (--moved 0)</p>'
        return '<p class="none">no item changed its score</p>'
    rows = "".join(
        f'<tr class="moved" data-id="{_e(m.id)}"><td class="id">{_e(m.id)}</td><td class="num">{m.score_a:.3f}</td>'
        f'<td class="num">{m.score_b:.3f}</td><td class="num {"better" if m.diff > 0 else "worse"}">'
        f'{m.diff:+.3f}</td><td class="reason">{_e(m.reason_a)}</td><td class="reason">{_e(m.reason_b)}</td></tr>'
        for m in result.moved
    )
    return (
        '<table id="moved"><thead><tr><th>id</th><th>A</th><th>B</th><th>B − A</th><th>reason in A</th>'
        f"<th>reason in B</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _left_out(result: ComparisonResult) -> str:
    parts = []
    for what, ids in (
        ("only in A", result.only_in_a),
        ("only in B", result.only_in_b),
        ("failed in A", result.failed_a),
        ("failed in B", result.failed_b),
    ):
        if ids:
            items = "".join(f"<li>{_e(i)}</li>" for i in ids)
            parts.append(f'<h4>{what} ({len(ids)})</h4><ul class="left-out">{items}</ul>')
    if not parts:
        return '<p class="none">every item of both runs was compared</p>'
    return "".join(parts)


def write_comparison_report(path: str | Path, result: ComparisonResult) -> None:
    """Write the comparison page of ``result`` (from :func:`sumjudge.analysis.compare_runs`) to ``path``."""
    scale = _scale(result)
    css = _asset("report.css") + _EXTRA_CSS
    csp = f"default-src 'none'; style-src {_csp_hash(css)}; img-src data:; base-uri 'none'; form-action 'none'"
    diffs = [b - a for _, a, b in result.pairs]
    verdict_cls = {"better": "better", "worse": "worse"}.get(result.verdict, "")
    page = (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{_e(csp)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>sumjudge comparison · {_e(result.a)} vs {_e(result.b)}</title><style>{css}</style></head><body>"
        '<header><h1>sumjudge comparison</h1><dl class="meta">'
        f"<dt>A</dt><dd>{_e(result.a)}</dd><dt>B</dt><dd>{_e(result.b)}</dd>"
        f"<dt>paired items</dt><dd>{result.n_pairs}</dd>"
        f'<dt>verdict</dt><dd class="verdict {verdict_cls}" id="verdict">B is {_e(result.verdict)}'
        f"{' than A' if result.verdict in ('better', 'worse') else ''} (score, α = {result.alpha:g})</dd>"
        + "".join(f"<dt>power</dt><dd>{_e(line)}</dd>" for line in power_lines(result)) + "</dl></header>"
        f'<section class="figures-section"><h2>figures</h2>{_figures_table(result)}'
        '<p class="note">B − A is the mean per-item difference over the paired items; its interval resamples '
        "items (paired bootstrap); p is the Wilcoxon signed-rank test, items with no change left out. The test "
        "decides the verdict (it is exact on few items and ties); the interval sizes the change.</p></section>"
        '<section class="charts">'
        f"<div><h2>score in A and in B</h2>{scatter_svg(result, scale)}"
        '<p class="note">Above the diagonal: B scored the item higher.</p></div>'
        f"<div><h2>B − A per item</h2>{diffs_svg(diff_counts(diffs, scale), scale)}</div></section>"
        f'<section class="moved"><h2>moved most</h2>{_moved_table(result)}</section>'
        f'<section class="left-out"><h2>not compared</h2>{_left_out(result)}</section>'
        "<footer>written by sumjudge</footer></body></html>\n"
    )
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(page, encoding="utf-8")
