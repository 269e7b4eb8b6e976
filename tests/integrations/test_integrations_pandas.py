"""DataFrames and Hugging Face datasets in, one result row per item out (score_frame, run_evals, to_pandas)."""

from __future__ import annotations

import sys

import pytest
from scripted import answers, claims, judge, questions

from sumjudge import create_summarization_scorer, run_evals_sync
from sumjudge.errors import InputError, JudgeUnavailableError, MissingDependencyError
from sumjudge.data.tables import ROW_COLUMNS

pd = pytest.importorskip("pandas")
from sumjudge.integrations.pandas import score_frame  # noqa: E402


def scripted(**kw: object):
    """Claims: one per sentence of the summary, unsupported when it says 'wrong'; 'boom' fails the judge."""

    def align(request):
        summary = request.inputs.summary or ""
        if "boom" in summary:
            raise JudgeUnavailableError("the judge kept failing", step="alignment")
        return claims(*((s, "wrong" not in s) for s in summary.split(". ") if s))

    return judge(align, questions("Q1?", "Q2?"), answers(True, False), **kw)


def frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "doc": ["the source one", "the source two", "the source one"],
            "text": ["a fact. another fact", "a wrong fact", "one fact"],
            "key": ["a", "b", "c"],
        },
        index=["x", "y", "z"],
    )


def test_score_frame_one_row_per_item_with_the_frames_index_and_nested_verdicts() -> None:
    j = scripted()
    scorer = create_summarization_scorer(model=j)
    df = frame()
    out = score_frame(df, scorer, source_col="doc", summary_col="text", id_col="key")

    assert list(out.columns) == list(ROW_COLUMNS)
    assert list(out.index) == ["x", "y", "z"]
    assert list(out["id"]) == ["a", "b", "c"]
    # coverage: 1 of 2 questions answered; alignment: 1, 0, 1
    assert list(out["score"]) == [0.5, 0.0, 0.5]
    assert list(out["alignment_score"]) == [1.0, 0.0, 1.0]
    assert list(out["coverage_score"]) == [0.5, 0.5, 0.5]
    assert list(out["claim_count"]) == [2, 1, 1]
    assert list(out["supported_count"]) == [2, 0, 1]
    assert list(out["question_count"]) == [2, 2, 2]
    assert list(out["answered_count"]) == [1, 1, 1]
    assert out.loc["y", "alignment"] == [{"claim": "a wrong fact", "quote": "", "supported": False,
                                          "reason": "not in the source", "quote_offsets": None, "verified": True}]
    assert out.loc["x", "questions"] == ["Q1?", "Q2?"]
    assert [v["answered"] for v in out.loc["x", "coverage"]] == [True, False]
    assert out["error"].isna().all()
    assert (out["calls"] >= 2).all() and (out["total_tokens"] == out["prompt_tokens"] + out["completion_tokens"]).all()
    assert "alignment" in out.loc["y", "reason"]
    # the questions of "the source one" were asked once for its two summaries
    assert len(j.calls("questions")) == 2
    joined = df.join(out[["score"]])
    assert list(joined["score"]) == [0.5, 0.0, 0.5]


def test_ids_default_to_the_id_column_else_the_row_number() -> None:
    scorer = create_summarization_scorer(model=scripted())
    df = pd.DataFrame({"source": ["s", "s"], "summary": ["a fact", "b fact"]})
    assert list(score_frame(df, scorer)["id"]) == ["1", "2"]
    df["id"] = [10, 20]
    assert list(score_frame(df, scorer)["id"]) == ["10", "20"]


def test_missing_column_fails_before_the_first_call_naming_it() -> None:
    j = scripted()
    scorer = create_summarization_scorer(model=j)
    with pytest.raises(InputError, match=r"no column 'summary'.*'doc', 'text', 'key'"):
        score_frame(frame(), scorer, source_col="doc")
    with pytest.raises(InputError, match="no column 'uid'"):
        score_frame(frame(), scorer, source_col="doc", summary_col="text", id_col="uid")
    assert j.requests == []


