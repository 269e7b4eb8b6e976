"""The run page: figures, the score histogram, alignment against coverage, and the item table,
sorted and filtered on the server (by score, by the axis that sets the score, by failure, by id)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...store.database import RunRecord
from ...store.item_lookup import ItemRow
from ...store.run_stats import RunStats
from ..charts import histogram_counts, histogram_svg, scatter_svg
from ..markup import e, figures, fmt, interval, url, when

SORTS = ("row", "id", "score", "alignment", "coverage", "spread", "labels")
AXES = ("any", "alignment", "coverage")
STATUSES = ("any", "ok", "failed")
SHOWN = 500
"""Rows of the item table shown at first (``show=0`` shows all): a page stays light on a large run."""


@dataclass(frozen=True)
class ItemFilter:
    """What the item table shows, read from the query string (unknown values fall back to the defaults)."""

    sort: str = "row"
    desc: bool = False
    status: str = "any"
    axis: str = "any"
    """``alignment``: items whose alignment sets the score (alignment <= coverage); ``coverage`` alike."""
    score_min: float | None = None
    score_max: float | None = None
    q: str = ""
    show: int = SHOWN

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> ItemFilter:
        def num(key: str) -> float | None:
            try:
                return float(query[key]) if query.get(key, "").strip() else None
            except ValueError:
                return None

        return cls(
            sort=query.get("sort", "row") if query.get("sort") in SORTS else "row",
            desc=query.get("order") == "desc",
            status=query.get("status", "any") if query.get("status") in STATUSES else "any",
            axis=query.get("axis", "any") if query.get("axis") in AXES else "any",
            score_min=num("score_min"),
            score_max=num("score_max"),
            q=query.get("q", ""),
            show=int(query["show"]) if query.get("show", "").isdigit() else SHOWN,
        )

    def keeps(self, item: ItemRow) -> bool:
        if (self.status == "ok" and item.failed) or (self.status == "failed" and not item.failed):
            return False
        if self.q and self.q.lower() not in item.item_id.lower():
            return False
        if self.axis != "any" or self.score_min is not None or self.score_max is not None:
            if item.score is None or item.alignment is None or item.coverage is None:
                return False
            if self.axis == "alignment" and item.alignment > item.coverage:
                return False
            if self.axis == "coverage" and item.coverage > item.alignment:
                return False
            if self.score_min is not None and item.score < self.score_min:
                return False
            if self.score_max is not None and item.score > self.score_max:
                return False
        return True

    def query(self, **change: object) -> dict[str, object]:
        q: dict[str, object] = {
            "sort": self.sort, "order": "desc" if self.desc else None, "status": self.status, "axis": self.axis,
            "score_min": self.score_min, "score_max": self.score_max, "q": self.q,
            "show": None if self.show == SHOWN else self.show,
        }
        q.update(change)
        return {k: v for k, v in q.items() if v not in (None, "", "any", "row")}


def _value(item: ItemRow, sort: str, labels: Mapping[str, int]) -> object:
    return {
        "row": item.row_number, "id": item.item_id, "score": item.score, "alignment": item.alignment,
        "coverage": item.coverage, "spread": item.spread, "labels": labels.get(item.item_id, 0),
    }[sort]


def sort_items(items: Sequence[ItemRow], sort: str, desc: bool, labels: Mapping[str, int]) -> list[ItemRow]:
    """Items by one column; those without a value there (failed items, items without samples) last."""
    present = [i for i in items if _value(i, sort, labels) is not None]
    missing = [i for i in items if _value(i, sort, labels) is None]
    present.sort(key=lambda i: (_value(i, sort, labels), i.row_number), reverse=desc)
    return present + missing


def _calibrate_hint(run: RunRecord, labelled: bool) -> str:
    """Which calibration the run applied; and, once people have labelled it, the command that fits one."""
    said = ""
    if run.options.get("calibration"):
        said += f'<p class="hint">calibrated by {e(str(run.options["calibration"])[7:19])} (--calibration)</p>'
    if labelled:
        said += (f'<p class="hint">labelled: fit this judge to your labels with '
                 f'<code>sumjudge calibrate {e(run.id)} --out calibration.json</code>, then score with '
                 f'<code>--calibration calibration.json</code></p>')
    return said


def run_body(run: RunRecord, stats: RunStats, items: Sequence[ItemRow], *, flt: ItemFilter,
             labels: Mapping[str, int], reviewer: str, scale: float, correction: Any = None,
             labelled: bool = False) -> str:
    base = "/run/" + run.id
    counts = histogram_counts((i.score for i in items if i.score is not None), scale)
    points = [(i.item_id, i.alignment, i.coverage) for i in items if i.alignment is not None and i.coverage is not None]
    shown = sort_items([i for i in items if flt.keeps(i)], flt.sort, flt.desc, labels)
    pct = f"{round(stats.confidence * 100)}% CI"
    head = (
        f'<h1>run <span class="id">{e(run.id)}</span></h1><dl class="meta">'
        f"<dt>judge</dt><dd>{e(run.model)}</dd><dt>data</dt><dd>{e(run.data)}</dd>"
        f"<dt>options</dt><dd>{e(json.dumps(run.options, sort_keys=True))}</dd>"
        f"<dt>created</dt><dd>{e(when(run.created_at))}</dd><dt>status</dt><dd>{e(run.status)}</dd></dl>"
        + figures([
            ("items", f"{run.done} / {run.total_items}"), ("mean score", fmt(stats.mean)),
            (f"mean {pct}", interval(stats.mean_ci) or "–"), ("median", fmt(stats.median)),
            ("mean alignment", fmt(stats.mean_alignment)), ("mean coverage", fmt(stats.mean_coverage)),
            ("failed", str(stats.errors)), ("tokens", f"{stats.tokens:,}"),
            ("unchecked claims", "–" if stats.unchecked_share is None else f"{stats.unchecked_share:.0%}"),
            *([("evidence", stats.evidence_line.removeprefix("evidence "))] if stats.evidence_line else []),
        ])
        + corrected_section(correction)
        + _calibrate_hint(run, labelled or any(labels.values()))
        + f'<section class="charts"><figure><figcaption>scores</figcaption>{histogram_svg(counts, scale)}</figure>'
        f"<figure><figcaption>alignment against coverage (each dot an item)</figcaption>{scatter_svg(points, scale, run.id)}"
        "</figure></section>"
        f'<form class="queue" method="get" action="{url(base + "/queue")}">'
        f'<label>reviewer <input name="reviewer" value="{e(reviewer)}" required maxlength="64"></label> '
        '<label>gate <input name="gate" size="5" placeholder="0.5"></label> '
        '<button type="submit">label: next in the queue</button>'
        '<span class="hint"> unverified evidence first, then least sure (spread across samples, scores near the gate), then a seeded shuffle</span></form>'
    )
    filt = (
        f'<form class="filter" method="get" action="{url(base)}">'
        f'<input type="hidden" name="sort" value="{e(flt.sort)}">'
        + ('<input type="hidden" name="order" value="desc">' if flt.desc else "")
        + f'<label>id <input type="search" name="q" value="{e(flt.q)}"></label> '
        f'<label>score from <input name="score_min" size="5" value="{e("" if flt.score_min is None else flt.score_min)}"></label> '
        f'<label>to <input name="score_max" size="5" value="{e("" if flt.score_max is None else flt.score_max)}"></label> '
        + _select("axis", "set by", AXES, flt.axis) + " " + _select("status", "status", STATUSES, flt.status)
        + ' <button type="submit">filter</button></form>'
    )
    cols = [("row", "#"), ("id", "id"), ("score", "score"), ("alignment", "alignment"), ("coverage", "coverage"),
            (None, "claims supported"), (None, "questions answered"), ("spread", "spread"), ("labels", "labels"), (None, "status")]
    ths = []
    for key, label in cols:
        if key is None:
            ths.append(f"<th>{e(label)}</th>")
            continue
        now = flt.sort == key
        link = url(base, **flt.query(sort=key, order=None if now and flt.desc else ("desc" if now else None)))
        mark = (" ▼" if flt.desc else " ▲") if now else ""
        aria = ("descending" if flt.desc else "ascending") if now else "none"
        ths.append(f'<th aria-sort="{aria}"><a href="{link}">{e(label)}{mark}</a></th>')
    cut = shown[: flt.show] if flt.show else shown
    rows = [_row(run.id, i, labels.get(i.item_id, 0)) for i in cut]
    more = (f' (the first {len(cut)} shown: <a class="show-all" href="{url(base, **flt.query(show=0))}">show all</a>)'
            if len(cut) < len(shown) else "")
    table = (
        f'<section class="items"><h2>items</h2>{filt}<p class="count">{len(shown)} of {len(items)} items{more}</p>'
        f'<table class="items"><thead><tr>{"".join(ths)}</tr></thead><tbody>{"".join(rows)}</tbody></table></section>'
    )
    return head + table


def corrected_section(correction: Any) -> str:
    """The run's rates corrected for the judge's errors (:mod:`sumjudge.analysis.corrected`), one line
    each as the CLI prints them; nothing when nobody labelled the run."""
    if correction is None:
        return ""
    from ...analysis.corrected import correction_lines

    head, *rest = correction_lines(correction)
    lines = "".join(f"<li>{e(line.strip())}</li>" for line in rest)
    return f'<section class="corrected"><h2>corrected rates</h2><p>{e(head)}</p><ul>{lines}</ul></section>'


def _select(name: str, label: str, values: Sequence[str], now: str) -> str:
    opts = "".join(f'<option{" selected" if v == now else ""}>{e(v)}</option>' for v in values)
    return f'<label>{e(label)} <select name="{e(name)}">{opts}</select></label>'


def _row(run_id: str, item: ItemRow, n_labels: int) -> str:
    link = f'<a href="{url("/run/" + run_id + "/item", id=item.item_id)}">{e(item.item_id)}</a>'
    if item.failed:
        return (
            f'<tr class="item failed" data-id="{e(item.item_id)}"><td>{item.row_number}</td><td>{link}</td>'
            f'<td colspan="7" class="error">{e(item.error)}</td><td class="bad">failed</td></tr>'
        )
    claims = f"{item.supported} / {item.claims}" if item.claims else "–"
    answers = f"{item.answered} / {item.questions}" if item.questions else "–"
    return (
        f'<tr class="item" data-id="{e(item.item_id)}" data-score="{item.score!r}"><td>{item.row_number}</td><td>{link}</td>'
        f'<td class="num">{fmt(item.score, 2)}</td><td class="num">{fmt(item.alignment)}</td>'
        f'<td class="num">{fmt(item.coverage)}</td><td class="num">{claims}</td><td class="num">{answers}</td>'
        f'<td class="num">{fmt(item.spread)}</td><td class="num">{n_labels or ""}</td><td class="good">ok</td></tr>'
    )
