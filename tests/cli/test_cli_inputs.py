"""Reading the rows of `sumjudge score`: formats, streaming, ids, fingerprints, and errors that name the row."""

from __future__ import annotations

import csv
import io
import json

import pytest

from sumjudge.data.datasets import Dataset, Fields
from sumjudge.data.jsonl import json_array_records as _json_array_records
from sumjudge.errors import InputError

ROWS = [
    {"id": "a", "source": 'Quotes " and ] and }, inside', "summary": "émoji 🎉 and\nnewlines"},
    {"id": 7, "source": "s2", "summary": ""},
    {"source": "s3", "summary": "no id"},
]


def write_all_formats(tmp_path):
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    arr = tmp_path / "d.json"
    arr.write_text(json.dumps(ROWS, indent=2), encoding="utf-8")
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["id", "source", "summary"])
    for r in ROWS:
        w.writerow([r.get("id", ""), r["source"], r["summary"]])
    csv_path = tmp_path / "d.csv"
    csv_path.write_text(buf.getvalue(), encoding="utf-8")
    return jsonl, arr, csv_path


def test_every_format_gives_the_same_rows_and_fingerprint(tmp_path):
    infos, all_rows = [], []
    for path in write_all_formats(tmp_path):
        with Dataset(path) as ds:
            infos.append(ds.validate())
            all_rows.append([(r.number, r.id, r.source, r.summary) for r in ds.rows()])
    assert all_rows[0] == all_rows[1] == all_rows[2]
    assert [r[1] for r in all_rows[0]] == ["a", "7", "3"]  # no id: the row number
    assert len({i.fingerprint for i in infos}) == 1 and infos[0].count == 3


def test_a_change_in_any_text_changes_the_fingerprint(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"source": "s", "summary": "a"}) + "\n")
    first = Dataset(path).validate().fingerprint
    path.write_text(json.dumps({"source": "s", "summary": "b"}) + "\n")
    assert Dataset(path).validate().fingerprint != first
    # Field boundaries count: ("ab", "c") is not ("a", "bc").
    path.write_text(json.dumps({"source": "ab", "summary": "c"}) + "\n")
    one = Dataset(path).validate().fingerprint
    path.write_text(json.dumps({"source": "a", "summary": "bc"}) + "\n")
    assert Dataset(path).validate().fingerprint != one


def test_json_arrays_are_streamed_across_any_chunk_boundary(tmp_path):
    path = tmp_path / "d.json"
    rows = [{"source": "x" * i + ']"}{,', "summary": str(i), "n": 1.5e3} for i in range(40)]
    path.write_text(json.dumps(rows), encoding="utf-8")
    for chunk in (1, 2, 7, 64, 1 << 16):
        assert [r for _, _, r in _json_array_records(path, "d", chunk_size=chunk)] == rows


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[", "not closed"),
        ('[{"source": "s", "summary": "a"},]', "row 2: not valid JSON"),
        ('[{"source": "s", "summary": "a"} {"source": "s"}]', "after row 1: expected ',' or ']'"),
        ('[{"source": "s", "summary": "a"}] trailing', "after the closing ']'"),
        ('{"source": "s", "summary": "a"}', "not a JSON array"),
        ("[]", "no rows to score"),
    ],
)
def test_broken_json_arrays_are_named(tmp_path, text, message):
    path = tmp_path / "d.json"
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        Dataset(path).validate()


def test_csv_rows_with_too_many_values_and_a_bom(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("\ufeffsource,summary\ns,a\ns,b,extra\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"row 2: 3 values for 2 columns"):
        Dataset(path).validate()
    path.write_text("\ufeffsource,summary\ns,a\n", encoding="utf-8")
    assert Dataset(path).validate().count == 1  # the BOM is not part of the first column's name


def test_ids_must_be_strings_or_integers(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"id": True, "source": "s", "summary": "a"}) + "\n")
    with pytest.raises(InputError, match="row 1: field 'id' must be a string or an integer, got a boolean"):
        Dataset(path).validate()


