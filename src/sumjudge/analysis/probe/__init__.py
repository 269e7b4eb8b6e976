"""The probe: controlled variants of faithful summaries (:mod:`.variants`; the probe's own rules in
:mod:`.rules` and :mod:`.controls`, its word lists in :mod:`.word_lists`), which of them a probe scores (:mod:`.selection`), and what the judge's scores say (:mod:`.table`).
The names below are imported on first use (:mod:`sumjudge._lazy`)."""

from typing import TYPE_CHECKING

from ..._lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(["KINDS", "ProbeRow", "Variant"], ".variants"),
    **dict.fromkeys(["Pair", "ProbePlan", "make_variant", "parse_kinds", "plan_pairs", "plan_probe"], ".selection"),
    **dict.fromkeys(["ProbeTable", "paired_kinds", "probe_table", "wilson", "mcnemar_exact"], ".table"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .selection import Pair, ProbePlan, make_variant, parse_kinds, plan_pairs, plan_probe
    from .table import ProbeTable, mcnemar_exact, paired_kinds, probe_table, wilson
    from .variants import KINDS, ProbeRow, Variant

__all__ = ["KINDS", "Pair", "ProbePlan", "ProbeRow", "ProbeTable", "Variant", "make_variant", "mcnemar_exact",
           "paired_kinds", "parse_kinds", "plan_pairs", "plan_probe", "probe_table", "wilson"]
