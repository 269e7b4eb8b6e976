"""`sumjudge calibrate` end to end with the offline judge: labels from a file or from the viewer, too few
refused with no file, the figures with their intervals, and the file used by `check` and `score`."""

from __future__ import annotations

import json
from pathlib import Path

from cli_invoke import invoke

ROOT = Path(__file__).resolve().parents[2]
FLAWED = {"invented_number", "wrong_name", "half", "empty"}


def _rows(copies: int) -> list[dict]:
    rows = [json.loads(line) for line in (ROOT / "examples" / "summaries.jsonl").read_text(encoding="utf-8").splitlines()]
    return [{**r, "id": f"{r['id']}-{n}"} for n in range(copies) for r in rows]


def _scored(tmp_path: Path, copies: int = 3) -> tuple[str, str, list[dict]]:
    rows = _rows(copies)
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    store = str(tmp_path / "runs.db")
    code, out = invoke("score", str(data), "--model", "offline/lexical", "--store", store, "--quiet")
    assert code == 0, out
    code, out = invoke("runs", "list", "--json", "--store", store)
    return json.loads(out.splitlines()[0])["id"], store, rows


def _labels(tmp_path: Path, rows: list[dict], n: int | None = None) -> Path:
    path = tmp_path / "labels.jsonl"
    chosen = rows if n is None else rows[:n]
    path.write_text("".join(json.dumps({"id": r["id"], "label": "fail" if r["kind"] in FLAWED else "pass"}) + "\n"
                            for r in chosen), encoding="utf-8")
    return path


def test_calibrate_reports_before_and_after_with_intervals_and_writes_a_file_check_and_score_use(tmp_path: Path) -> None:
    run, store, rows = _scored(tmp_path)
    out = tmp_path / "cal.json"
    code, said = invoke("calibrate", run, "--labels", str(_labels(tmp_path, rows)), "--store", store, "--out", str(out))
    assert code == 0, said
    assert "54 labelled items, 18 pass and 36 fail, 5 folds" in said
    for row in ("before (the judge as shipped", "the bound alone fitted", "calibrated ", "calibrated - before"):
        line = next(x for x in said.splitlines() if x.strip().startswith(row))
        assert "[" in line and "]" in line, line  # each figure with its interval
    cal = json.loads(out.read_text(encoding="utf-8"))
    assert cal["judge"] == "offline/lexical" and cal["labels"] == 54 and cal["labels_digest"].startswith("sha256:")
    assert 0 <= cal["bound"] <= 1 and cal["agreement"]["folds"] == 5
    # check holds a summary to the calibration's bound when no --fail-under is given, and says which
    code, said = invoke("check", "--model", "offline/lexical", "--source", rows[0]["source"], "--summary",
                        rows[5]["summary"] or "Nothing.", "--calibration", str(out))
    assert code == 1 and "the calibration's bound" in said, said
    # score with a calibration is another run; a calibration for another judge is one line, exit 2
    data = tmp_path / "data.jsonl"
    code, said = invoke("score", str(data), "--model", "offline/lexical", "--store", store, "--quiet", "--calibration", str(out))
    assert code == 0, said
    code, listed = invoke("runs", "list", "--json", "--store", store)
    assert len(listed.splitlines()) == 2
    code, said = invoke("score", str(data), "--model", "local/smollm2", "--store", store, "--quiet", "--calibration", str(out))
    assert code == 2 and "fitted for the judge 'offline/lexical'" in said and "Traceback" not in said


def test_five_labels_are_too_few_and_no_file_is_written(tmp_path: Path) -> None:
    run, store, rows = _scored(tmp_path, copies=1)
    out = tmp_path / "cal.json"
    code, said = invoke("calibrate", run, "--labels", str(_labels(tmp_path, rows, 5)), "--store", store, "--out", str(out))
    assert code == 2 and "too few labels" in said and "No calibration file was written" in said
    assert not out.exists()


def test_labels_left_in_the_viewer_are_read_from_the_store(tmp_path: Path) -> None:
    from sumjudge.store import RunStore
    from sumjudge.store.labels import LabelBook

    run, store, rows = _scored(tmp_path)
    with RunStore(store) as opened:
        book = LabelBook(opened)
        for r in rows:
            book.rate(run, r["id"], "ana", rating=1 if r["kind"] in FLAWED else 5)
    out = tmp_path / "cal.json"
    code, said = invoke("calibrate", run, "--store", store, "--out", str(out))
    assert code == 0, said
    assert "54 labelled items" in said and "Spearman with the ratings" in said
    assert json.loads(out.read_text(encoding="utf-8"))["labels"] == 54


def test_probe_and_agreement_take_the_calibration_and_refuse_one_for_another_judge(tmp_path: Path) -> None:
    run, store, rows = _scored(tmp_path)
    out = tmp_path / "cal.json"
    assert invoke("calibrate", run, "--labels", str(_labels(tmp_path, rows)), "--store", store, "--out", str(out))[0] == 0
    data = tmp_path / "data.jsonl"
    code, said = invoke("probe", str(data), "--model", "offline/lexical", "--store", store, "--quiet", "--per-kind", "2",
                        "--calibration", str(out), "--json")
    assert code in (0, 1, 3), said
    code, listed = invoke("runs", "list", "--json", "--store", store)
    probe_run = json.loads(listed.splitlines()[0])
    assert probe_run["options"].get("calibration", "").startswith("sha256:"), probe_run
    rated = tmp_path / "rated.jsonl"
    rated.write_text("".join(json.dumps({"id": r["id"], "source": r["source"], "summary": r["summary"] or "x",
                                         "doc_id": r["doc"], "human": 1 if r["kind"] in FLAWED else 5}) + "\n" for r in rows), encoding="utf-8")
    code, said = invoke("agreement", str(rated), "--human-field", "human", "--model", "offline/lexical",
                        "--calibration", str(out), "--json")
    assert code == 0, said
    code, said = invoke("agreement", str(rated), "--human-field", "human", "--model", "local/smollm2",
                        "--calibration", str(out))
    assert code == 2 and "fitted for the judge 'offline/lexical'" in said


def test_labels_that_say_nothing_of_the_verdicts_move_the_bound_only_and_it_says_so(tmp_path: Path) -> None:
    # each summary labelled pass in one copy and fail in the next: no re-decision of the judge's
    # verdicts can beat the bound alone, so none is written
    run, store, rows = _scored(tmp_path, copies=4)
    path = tmp_path / "labels.jsonl"
    path.write_text("".join(json.dumps({"id": r["id"], "label": "pass" if int(r["id"].rsplit("-", 1)[1]) % 2 else "fail"})
                            + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "cal.json"
    code, said = invoke("calibrate", run, "--labels", str(path), "--store", store, "--out", str(out))
    assert code == 0, said
    assert "nothing but the bound (re-deciding the judge's verdicts did not beat the bound alone" in said
    cal = json.loads(out.read_text(encoding="utf-8"))
    assert cal["unchecked_claims"] is None and cal["unsettled_presence"] is None, cal