def test_standard_input_is_sniffed_and_read_twice(tmp_path):
    payload = json.dumps(ROWS).encode()
    with Dataset("-", stdin=io.BytesIO(payload)) as ds:
        assert ds.format == "json"
        assert ds.validate().count == 3
        assert [r.id for r in ds.rows()] == ["a", "7", "3"]
        spool = ds._spool
        assert spool is not None and spool.exists()
    assert not spool.exists()  # the spooled copy is removed
    with Dataset("-", stdin=io.BytesIO(b"document,text\nd,t\n"), fields=Fields(source="document", summary="text")) as ds:
        assert ds.format == "csv" and [r.summary for r in ds.rows()] == ["t"]


def test_unknown_extension_and_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such input file"):
        Dataset(tmp_path / "nope.jsonl")
    odd = tmp_path / "d.txt"
    odd.write_text("x")
    with pytest.raises(InputError, match="--format"):
        Dataset(odd)
    assert Dataset(odd, format="jsonl").format == "jsonl"


SOURCE_TEXT = "The café in Zürich opened in 1932. It served 120 guests a day. Its owner was Ada Lind."
SUMMARY_TEXT = "The café in Zürich opened in 1932 and served 120 guests a day."


def _offline_score(source: str, summary: str) -> float:
    from sumjudge import create_summarization_scorer

    return create_summarization_scorer("offline/lexical").run_sync(input=source, output=summary).score


def test_a_source_in_nfd_scores_as_the_same_text_in_nfc(tmp_path):
    import unicodedata

    nfd = unicodedata.normalize("NFD", SOURCE_TEXT)
    assert nfd != SOURCE_TEXT
    assert _offline_score(nfd, SUMMARY_TEXT) == _offline_score(SOURCE_TEXT, SUMMARY_TEXT) > 0.5
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"id": "a", "source": nfd, "summary": SUMMARY_TEXT}) + "\n", encoding="utf-8")
    with Dataset(path) as ds:
        (row,) = list(ds.rows())
    assert row.source == SOURCE_TEXT  # read once, as NFC


def test_an_html_page_or_a_markdown_table_is_read_as_its_text(tmp_path):
    from sumjudge.data.text_in import as_read

    page = ("<html><head><title>News</title><style>p {color: red}</style></head><body>"
            + "".join(f"<p>{s}.</p>" for s in SOURCE_TEXT.rstrip(".").split(". ")) + "</body></html>")
    assert as_read(page) == SOURCE_TEXT.replace(". ", ".\n")  # the head (title, style) is not the text
    assert _offline_score(page, SUMMARY_TEXT) == _offline_score(as_read(page), SUMMARY_TEXT) > 0.5
    table = "| Town | Homes | Year |\n|------|------:|------|\n| Lund | 120 | 2024 |\n| Mora | 80 | 2025 |"
    assert as_read(table) == "Town, Homes, Year.\nLund, 120, 2024.\nMora, 80, 2025."
    assert as_read(as_read(page)) == as_read(page) and as_read("x < y and <b>bold</b> | z") == "x < y and <b>bold</b> | z"
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"id": "a", "source": page, "summary": SUMMARY_TEXT}) + "\n", encoding="utf-8")
    with Dataset(path) as ds:
        (row,) = list(ds.rows())
    assert "<p>" not in row.source and "color" not in row.source


def test_a_ligature_or_fullwidth_letter_reads_as_its_letters_but_a_superscript_keeps_its_number():
    from sumjudge import create_summarization_scorer
    from sumjudge.data.text_in import as_read

    assert as_read("The ﬁrm hired ＡＤＡ\u00a0Lind.") == "The firm hired ADA Lind."
    assert as_read("An area of 10² m and ½ of it.") == "An area of 10² m and ½ of it."
    result = create_summarization_scorer("offline/lexical").run_sync(
        input="The ﬁrm opened a plant in 1932.", output="The firm opened a plant in 1932.")
    (claim,) = result.preprocess_step_result.alignment
    assert claim.supported and not claim.unchecked


def test_a_lone_surrogate_given_to_the_scorer_is_one_clear_input_error():
    from sumjudge import create_summarization_scorer

    scorer = create_summarization_scorer("offline/lexical")
    for source, summary in (("The bridge opened in 1932 \ud800.", "The bridge opened."),
                            ("The bridge opened in 1932.", "The bridge \udfff opened.")):
        with pytest.raises(InputError, match=r"lone surrogate \(U\+D[8F]"):
            scorer.run_sync(input=source, output=summary)
