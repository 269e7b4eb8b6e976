"""The page of a probe (``sumjudge probe --report``): a row per kind with its rate and 95% interval
drawn as inline SVG, and examples: the original and the variant with the change marked, and what the
judge said. Self-contained like the run report (no network, a Content-Security-Policy that allows only
this page's style by hash); every text from the data or the judge is escaped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..analysis.probe.selection import ProbePlan
from ..analysis.probe.table import KindRow, PairedKind, ProbeTable, examples, is_detected
from ..analysis.probe.variants import Variant
from ..store.records import ItemOutcome, ScoredItem
from ..guards.redact import secret_spans
from .evidence import shown
from .html import _asset, _csp_hash, _e, _fmt

_EXTRA_CSS = """
svg.rate { vertical-align: middle; }
svg.rate .track { fill: var(--muted); fill-opacity: .15; }
svg.rate .ci { stroke: var(--fg); stroke-width: 2; }
svg.rate .dot { fill: var(--bar); }
svg.rate .gate { stroke: var(--bad); stroke-dasharray: 3 2; }
td.num { text-align: right; white-space: nowrap; }
del.change { background: #f8d7da; }
ins.change { background: #d4edda; text-decoration: none; }
.example { border-top: 1px solid var(--muted); padding: 8px 0; }
.example .caught { color: var(--good); font-weight: 600; }
.example .missed { color: var(--bad); font-weight: 600; }
"""

WIDTH, HEIGHT = 240, 18


def rate_svg(row: KindRow, threshold: float | None = None) -> str:
    """The rate as a dot on [0, 1] with its interval as a line (and the gate's threshold, dashed)."""
    def x(v: float) -> float:
        return 4 + v * (WIDTH - 8)

    parts = [f'<svg class="rate" role="img" aria-label="rate {_fmt(row.rate)}" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'width="{WIDTH}" height="{HEIGHT}" xmlns="http://www.w3.org/2000/svg">',
             f'<rect class="track" x="4" y="4" width="{WIDTH - 8}" height="{HEIGHT - 8}"/>']
    if threshold is not None:
        parts.append(f'<line class="gate" x1="{x(threshold):.1f}" y1="1" x2="{x(threshold):.1f}" y2="{HEIGHT - 1}"/>')
    if row.ci_low is not None and row.ci_high is not None:
        parts.append(f'<line class="ci" x1="{x(row.ci_low):.1f}" y1="{HEIGHT / 2}" x2="{x(row.ci_high):.1f}" y2="{HEIGHT / 2}"/>')
    if row.rate is not None:
        parts.append(f'<circle class="dot" cx="{x(row.rate):.1f}" cy="{HEIGHT / 2}" r="4"><title>{_fmt(row.rate)}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


def _threshold(table: ProbeTable, kind: str) -> float | None:
    return next((g.threshold for g in table.gates if g.kind == kind), None)


def _table_html(table: ProbeTable) -> str:
    j = table.judge
    head = (f"<h2>judge {_e(j.get('model'))}</h2><p class=\"note\">run {_e(j.get('run'))} · seed {_e(j.get('seed'))} · "
            f"per kind {_e(j.get('per_kind') or 'all')} · options {_e(j.get('options'))} · {table.items} items</p>")
    rows = []
    for k in [*table.kinds, *table.controls]:
        caught = k.flagged if k.axis == "control" else k.detected
        rows.append(
            f'<tr data-kind="{_e(k.kind)}"><td>{_e(k.kind)}</td><td>{_e(k.axis)}</td><td class="num">{k.applicable}</td>'
            f'<td class="num">{k.probes}</td><td class="num">{caught}{" flagged" if k.axis == "control" else ""}</td>'
            f'<td class="num">{_fmt(k.rate, 2)}</td><td class="num">{_fmt(k.ci_low, 2)}–{_fmt(k.ci_high, 2)}</td>'
            f"<td>{rate_svg(k, _threshold(table, k.kind))}</td>"
            f'<td class="num">{"–" if k.localized is None else k.localized}</td></tr>'
        )
    gates = "".join(f"<li>{_e(g.line)}</li>" for g in table.gates) or "<li>no gate asked</li>"
    return (head + "<table><thead><tr><th>kind</th><th>axis</th><th>applicable</th><th>probes</th><th>detected</th>"
            "<th>rate</th><th>95% CI (Wilson)</th><th>0 – 1</th><th>localized</th></tr></thead><tbody>"
            + "".join(rows) + f"</tbody></table><ul class=\"gates\">{gates}</ul>"
            f"<p class=\"verdict\" id=\"passed\">{'passed' if table.passed else 'FAILED'}</p>")


def marked(text: str, span: tuple[int, int], tag: str) -> str:
    """``text`` escaped with ``span`` in ``<tag>``, secrets hidden: an edge of the span inside a secret moves
    out of it, so that no key is written in two pieces that no search finds."""
    start, end = span
    for s, t in secret_spans(text):
        start = s if s < start < t else start
        end = t if s < end < t else end
    return f'{shown(text[:start])}<{tag} class="change">{shown(text[start:end])}</{tag}>{shown(text[end:])}'


def _said(item: ScoredItem) -> str:
    if item.verdicts is None:
        return ""
    bad = [c for c in item.verdicts.alignment if not c.supported]
    lines = "".join(f"<li>{_e(c.claim)} — {_e(c.reason)}</li>" for c in bad[:4])
    return (f"score {_fmt(item.score, 2)} (alignment {_fmt(item.alignment_score, 2)}, coverage "
            f"{_fmt(item.coverage_score, 2)}); unsupported claims: {len(bad)}<ul>{lines}</ul>")


def _example_html(v: Variant, original: ScoredItem, changed: ScoredItem, source_summary: str) -> str:
    hit = is_detected(v, original, changed)
    word = ("flagged" if hit else "not flagged") if v.axis == "control" else ("caught" if hit else "missed")
    good = hit != (v.axis == "control")
    return (f'<div class="example" data-kind="{_e(v.kind)}"><h3>{_e(v.kind)} · {_e(v.id)} · '
            f'<span class="{"caught" if good else "missed"}">{word}</span></h3>'
            f"<p>change: {_e(v.change)}</p>"
            f"<p><b>original</b>: {marked(source_summary, v.original_span, 'del')}</p>"
            f"<p><b>variant</b>: {marked(v.summary, v.variant_span, 'ins')}</p>"
            f"<p><b>judge on the original</b>: {_said(original)}</p><p><b>judge on the variant</b>: {_said(changed)}</p></div>")


def _paired_html(paired: Sequence[PairedKind]) -> str:
    if not paired:
        return ""
    rows = "".join(f"<tr><td>{_e(p.kind)}</td><td class=\"num\">{p.pairs}</td><td class=\"num\">{p.both}</td>"
                   f"<td class=\"num\">{p.only_a}</td><td class=\"num\">{p.only_b}</td><td class=\"num\">{p.p_value:.3g}</td></tr>"
                   for p in paired)
    return ("<section><h2>A against B</h2><table><thead><tr><th>kind</th><th>pairs</th><th>both</th><th>A only</th>"
            f"<th>B only</th><th>p (exact McNemar)</th></tr></thead><tbody>{rows}</tbody></table></section>")


def write_probe_report(
    path: str | Path, plan: ProbePlan, judged: Sequence[tuple[ProbeTable, Mapping[str, ItemOutcome]]],
    paired: Sequence[PairedKind] = (),
) -> None:
    """Write the probe's page: each judge's table, the paired tests of two judges, and examples
    (misses first) of the first judge."""
    css = _asset("report.css") + _EXTRA_CSS
    csp = f"default-src 'none'; style-src {_csp_hash(css)}; img-src data:; base-uri 'none'; form-action 'none'"
    originals = {r.id: r.summary for r in plan.originals}
    table, outcomes = judged[0]
    shown = "".join(_example_html(v, a, b, originals[v.row_id]) for v, a, b in examples(plan, outcomes))
    page: list[Any] = [
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{_e(csp)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>sumjudge probe · {_e(table.judge.get('data'))}</title><style>{css}</style></head><body>"
        f"<header><h1>sumjudge probe</h1><p>{_e(table.judge.get('data'))}: {len(plan.originals)} originals, "
        f"{len(plan.variants)} variants</p></header>",
        *(f"<section>{_table_html(t)}</section>" for t, _ in judged),
        _paired_html(paired),
        '<p class="note">detected: the variant scored strictly lower than its original, and lower on its axis; '
        "localized: an unsupported claim belongs to the changed sentence; a control is flagged when it scored lower.</p>",
        f"<section><h2>examples ({_e(table.judge.get('model'))})</h2>{shown}</section>",
        "<footer>written by sumjudge</footer></body></html>\n",
    ]
    Path(path).write_text("".join(page), encoding="utf-8")
