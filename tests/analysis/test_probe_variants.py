"""The probe's variants: each differs from its original exactly in its recorded span, controls change
no number, name or negation, the same seed makes the same variants, and unsafe kinds are skipped."""

from __future__ import annotations

import re

import pytest

from probe_rows import ROWS
from sumjudge.analysis.probe.selection import Pair, make_variant, parse_kinds, plan_pairs, plan_probe
from sumjudge.analysis.probe.variants import CONTROL_KINDS, KINDS
from sumjudge.errors import InputError

PLAN = plan_probe(ROWS, seed=0)
BY_ID = {r.id: r for r in ROWS}


def test_every_kind_is_made_for_some_row():
    made = {v.kind for v in PLAN.variants}
    assert made == set(KINDS)


@pytest.mark.parametrize("variant", PLAN.variants, ids=lambda v: v.id)
def test_a_variant_differs_from_its_original_exactly_in_its_span(variant):
    original = BY_ID[variant.row_id].summary
    (a0, a1), (b0, b1) = variant.original_span, variant.variant_span
    assert original[:a0] == variant.summary[:b0]
    assert original[a1:] == variant.summary[b1:]
    assert len(original) - a1 == len(variant.summary) - b1
    if variant.kind == "rescore":
        assert variant.summary == original and (a0, a1) == (b0, b1) == (0, 0)
    else:
        assert original[a0:a1] != variant.summary[b0:b1]
        assert variant.summary != original


def _facts(text: str) -> tuple[list[str], list[str], list[str]]:
    figures = sorted(re.findall(r"\d+", text))
    names = sorted(w for w in re.findall(r"\w+", text) if w[:1].isupper())
    negations = sorted(w for w in re.findall(r"[\w']+", text.lower()) if w in ("not", "no", "never") or w.endswith("n't"))
    return figures, names, negations


@pytest.mark.parametrize("variant", [v for v in PLAN.variants if v.kind in CONTROL_KINDS], ids=lambda v: v.id)
def test_a_control_changes_no_number_name_or_negation(variant):
    assert _facts(variant.summary) == _facts(BY_ID[variant.row_id].summary)


def test_the_same_seed_makes_the_same_variants_and_another_seed_may_not():
    assert plan_probe(ROWS, seed=0) == PLAN
    assert plan_probe(list(reversed(ROWS)), seed=0).variants != [] # order of rows does not matter per row:
    again = {v.id: v for v in plan_probe(list(reversed(ROWS)), seed=0).variants}
    assert all(again[v.id] == v for v in PLAN.variants if v.kind != "added_claim")
    other = plan_probe(ROWS, seed=1)
    assert [v.summary for v in other.variants] != [v.summary for v in PLAN.variants]


def test_alignment_changes_are_what_their_kind_says():
    number = make_variant("number", BY_ID["harbour"], [], seed=0)
    assert number is not None and "14" not in number.summary[number.variant_span[0]:number.variant_span[1]]
    assert "2027" in number.summary  # a year is a date, not a number
    date = make_variant("date", BY_ID["harbour"], [], seed=0)
    assert date is not None
    changed = date.summary[date.variant_span[0]:date.variant_span[1]]
    assert changed not in BY_ID["harbour"].source
    swap = make_variant("role_swap", BY_ID["final"], [], seed=0)
    assert swap is not None and swap.summary.startswith("Chile beat Brazil")
    negation = make_variant("negation", BY_ID["harbour"], [], seed=0)
    assert negation is not None and " not" in negation.summary
    new_name = make_variant("name_new", BY_ID["study"], [], seed=0)
    assert new_name is not None
    inserted = new_name.summary[new_name.variant_span[0]:new_name.variant_span[1]]
    assert inserted not in BY_ID["study"].source


def test_figures_and_years_in_another_script_stay_in_that_script():
    row = BY_ID["arabic"]
    number = make_variant("number", row, [], seed=3)
    date = make_variant("date", row, [], seed=3)
    assert number is not None and date is not None
    for v in (number, date):
        new = v.summary[v.variant_span[0]:v.variant_span[1]]
        assert new and all("\u0660" <= c <= "\u0669" for c in new), new
    assert "٢٠٢١" in number.summary and "٢٠٢١" not in date.summary
    assert make_variant("added_claim", row, [r.source for r in ROWS if r is not row], seed=0) is None  # no English appended


def test_a_kind_that_cannot_be_made_safely_is_not_applicable():
    plain = BY_ID["plain"]
    for kind in ("number", "date", "name_swap", "name_new", "role_swap", "reorder", "dropped_fact"):
        assert make_variant(kind, plain, [], seed=0) is None, kind
    assert PLAN.applicable["role_swap"] < len(ROWS)


def test_per_kind_caps_the_variants_and_keeps_only_the_originals_needed():
    capped = plan_probe(ROWS, seed=0, per_kind=1)
    kinds = [v.kind for v in capped.variants]
    assert all(kinds.count(k) == 1 for k in set(kinds))
    assert {r.id for r in capped.originals} == {v.row_id for v in capped.variants}
    assert capped.applicable == PLAN.applicable
    assert capped.evaluations == len(capped.originals) + len(capped.variants)


def test_unknown_kinds_are_refused():
    with pytest.raises(InputError, match="unknown probe kind"):
        parse_kinds("number,colour")
    assert parse_kinds("date, number") == ["date", "number"]


def test_pairs_share_their_original_and_record_the_edit_as_a_span():
    src, ref = "A source.", "Keefe posed on May 29, 1943 for the cover."
    pairs = [
        Pair(id="1", source=src, reference=ref, edited="Keefe posed on June 14, 1946 for the cover.", error_type="Circ"),
        Pair(id="2", source=src, reference=ref, edited="Rockwell posed on May 29, 1943 for the cover.", error_type="Entity"),
    ]
    plan = plan_pairs(pairs)
    assert len(plan.originals) == 1 and [v.id for v in plan.variants] == ["1/Circ/0", "1/Entity/0"]
    v = plan.variants[0]
    assert ref[: v.original_span[0]] == v.summary[: v.variant_span[0]]
    assert ref[v.original_span[1]:] == v.summary[v.variant_span[1]:]
    assert v.summary[v.variant_span[0]:v.variant_span[1]].startswith("June")
