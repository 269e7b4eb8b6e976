"""Doubt from the command line: corrected rates in `agreement --run`, `runs show` and the viewer's run
page; `compare`'s minimum detectable difference, equivalence margin and abstaining --fail-if-worse."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.store.database import RunStore
from sumjudge.store.labels import LabelBook
from view_store import MODEL, OPTIONS, make_store, record


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def labelled_store(tmp_path: Path, items: int = 40, *, options: dict | None = None) -> tuple[Path, str, str]:
    """Two runs of one judge, ``items`` items each (a supported and an unsupported claim, an answered
    and an unanswered question); every verdict of run A labelled, the judge wrong on every 5th claim 1."""
    path = tmp_path / ".sumjudge" / "runs.db"
    ids = []
    with RunStore(path) as store:
        for opts in (OPTIONS, options or OPTIONS):
            run, _ = store.open_run(model=MODEL, options=opts, data="docs.jsonl", fingerprint="f" * 64,
                                    total_items=items, resume=False)
            for n in range(items):
                store.record_item(run.id, n + 1, record(f"doc-{n}", 0.5))
            store.finish_run(run.id)
            ids.append(run.id)
        book = LabelBook(store)
        for n in range(items):
            item = f"doc-{n}"
            book.mark(ids[0], item, "ann", "claim", 0, text="c0", judge_says=True, correct=True)
            book.mark(ids[0], item, "ann", "claim", 1, text="c1", judge_says=False, correct=n % 5 != 0)
            book.mark(ids[0], item, "ann", "answer", 0, text="q0", judge_says=True, correct=True)
            book.mark(ids[0], item, "ann", "answer", 1, text="q1", judge_says=False, correct=True)
    return path, ids[0], ids[1]


def test_agreement_run_puts_the_corrected_rates_beside_the_raw_ones(tmp_path):
    store, a, _ = labelled_store(tmp_path)
    res = invoke("agreement", "--run", a, "--store", str(store), "--json")
    assert res.exit_code == 0, res.output
    c = json.loads(res.output)["corrected"]
    claims = c["claims"]
    assert c["labels_from"] == a and claims["raw"]["value"] == 0.5  # the judge calls half the claims unsupported
    # people: 32 of the 40 "unsupported" are so, and none of the "supported" is wrong: Se 1, Sp 40/48
    assert (claims["positives"], claims["negatives"]) == (32, 48)
    assert claims["sensitivity"]["value"] == 1.0 and abs(claims["specificity"]["value"] - 40 / 48) < 1e-9
    assert abs(claims["corrected"]["value"] - 0.4) < 1e-9  # (0.5 + 5/6 - 1) / (1 + 5/6 - 1)
    assert claims["corrected"]["ci_low"] < 0.4 < claims["corrected"]["ci_high"]
    # every answer label is right, but only 40 unanswered and 40 answered: enough, and nothing to correct
    assert c["answers"]["corrected"]["value"] == 0.5
    text = invoke("agreement", "--run", a, "--store", str(store)).output
    # plain words first, the method named once with its page
    assert "corrected for the judge's mistakes, from its own labels (the Rogan-Gladen method: docs/doubt.md)" in text
    assert "unsupported claims: the judge calls 50% of 80 claims unsupported" in text
    assert "of the claims the judge calls unsupported, reviewers say about 80% are (32 of 40 labelled)" in text
    assert "so about 40% of the run's claims are unsupported: corrected 0.4" in text
    assert "labelled positives" not in text and text.count("Rogan-Gladen") == 1
    # every claim reviewers call unsupported was caught (32 of 32): Se 1, but its interval is no point
    assert "sensitivity 1.000 (95% interval [0.893, 1.000])" in text and "[1.000, 1.000]" not in text
    assert claims["sensitivity"]["ci_low"] < 0.9 and claims["sensitivity"]["ci_high"] == 1.0


def test_too_few_labels_is_a_plain_line_and_labels_from_another_run_are_named(tmp_path):
    store, a, b = labelled_store(tmp_path, items=20)
    text = invoke("agreement", "--run", a, "--store", str(store)).output
    assert "too few labels to correct the rate of unsupported claims: 16 unsupported and 24 supported" in text
    assert "corrected 0." not in text
    res = invoke("agreement", "--run", b, "--labels-from", a, "--store", str(store))
    assert res.exit_code == 0 and f"from the labels of run {a}" in res.output


def test_labels_from_another_judge_or_options_are_refused(tmp_path):
    store, a, b = labelled_store(tmp_path, options={"max_questions": 3, "scale": 1})
    res = invoke("agreement", "--run", b, "--labels-from", a, "--store", str(store))
    assert res.exit_code == 2 and "labels correct only the same judge and options" in res.output


def test_runs_show_and_the_viewer_run_page_carry_the_corrected_rates(tmp_path):
    store, a, b = labelled_store(tmp_path)
    shown = invoke("runs", "show", a, "--store", str(store)).output
    assert "rates of run" in shown and "corrected 0.4" in shown
    doc = json.loads(invoke("runs", "show", b, "--labels-from", a, "--store", str(store), "--json").output)
    assert doc["corrected"]["labels_from"] == a and abs(doc["corrected"]["claims"]["corrected"]["value"] - 0.4) < 1e-9
    assert "corrected" not in json.loads(invoke("runs", "show", b, "--store", str(store), "--json").output)

    from starlette.testclient import TestClient

    from sumjudge.view.app import ViewSettings, create_app

    with TestClient(create_app(ViewSettings(store=store, data_roots=(tmp_path,)))) as client:
        page = client.get(f"/run/{a}").text
    assert 'class="corrected"' in page and "corrected 0.4" in page
    assert "Rogan-Gladen" in page


# -- compare ---------------------------------------------------------------------------------------


def out_file(path: Path, scores: list[float]) -> str:
    line = {"alignment_score": 1.0, "coverage_score": 1.0, "reason": "r"}
    path.write_text("".join(json.dumps({"id": str(i), "score": s, **line}) + "\n" for i, s in enumerate(scores)))
    return str(path)


def test_compare_reports_the_minimum_detectable_difference_and_splits_no_difference(tmp_path):
    base = [0.5, 0.6, 0.7, 0.8, 0.9, 0.4, 0.6, 0.7, 0.5, 0.8]
    noisy = [s + d for s, d in zip(base, [0.1, -0.1, 0.05, -0.05, 0.0, 0.1, -0.1, 0.05, -0.05, 0.0])]
    a, b = out_file(tmp_path / "a.jsonl", base), out_file(tmp_path / "b.jsonl", noisy)
    store = ["--store", str(tmp_path / "runs.db")]
    doc = json.loads(invoke("compare", a, b, "--json", *store).output)
    assert doc["verdict"] == "inconclusive" and doc["mdd"] > 0.05  # 10 items cannot see a 0.05 change
    assert doc["detect"] == 0.05 and doc["items_needed"] > 10
    assert json.loads(invoke("compare", a, b, "--json", "--margin", "0.2", *store).output)["verdict"] == "equivalent"
    need = json.loads(invoke("compare", a, b, "--json", "--detect", "0.01", *store).output)["items_needed"]
    assert need > doc["items_needed"]  # a smaller difference needs more items
    text = invoke("compare", a, b, *store).output
    assert "minimum detectable difference (score, paired, 80% power, 5% level)" in text
    assert f"would need about {doc['items_needed']} paired items" in text
    # the gate: too few items to tell whether B lost more than the margin: exit 3, and what would settle it
    res = invoke("compare", a, b, "--fail-if-worse", *store)
    assert res.exit_code == 3 and "gate inconclusive" in res.output and "more paired items" in res.output
    assert invoke("compare", a, b, "--fail-if-worse", "--on-inconclusive", "pass", *store).exit_code == 0
    assert invoke("compare", a, b, "--fail-if-worse", "--on-inconclusive", "fail", *store).exit_code == 1
    assert invoke("compare", a, b, "--fail-if-worse", "--margin", "0.2", *store).exit_code == 0
    same = out_file(tmp_path / "c.jsonl", base)
    assert invoke("compare", a, same, "--fail-if-worse", *store).exit_code == 0  # identical: equivalent at +-0
    worse = out_file(tmp_path / "w.jsonl", [s - 0.2 for s in base])
    res = invoke("compare", a, worse, "--fail-if-worse", *store)
    assert res.exit_code == 1 and "is worse than A" in res.output


# -- assert_summary's bounds -------------------------------------------------------------------------


def test_assert_summary_bounds_one_evaluation_as_it_is_and_samples_by_their_interval():
    import pytest

    from sumjudge.integrations.assertions import Bound, SummaryInconclusive, sample_interval

    assert Bound("score", 0.6, 0.5).outcome == "pass" and Bound("score", 0.4, 0.5).outcome == "fail"
    crossing = sample_interval([0.4, 0.6, 0.7])  # mean 0.567, the t interval reaches well below 0.5
    assert crossing is not None and crossing[0] < 0.5 < crossing[1]
    b = Bound("score", 0.57, 0.5, interval=crossing, samples=3)
    assert b.outcome == "inconclusive" and "INCONCLUSIVE" in b.line() and "more samples" in b.line()
    assert Bound("score", 0.57, 0.5, interval=crossing, samples=3, on_inconclusive="fail").outcome == "fail"
    assert Bound("score", 0.9, 0.5, interval=sample_interval([0.88, 0.9, 0.92]), samples=3).outcome == "pass"
    assert issubclass(SummaryInconclusive, AssertionError)  # a test that meets one does not pass
    with pytest.raises(ValueError, match="on_inconclusive"):
        from sumjudge.integrations.assertions import assert_summary

        assert_summary("Source.", "Summary.", model="offline/lexical", on_inconclusive="maybe")


# -- score: the inconclusive outcome end to end ------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "summaries.jsonl"


def test_an_inconclusive_run_exits_3_says_what_would_settle_it_and_reports_it(tmp_path, monkeypatch):
    import xml.etree.ElementTree as ET

    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    base = ["score", str(EXAMPLES), "--model", "offline/lexical", "--store", str(tmp_path / "runs.db"), "-q"]
    res = invoke(*base, "--fail-under", "0.6", "--junit", str(tmp_path / "j.xml"))  # mean 0.676 in [0.485, 0.813]
    assert res.exit_code == 3, res.output
    assert "gate inconclusive: the interval of mean score 0.676, 95% interval [0.485, 0.813] crosses 0.6" in res.output
    assert "more items (174 in all) would decide a 0.076 difference" in res.output
    gates = ET.parse(tmp_path / "j.xml").getroot().findall("testsuite")[1]
    assert gates.get("skipped") == "1" and gates.find("testcase").find("skipped") is not None
    assert "❔ inconclusive" in summary.read_text(encoding="utf-8")
    assert invoke(*base, "--fail-under", "0.6", "--on-inconclusive", "fail").exit_code == 1
    assert invoke(*base, "--fail-under", "0.6", "--on-inconclusive", "pass").exit_code == 0
    assert invoke(*base, "--fail-under", "0.6", "--gate", "mean").exit_code == 0  # the old rule: the mean clears it
    assert invoke(*base, "--fail-under", "0.9").exit_code == 1  # the whole interval is below


def test_the_report_of_a_labelled_run_carries_its_corrected_rates(tmp_path):
    db = tmp_path / "runs.db"
    base = ["score", str(EXAMPLES), "--model", "offline/lexical", "--store", str(db), "-q"]
    assert invoke(*base).exit_code == 0
    with RunStore(db) as store:
        run = store.get_run("latest")
        item = next(i for i in store.iter_items(run.id) if i.status == "ok" and i.outcome.verdicts.alignment)
        claim = item.outcome.verdicts.alignment[0]
        LabelBook(store).mark(run.id, item.item_id, "ann", "claim", 0, text=claim.claim,
                              judge_says=claim.supported, correct=True)
    page = tmp_path / "r.html"
    assert invoke(*base, "--report", str(page)).exit_code == 0  # the same command: the finished run, its report
    html = page.read_text(encoding="utf-8")
    assert "unsupported claims, raw" in html and "unsupported claims, corrected" in html
    assert "too few labels to correct the rate of unsupported claims" in html
