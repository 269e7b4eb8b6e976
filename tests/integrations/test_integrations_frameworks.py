"""What the four framework adapters promise beyond their frameworks' own tests: ``import sumjudge``
(and importing the adapters' modules) imports no framework; without a framework, the first use names
the line to run; each extra brings its framework alone; docs/integrations.md's examples run as written."""

from __future__ import annotations

import importlib.metadata as md
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from framework_cases import fresh_mlflow, mlflow_template, no_network  # noqa: F401 - fixtures
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "integrations.md"
FRAMEWORKS = {  # extra -> (distribution, top-level module, adapter module, first use)
    "mlflow": ("mlflow", "mlflow", "sumjudge.integrations.mlflow", "summarization_scorer()"),
    "pydantic-evals": ("pydantic-evals", "pydantic_evals", "sumjudge.integrations.pydantic_evals",
                       "summarization_evaluator()"),
    "inspect": ("inspect-ai", "inspect_ai", "sumjudge.integrations.inspect_ai", "summarization_scorer()"),
    "deepeval": ("deepeval", "deepeval", "sumjudge.integrations.deepeval", "summarization_metric()"),
}


def python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)


def test_importing_sumjudge_and_the_adapters_imports_no_framework() -> None:
    adapters = "; ".join(f"import {adapter}" for _, _, adapter, _ in FRAMEWORKS.values())
    tops = [top for _, top, _, _ in FRAMEWORKS.values()]
    done = python(f"import sys, json; import sumjudge; {adapters}; "
                  f"print(json.dumps([m for m in {tops!r} if m in sys.modules]))")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []


@pytest.mark.parametrize("extra", sorted(FRAMEWORKS))
def test_without_the_framework_the_first_use_names_the_line_to_run(extra: str) -> None:
    _, top, adapter, call = FRAMEWORKS[extra]
    done = python(f"import sys; sys.modules[{top!r}] = None\n"  # as if it were not installed
                  f"from sumjudge.errors import MissingDependencyError\nimport {adapter} as a\n"
                  f"try:\n    a.{call}\nexcept MissingDependencyError as e:\n    print(e.install)\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == f"pip install 'sumjudge[{extra}]'"


def closure(requirements: list[Requirement]) -> set[str]:
    """The distributions these requirements bring (as installed here, markers evaluated, no extras)."""
    seen: set[str] = set()
    todo = list(requirements)
    while todo:
        req = todo.pop()
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        if name in seen or (req.marker is not None and not req.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        try:
            todo.extend(Requirement(r) for r in md.requires(name) or [])
        except md.PackageNotFoundError:
            continue
    return seen


@pytest.mark.parametrize("extra", sorted(FRAMEWORKS))
def test_each_extra_brings_its_framework_alone(extra: str) -> None:
    ours = [Requirement(r) for r in md.requires("sumjudge") or []]
    wanted = [r for r in ours if r.marker is not None and r.marker.evaluate({"extra": extra})
              and not r.marker.evaluate({"extra": ""})]
    assert [re.sub(r"[-_.]+", "-", r.name).lower() for r in wanted] == [FRAMEWORKS[extra][0]]
    if any(r.name for r in wanted if not _installed(r.name)):
        pytest.skip(f"{FRAMEWORKS[extra][0]} is not installed")
    brought = closure(wanted)
    others = {dist for e, (dist, _, _, _) in FRAMEWORKS.items() if e != extra}
    assert brought.isdisjoint(others), f"sumjudge[{extra}] brings {sorted(brought & others)}"


def _installed(name: str) -> bool:
    try:
        md.version(name)
    except md.PackageNotFoundError:
        return False
    return True


def doc_blocks() -> dict[str, str]:
    """docs/integrations.md's Python blocks, by the heading above each."""
    text = DOC.read_text(encoding="utf-8")
    out: dict[str, str] = {}
    for section in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        heading = section.splitlines()[0].strip()
        for block in re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL):
            out[heading] = out.get(heading, "") + block
    return out


HEADINGS = ["MLflow 3", "pydantic-evals", "Inspect AI", "DeepEval"]
COMMON = "Evaluation frameworks: MLflow 3, pydantic-evals, Inspect AI, DeepEval"


def test_the_doc_has_one_example_per_framework_and_the_table() -> None:
    blocks = doc_blocks()
    assert all(blocks.get(h) for h in HEADINGS) and "summaries = {" in blocks[COMMON]
    text = DOC.read_text(encoding="utf-8")
    assert "| Framework | What it shows of sumjudge | What it cannot |" in text


@pytest.mark.parametrize("heading", HEADINGS)
def test_the_docs_example_runs_as_written(heading: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture, request: pytest.FixtureRequest,
                                          no_network: None) -> None:  # noqa: F811
    blocks = doc_blocks()
    block = blocks[COMMON] + blocks[heading]
    top = {"MLflow 3": "mlflow.genai", "pydantic-evals": "pydantic_evals", "Inspect AI": "inspect_ai",
           "DeepEval": "deepeval"}[heading]
    pytest.importorskip(top)
    monkeypatch.chdir(tmp_path)  # where the example writes its store, its logs, its results
    if heading == "MLflow 3":  # its sqlite:///mlflow.db starts as a copy of a migrated empty store
        fresh_mlflow(monkeypatch, request.getfixturevalue("mlflow_template"), tmp_path / "mlflow.db")
    namespace: dict = {"__name__": "__doc_example__"}
    try:
        exec(compile(block, f"{DOC}#{heading}", "exec"), namespace)  # noqa: S102 - our own doc
    finally:
        if heading == "MLflow 3":
            import mlflow

            mlflow.set_tracking_uri(None)
    printed = capsys.readouterr().out
    # each example prints the scores: the invented summary's reason names its unsupported claim
    assert "invented" in printed or "9 million" in printed or "Main Street" in printed, printed[-2000:]
