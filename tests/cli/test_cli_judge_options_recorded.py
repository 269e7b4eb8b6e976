"""A judge's options are recorded with the run: ``runs show`` says them, and ``compare`` (with
``--fail-if-worse`` too) refuses two runs made under other ones, exit 2, as it refuses other judges: a
threshold of 0.5 against 0.95 gave 0.75 against 0.00 for the same summaries, compared as a system change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sumjudge.testing.brains import SummarizationBrain
from sumjudge.testing.judge_server import JudgeServer

from cli_invoke import invoke

pytestmark = pytest.mark.integration


def data(tmp_path: Path) -> Path:
    path = tmp_path / "d.jsonl"
    rows = [{"id": f"d{i}", "source": f"The council of Town{i} approved {100 + i} homes on Monday.",
             "summary": f"The council of Town{i} approved {100 + i} homes."} for i in range(4)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_runs_under_other_judge_options_are_recorded_shown_and_never_compared(tmp_path: Path) -> None:
    store, d = str(tmp_path / "runs.db"), data(tmp_path)
    with JudgeServer(SummarizationBrain(questions=1)) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}
        runs = []
        for extra in ((), ("--judge-option", "temperature=0.5")):
            out = tmp_path / f"out{len(runs)}.jsonl"
            code, text = invoke("score", str(d), "--model", "openai/test-model", "--store", store, "--quiet",
                                "--out", str(out), *extra, env=env)
            assert code == 0, text
            runs.append(json.loads(out.read_text().splitlines()[0]))
    plain, tuned = runs
    assert "judge_options" not in plain["options"] and tuned["options"]["judge_options"] == {"temperature": 0.5}
    code, listed = invoke("runs", "list", "--json", "--store", store)
    latest = json.loads(listed.splitlines()[0])["id"]
    code, shown = invoke("runs", "show", latest, "--store", store)
    assert code == 0 and '"judge_options": {"temperature": 0.5}' in shown
    for args in (("compare", str(tmp_path / "out0.jsonl"), str(tmp_path / "out1.jsonl")),
                 ("compare", str(tmp_path / "out0.jsonl"), str(tmp_path / "out1.jsonl"), "--fail-if-worse")):
        code, text = invoke(*args, "--store", store)
        assert code == 2 and "different judge options" in text and "temperature=0.5" in text, text


def test_runs_answered_by_another_model_behind_the_same_name_are_never_compared(tmp_path: Path) -> None:
    store, d = str(tmp_path / "runs.db"), data(tmp_path)
    outs = []
    for served in ("qwen2.5-1.5b-q4.gguf", "qwen2.5-7b-q4.gguf"):  # another file loaded under the same name
        with JudgeServer(SummarizationBrain(questions=1), serves=served) as server:
            env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k"}
            out = tmp_path / f"{served}.jsonl"
            code, text = invoke("score", str(d), "--model", "openai/test-model", "--store", store, "--quiet", "--fresh",
                                "--out", str(out), env=env)
            assert code == 0, text
            assert json.loads(out.read_text().splitlines()[0])["usage"]["served_models"] == [served]
            outs.append(out)
    code, listed = invoke("runs", "list", "--json", "--store", store)
    b, a = (json.loads(line)["id"] for line in listed.splitlines()[:2])
    for args in (("compare", a, b), ("compare", str(outs[0]), str(outs[1]), "--fail-if-worse")):
        code, text = invoke(*args, "--store", store)
        assert code == 2 and "different models behind the judge name" in text and "qwen2.5-7b-q4.gguf" in text, text