@pytest.mark.parametrize(
    ("bad", "shown"),
    [(float("nan"), "a missing value"), (None, "a missing value"), (3, "a number"), (["a"], "list")],
)
def test_a_non_text_cell_fails_before_the_first_call_naming_column_and_row(bad: object, shown: str) -> None:
    j = scripted()
    scorer = create_summarization_scorer(model=j)
    df = frame()
    df["text"] = df["text"].astype(object)
    df.at["z", "text"] = bad
    with pytest.raises(InputError, match=rf"DataFrame row 3 \(index 'z'\): column 'text' must be text, got {shown}"):
        score_frame(df, scorer, source_col="doc", summary_col="text")
    assert j.requests == []


def test_duplicate_ids_fail_before_the_first_call() -> None:
    j = scripted()
    df = frame().reset_index(drop=True)
    df["key"] = ["a", "b", "a"]
    with pytest.raises(InputError, match=r"row 3: duplicate id 'a' in column 'key'"):
        score_frame(df, create_summarization_scorer(model=j), source_col="doc", summary_col="text", id_col="key")
    assert j.requests == []


def test_an_item_whose_judge_fails_is_recorded_and_the_others_go_on() -> None:
    scorer = create_summarization_scorer(model=scripted())
    df = pd.DataFrame({"source": ["s1", "s2", "s3"], "summary": ["a fact", "boom", "c fact"]})
    out = score_frame(df, scorer)
    assert list(out["score"].isna()) == [False, True, False]
    assert "JudgeUnavailableError" in out.loc[1, "error"] and "the judge kept failing" in out.loc[1, "error"]
    assert out.loc[1, "alignment"] is None and pd.isna(out.loc[1, "claim_count"])
    assert out.loc[0, "score"] == 0.5


def test_run_evals_takes_a_dataframe_and_to_pandas_gives_one_row_per_item() -> None:
    scorer = create_summarization_scorer(model=scripted())
    df = pd.DataFrame({"input": ["s1", "s2"], "output": ["a fact", "a wrong fact"], "id": ["u", "v"]})
    result = run_evals_sync(df, [scorer])
    assert result.summary.total_items == 2
    assert result.scores[scorer.id] == pytest.approx(0.25)
    out = result.to_pandas()
    assert list(out["id"]) == ["u", "v"] and list(out["score"]) == [0.5, 0.0]
    assert list(out.columns) == list(ROW_COLUMNS)


def test_run_evals_checks_a_dataframes_columns_and_cells_before_the_first_call() -> None:
    j = scripted()
    scorer = create_summarization_scorer(model=j)
    with pytest.raises(InputError, match="DataFrame: no column 'output'"):
        run_evals_sync(pd.DataFrame({"input": ["s"]}), [scorer])
    with pytest.raises(InputError, match=r"DataFrame row 2: column 'output' must be text or messages, got a missing value"):
        run_evals_sync(pd.DataFrame({"input": ["s", "t"], "output": ["a", None]}), [scorer])
    # with a target, only 'input' is needed
    result = run_evals_sync(pd.DataFrame({"input": ["s"]}), [scorer], target=lambda doc: "a fact")
    assert result.items[0].output == "a fact"
    assert len(j.calls("alignment")) == 1


def test_to_pandas_without_pandas_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run_evals_sync([{"input": "s", "output": "a fact"}], [create_summarization_scorer(model=scripted())])
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(MissingDependencyError, match=r"pip install 'sumjudge\[pandas\]'"):
        result.to_pandas()


def test_hugging_face_dataset_in_score_frame_and_run_evals() -> None:
    datasets = pytest.importorskip("datasets")
    scorer = create_summarization_scorer(model=scripted())
    ds = datasets.Dataset.from_dict({"source": ["s1", "s2"], "summary": ["a fact", "a wrong fact"], "id": ["p", "q"]})
    out = score_frame(ds, scorer)
    assert list(out["id"]) == ["p", "q"] and list(out["score"]) == [0.5, 0.0]
    assert list(out.index) == [0, 1]
    bad = datasets.Dataset.from_dict({"source": ["s1", "s2"], "summary": ["a fact", None]})
    with pytest.raises(InputError, match=r"Dataset row 2: column 'summary' must be text, got a missing value"):
        score_frame(bad, scorer)
    items = datasets.Dataset.from_dict({"input": ["s1"], "output": ["a fact"]})
    assert run_evals_sync(items, [scorer]).scores[scorer.id] == 0.5
