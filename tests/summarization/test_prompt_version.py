"""The prompts' version is part of what a run is keyed on: the same command resumes its run while the
prompts stay, and starts a new run when they change (verdicts asked for by other prompts are never mixed)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from sumjudge import create_summarization_scorer
from sumjudge.cli import main
from sumjudge.summarization import prompts


def test_a_new_prompt_version_makes_a_new_run_and_a_new_identity(tmp_path, monkeypatch) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": "The bridge opened in 1932.", "summary": "It opened in 1932."}) + "\n")

    def run_id() -> str:
        res = CliRunner().invoke(main, ["score", str(data), "--model", "offline/lexical", "--store",
                                        str(tmp_path / "runs.db"), "--quiet", "--workers", "1"], catch_exceptions=False)
        assert res.exit_code == 0, res.output
        listed = CliRunner().invoke(main, ["runs", "list", "--json", "--store", str(tmp_path / "runs.db")])
        return json.loads(listed.stdout.splitlines()[0])["id"]

    first = run_id()
    assert run_id() == first  # the same command, the same prompts: the run is resumed
    before = create_summarization_scorer("offline/lexical").identity
    assert before.endswith(f"+prompts={prompts.PROMPT_VERSION}")
    monkeypatch.setattr(prompts, "PROMPT_VERSION", "99")
    assert create_summarization_scorer("offline/lexical").identity != before
    assert run_id() != first
