"""The runs page: every run of the store with its judge, data, items, mean and interval, failures and
date; filtered by a search over id, judge and data, and by judge. Runs of another kind (``probe``) are
marked and linked; their own page is their command's."""

from __future__ import annotations

from collections.abc import Sequence

from ...store.database import RunRecord
from ...store.run_stats import RunStats
from ..markup import e, fmt, interval, url, when


def run_kind(run: RunRecord) -> str:
    """``score`` for a scoring run; what the run says otherwise (``probe`` runs, from ``sumjudge probe``)."""
    kind = getattr(run, "kind", None) or run.options.get("kind")
    return str(kind) if kind else "score"


def matches(run: RunRecord, q: str, judge: str) -> bool:
    if judge and run.model != judge:
        return False
    q = q.strip().lower()
    return not q or any(q in text.lower() for text in (run.id, run.model, run.data, run_kind(run)))


def runs_body(runs: Sequence[tuple[RunRecord, RunStats]], *, judges: Sequence[str], q: str, judge: str, total: int) -> str:
    options = "".join(
        f'<option value="{e(j)}"{" selected" if j == judge else ""}>{e(j)}</option>' for j in judges
    )
    head = (
        "<h1>runs</h1>"
        '<form class="filter" method="get" action="/">'
        f'<label>search <input type="search" name="q" value="{e(q)}" placeholder="id, judge or data"></label> '
        f'<label>judge <select name="judge"><option value="">any</option>{options}</select></label> '
        '<button type="submit">filter</button></form>'
        f'<p class="count">{len(runs)} of {total} runs</p>'
    )
    rows = []
    for run, stats in runs:
        kind = run_kind(run)
        tag = "" if kind == "score" else f' <span class="kind">{e(kind)}</span>'
        rows.append(
            f'<tr class="run" data-run="{e(run.id)}" data-kind="{e(kind)}">'
            f'<td><a href="{url("/run/" + run.id)}">{e(run.id)}</a>{tag}</td>'
            f"<td>{e(run.model)}</td><td>{e(run.data)}</td>"
            f'<td class="num">{run.done} / {run.total_items}</td>'
            f'<td class="num">{fmt(stats.mean)} <span class="ci">{interval(stats.mean_ci)}</span></td>'
            f'<td class="num{" bad" if run.errors else ""}">{run.errors}</td>'
            f"<td>{e(run.status)}</td><td>{e(when(run.created_at))}</td></tr>"
        )
    table = (
        '<table class="runs"><thead><tr><th>run</th><th>judge</th><th>data</th><th>items</th>'
        "<th>mean [95% CI]</th><th>failed</th><th>status</th><th>date</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )
    if not runs:
        table = '<p class="none">no run matches</p>' if total else '<p class="none">no runs yet: record some with <code>sumjudge score</code></p>'
    return head + table
