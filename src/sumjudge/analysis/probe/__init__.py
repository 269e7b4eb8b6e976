"""The probe: controlled variants of faithful summaries (:mod:`.variants`, the probe's own rules and
word lists), which of them a probe scores (:mod:`.plan`), and what the judge's scores say (:mod:`.table`).
The names below are imported on first use (:mod:`sumjudge._lazy`)."""

from typing import TYPE_CHECKING

from ..._lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(["KINDS", "ProbeRow", "Variant", "make_variant"], ".variants"),
    **dict.fromkeys(["Pair", "ProbePlan", "parse_kinds", "plan_pairs", "plan_probe"], ".plan"),
    **dict.fromkeys(["ProbeTable", "paired_kinds", "probe_table", "wilson", "mcnemar_exact"], ".table"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .plan import Pair, ProbePlan, parse_kinds, plan_pairs, plan_probe
    from .table import ProbeTable, mcnemar_exact, paired_kinds, probe_table, wilson
    from .variants import KINDS, ProbeRow, Variant, make_variant

__all__ = ["KINDS", "Pair", "ProbePlan", "ProbeRow", "ProbeTable", "Variant", "make_variant", "mcnemar_exact",
           "paired_kinds", "parse_kinds", "plan_pairs", "plan_probe", "probe_table", "wilson"]
