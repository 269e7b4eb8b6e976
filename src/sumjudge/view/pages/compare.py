"""The compare page: two runs of the store over the same items (``sumjudge compare``'s figures, from
:func:`sumjudge.analysis.compare.compare_runs`), every pair's difference drawn, the items that moved."""

from __future__ import annotations

from collections.abc import Sequence

from ...analysis.compare import ComparisonResult
from ...analysis.compare_text import power_lines
from ...figures import p_value
from ...store.database import RunRecord
from ..charts import diffs_svg
from ..markup import e, fmt, url


def _picker(runs: Sequence[RunRecord], a: str, b: str) -> str:
    def select(name: str, now: str) -> str:
        opts = "".join(
            f'<option value="{e(r.id)}"{" selected" if r.id == now else ""}>{e(r.id)} · {e(r.model)} · {e(r.data)}</option>'
            for r in runs
        )
        return f'<label>{name.upper()} <select name="{name}">{opts}</select></label>'

    return (f'<form class="pick" method="get" action="/compare">{select("a", a)} {select("b", b)} '
            '<button type="submit">compare</button></form>')


def compare_body(runs: Sequence[RunRecord], a: str, b: str, result: ComparisonResult | None, problem: str | None) -> str:
    parts = ["<h1>compare two runs</h1>", _picker(runs, a, b)]
    if problem:
        parts.append(f'<p class="error">{e(problem)}</p>')
    if result is None:
        return "".join(parts)
    r = result
    pct = round(r.confidence * 100)
    parts.append(
        f'<p class="verdict" data-verdict="{e(r.verdict)}">B against A: <strong>{e(r.verdict)}</strong> '
        f"(alpha {r.alpha:g}, {r.n_pairs} paired items)</p>"
        f'<table class="compare"><thead><tr><th></th><th>mean A</th><th>mean B</th><th>B − A</th><th>{pct}% CI</th>'
        "<th>p</th><th>wins / ties / losses</th><th>verdict</th></tr></thead><tbody>"
    )
    for name, c in (("score", r), ("alignment", r.alignment), ("coverage", r.coverage)):
        parts.append(
            f"<tr><th>{name}</th><td>{fmt(c.mean_a)}</td><td>{fmt(c.mean_b)}</td><td>{fmt(c.diff)}</td>"
            f"<td>[{fmt(c.ci_low)}, {fmt(c.ci_high)}]</td><td>{e(p_value(c.p_value))}</td>"
            f"<td>{c.wins} / {c.ties} / {c.losses}</td><td>{e(c.verdict)}</td></tr>"
        )
    parts.append("</tbody></table>")
    parts.append('<ul class="power">' + "".join(f"<li>{e(line)}</li>" for line in power_lines(r)) + "</ul>")
    parts.append("<figure><figcaption>each item's score in B minus in A, sorted; the band is the interval of the mean "
                 "difference</figcaption>" + diffs_svg(r.pairs, (r.ci_low, r.ci_high), r.diff, r.scale or 1.0) + "</figure>")
    left = [("only in A", r.only_in_a), ("only in B", r.only_in_b), ("failed in A", r.failed_a), ("failed in B", r.failed_b)]
    for what, ids in left:
        if ids:
            parts.append(f'<p class="left-out">{e(what)} (not compared): {len(ids)}: {e(", ".join(ids[:20]))}</p>')
    if r.moved:
        parts.append('<h2>moved most</h2><table class="moved"><thead><tr><th>item</th><th>A</th><th>B</th><th>B − A</th>'
                     "<th>reason in A</th><th>reason in B</th></tr></thead><tbody>")
        for m in r.moved:
            parts.append(
                f'<tr><td>{e(m.id)} <a href="{url("/run/" + a + "/item", id=m.id)}">A</a> '
                f'<a href="{url("/run/" + b + "/item", id=m.id)}">B</a></td><td>{fmt(m.score_a)}</td><td>{fmt(m.score_b)}</td>'
                f'<td class="{"good" if m.diff > 0 else "bad"}">{m.diff:+.3f}</td><td>{e(m.reason_a)}</td><td>{e(m.reason_b)}</td></tr>'
            )
        parts.append("</tbody></table>")
    else:
        parts.append('<p class="none">no item moved</p>')
    return "".join(parts)
