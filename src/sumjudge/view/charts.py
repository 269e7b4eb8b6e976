"""Inline SVG charts of the viewer: the score histogram (the report's), alignment against coverage,
and two runs' paired differences. No script and no style attribute: the CSP allows neither."""

from __future__ import annotations

from collections.abc import Sequence

from ..report.html import histogram_counts, histogram_svg
from .markup import e, url

__all__ = ["diffs_svg", "histogram_counts", "histogram_svg", "scatter_svg"]


def scatter_svg(points: Sequence[tuple[str, float, float]], scale: float, run_id: str) -> str:
    """Each scored item at (alignment, coverage) in [0, 1], a link to its page."""
    size, pad = 260, 34
    plot = size - pad - 10
    parts = [
        f'<svg class="scatter" role="img" aria-label="alignment against coverage" viewBox="0 0 {size} {size}" '
        f'width="{size}" height="{size}" xmlns="http://www.w3.org/2000/svg">',
        f'<rect class="frame" x="{pad}" y="10" width="{plot}" height="{plot}"/>',
        f'<line class="diag" x1="{pad}" y1="{10 + plot}" x2="{pad + plot}" y2="10"/>',
        f'<text class="tick" x="{pad + plot / 2}" y="{size - 4}" text-anchor="middle">alignment</text>',
        f'<text class="tick" x="12" y="{10 + plot / 2}" text-anchor="middle" transform="rotate(-90 12 {10 + plot / 2})">coverage</text>',
        f'<text class="tick" x="{pad}" y="{size - 18}" text-anchor="middle">0</text>',
        f'<text class="tick" x="{pad + plot}" y="{size - 18}" text-anchor="middle">1</text>',
        f'<text class="tick" x="{pad - 4}" y="14" text-anchor="end">1</text>',
    ]
    for item_id, a, c in points:
        x, y = pad + plot * min(max(a, 0), 1), 10 + plot * (1 - min(max(c, 0), 1))
        parts.append(
            f'<a href="{url("/run/" + run_id + "/item", id=item_id)}"><circle class="dot" cx="{x:.1f}" cy="{y:.1f}" r="4">'
            f"<title>{e(item_id)}: alignment {a:.2f}, coverage {c:.2f}</title></circle></a>"
        )
    parts.append("</svg>")
    return "".join(parts)


def diffs_svg(pairs: Sequence[tuple[str, float, float]], ci: tuple[float | None, float | None], mean: float | None,
              scale: float) -> str:
    """Every paired item's B - A, sorted, as a dot; the mean difference and its interval as a band."""
    width, height, pad_l, pad = 560, 220, 40, 12
    plot_w, plot_h = width - pad_l - pad, height - 2 * pad
    top = max([abs(b - a) for _, a, b in pairs] + [abs(v) for v in (*ci, mean) if v is not None] + [1e-9])
    top = min(top * 1.1, scale) if top < scale else scale

    def y(v: float) -> float:
        return pad + plot_h / 2 - (v / top) * (plot_h / 2)

    parts = [
        f'<svg class="diffs" role="img" aria-label="paired differences, B minus A" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">',
        f'<text class="tick" x="{pad_l - 4}" y="{pad + 4}" text-anchor="end">+{top:.2g}</text>',
        f'<text class="tick" x="{pad_l - 4}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>',
        f'<text class="tick" x="{pad_l - 4}" y="{pad + plot_h}" text-anchor="end">-{top:.2g}</text>',
    ]
    if ci[0] is not None and ci[1] is not None:
        parts.append(
            f'<rect class="band" x="{pad_l}" y="{y(ci[1]):.1f}" width="{plot_w}" height="{max(y(ci[0]) - y(ci[1]), 1):.1f}">'
            f"<title>interval of the mean difference [{ci[0]:+.3f}, {ci[1]:+.3f}]</title></rect>"
        )
    parts.append(f'<line class="zero" x1="{pad_l}" y1="{y(0):.1f}" x2="{pad_l + plot_w}" y2="{y(0):.1f}"/>')
    if mean is not None:
        parts.append(f'<line class="mean" x1="{pad_l}" y1="{y(mean):.1f}" x2="{pad_l + plot_w}" y2="{y(mean):.1f}"/>')
    ordered = sorted(pairs, key=lambda p: (p[2] - p[1], p[0]))
    step = plot_w / max(len(ordered), 1)
    for i, (item_id, a, b) in enumerate(ordered):
        d = b - a
        cls = "up" if d > 0 else "down" if d < 0 else "same"
        parts.append(
            f'<circle class="pair {cls}" cx="{pad_l + step * (i + 0.5):.1f}" cy="{y(d):.1f}" r="3">'
            f"<title>{e(item_id)}: {a:.3f} → {b:.3f} ({d:+.3f})</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)
