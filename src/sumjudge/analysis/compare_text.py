"""A comparison of two runs (:func:`sumjudge.analysis.compare.compare_runs`) in words: the plain text
``sumjudge compare`` prints, and the note, shared with the HTML page, that says why the verdict stands
when its interval points another way."""

from __future__ import annotations

from ..figures import number, p_value
from ..figures.stats import interval_disagrees
from .compare import AxisComparison, ComparisonResult, exam_note, id_list

def disagreement_note(name: str, c: AxisComparison) -> str | None:
    """Why the verdict stands when its interval points another way (:func:`~sumjudge.figures.stats.interval_disagrees`)."""
    if not interval_disagrees(c, c.tested):
        return None
    moved = c.wins + c.losses
    shown = "leaves out 0" if c.tested == "no difference" else "holds 0"
    return (
        f"{name}: the interval {shown}, but the verdict ({c.tested if c.tested != 'no difference' else c.verdict}) is the Wilcoxon signed-rank test's "
        f"(p = {p_value(c.p_value)} over {moved} changed item{'s' if moved != 1 else ''}), which decides: it is exact on "
        "few items and ties, where a bootstrap interval is too narrow; the interval only sizes the change"
    )


_f = number
_p = p_value


def power_lines(result: ComparisonResult) -> list[str]:
    """What the comparison could have seen: its minimum detectable difference, and the items a chosen
    difference would need; a line on what ``equivalent`` / ``inconclusive`` means when it is that."""
    lines = []
    if result.mdd is not None:
        lines.append(f"minimum detectable difference (score, paired, 80% power, 5% level): {_f(result.mdd)} "
                     f"at {result.n_pairs} items")
    if result.items_needed is not None and result.detect is not None:
        lines.append(f"a true difference of {_f(result.detect)} would need about {result.items_needed} paired items "
                     "at this spread")
    if result.verdict == "inconclusive":
        lines.append(f"inconclusive: the interval of B - A is not inside +-{result.margin:g} (--margin) and the test "
                     "finds no difference; the runs may differ by less than the minimum detectable difference")
    elif result.verdict == "equivalent":
        lines.append(f"equivalent: the interval of B - A lies inside +-{result.margin:g} (--margin)")
    return lines


def render_text(result: ComparisonResult, *, warnings: bool = True) -> str:
    """The comparison as plain text: one line per figure, then what was left out and what moved.
    ``warnings=False`` leaves out the exam warning, for a caller that writes it to standard error
    (``sumjudge compare``: said once)."""
    pct = round(result.confidence * 100)
    lines = [
        f"A: {result.a}",
        f"B: {result.b}",
        f"{result.n_pairs} paired items",
        f"{'':<10} {'mean A':>7} {'mean B':>7} {'B - A':>7} {f'{pct}% CI':>17} {'p':>7} "
        f"{'wins/ties/losses':>17}  verdict (Wilcoxon, alpha {result.alpha:g})",
    ]
    notes = []
    for name, c in (("score", result), ("alignment", result.alignment), ("coverage", result.coverage)):
        ci = f"[{_f(c.ci_low, sign=True)}, {_f(c.ci_high, sign=True)}]"
        if note := disagreement_note(name, c):
            ci += "*"
            notes.append(f"* {note}")
        wtl = f"{c.wins}/{c.ties}/{c.losses}"
        lines.append(
            f"{name:<10} {_f(c.mean_a):>7} {_f(c.mean_b):>7} {_f(c.diff, sign=True):>7} {ci:>17} "
            f"{_p(c.p_value):>7} {wtl:>17}  {c.verdict}"
        )
    lines += notes
    lines += power_lines(result)
    if (said := exam_note(result)) is not None and (warnings or not said[1]):
        lines.append(("warning: " if said[1] else "exam: ") + said[0])
    for what, ids in (
        ("only in A (not compared)", result.only_in_a),
        ("only in B (not compared)", result.only_in_b),
        ("failed in A (not compared)", result.failed_a),
        ("failed in B (not compared)", result.failed_b),
    ):
        if ids:
            lines.append(f"{what}: {len(ids)}: {id_list(ids)}")
    if result.sources_checked < result.n_pairs + len(result.failed_a) + len(result.failed_b):
        lines.append(
            f"sources checked for {result.sources_checked} pairs (the other records carry no source digest)"
        )
    if result.changed and not result.moved:
        lines.append(f"{result.changed} item(s) changed their score; none listed (--moved 0)")
    elif not result.changed:
        lines.append("no paired item changed its score")
    if result.moved:
        lines.append("moved most:")
        for m in result.moved:
            lines.append(f"  {m.id}: {m.score_a:.3f} -> {m.score_b:.3f} ({m.diff:+.3f})")
            lines.append(f"    A: {m.reason_a or '-'}")
            lines.append(f"    B: {m.reason_b or '-'}")
    return "\n".join(lines)
