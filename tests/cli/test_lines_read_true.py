"""Every line says what is true. `compare` of two runs of a deterministic judge
does not warn that empty summaries (which are asked no questions) were "asked other questions", and
says a warning once; `estimate` for the offline judge says it costs nothing and skips the rest."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from sumjudge.cli import main

EXAMPLES = str(Path(__file__).resolve().parents[2] / "examples" / "summaries.jsonl")


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_compare_counts_only_items_asked_questions_and_warns_once(tmp_path: Path) -> None:
    for name in ("a", "b"):
        done = _run("score", EXAMPLES, "--model", "offline/lexical", "--store", str(tmp_path / f"{name}.db"),
                    "--out", str(tmp_path / f"{name}.jsonl"), "-q")
        assert done.exit_code == 0, done.output
    done = _run("compare", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"))
    assert done.exit_code == 0, done.output
    said = done.stdout + done.stderr
    assert "asked other questions" not in said and "warning" not in said
    # 18 items, 3 of them empty summaries: 15 were asked questions, the same in both runs
    assert "the runs asked the same coverage questions of all 15 paired items" in done.stdout


def test_a_warning_of_compare_is_said_once(tmp_path: Path) -> None:
    import json

    done = _run("score", EXAMPLES, "--model", "offline/lexical", "--store", str(tmp_path / "a.db"),
                "--out", str(tmp_path / "a.jsonl"), "-q")
    assert done.exit_code == 0, done.output
    lines = [json.loads(x) for x in (tmp_path / "a.jsonl").read_text().splitlines()]
    changed = 0
    for line in lines:
        v = line["verdicts"]
        if v.get("questions") and changed < 5:  # five items asked other questions in B
            v["questions"] = [f"other {q}" for q in v["questions"]]
            changed += 1
    (tmp_path / "b.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    done = _run("compare", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"))
    said = done.stdout + done.stderr
    assert said.count("5 of 15 paired items were asked other questions") == 1, said
    assert "sumjudge: warning: the runs did not sit the same exam" in done.stderr


def test_a_resumed_run_says_which_run_and_what_it_kept_and_every_out_write_is_confirmed(tmp_path: Path) -> None:
    """`score --out base.jsonl` resumed an earlier run and never said it wrote
    base.jsonl; with -q nothing at all was said."""
    store, out = str(tmp_path / "runs.db"), str(tmp_path / "base.jsonl")
    first = _run("score", EXAMPLES, "--model", "offline/lexical", "--store", store, "--out", out)
    assert first.exit_code == 0, first.output
    assert "sumjudge: wrote 18 items of run " in first.stderr and f"to {out}" in first.stderr
    run_id = first.stderr.split("wrote 18 items of run ")[1].split()[0]
    for quiet in ([], ["-q"]):
        again = _run("score", EXAMPLES, "--model", "offline/lexical", "--store", store, "--out", out, *quiet)
        assert again.exit_code == 0, again.output
        said = again.stderr
        assert f"sumjudge: resuming run {run_id} (started " in said, (quiet, said)
        assert "judge offline/lexical): 18 of 18 items already finished, kept; --fresh to score them all again" in said
        assert f"sumjudge: wrote 18 items of run {run_id} to {out}" in said


def test_a_missing_key_tells_a_shell_user_the_shell_line(tmp_path: Path, monkeypatch) -> None:
    """A missing API key suggested `ModelConfig(api_key=...)` to a shell user."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    done = _run("check", "--source", "The bridge opened in 1932.", "--summary", "It opened in 1932.",
                "--model", "openai/gpt-4o-mini")
    assert done.exit_code == 2
    said = done.output + done.stderr
    assert "export OPENAI_API_KEY=..." in said and said.index("export OPENAI_API_KEY") < said.index("ModelConfig")
