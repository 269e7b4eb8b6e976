"""What a newcomer copies from the demo, the README and the docs runs from a fresh checkout.

- After ``make demo`` (``.venv/bin/python examples/demo.py``, the environment not activated) the
  commands it suggests work as printed: a bare ``sumjudge`` would be "command not found".
- Every ``sumjudge ...`` line of the shell examples in the README and docs names files that exist in
  the checkout (or that an earlier line of the same example writes) and runs to a verdict: exit 0,
  or 1 where the example is a gate that the bundled examples fail; never 2 (bad input or usage).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import doc_outputs

from sumjudge.cli import main
from sumjudge.testing.judge_server import JudgeServer

ROOT = Path(__file__).resolve().parents[1]
SHELL_BLOCK = re.compile(r"```(?:bash|sh|shell)\n(.*?)```", re.DOTALL)


def test_the_demos_next_command_runs_as_printed_without_an_activated_environment(tmp_path: Path) -> None:
    venv_bin = str(Path(sys.executable).parent)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != venv_bin)
    env = dict(os.environ, PATH=path)
    env.pop("VIRTUAL_ENV", None)
    env.pop("SUMJUDGE_MODEL", None)
    demo = subprocess.run(
        [sys.executable, "examples/demo.py", "--out", str(tmp_path / "demo.jsonl")],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )
    (line,) = [ln.strip() for ln in demo.stdout.splitlines() if " check --source " in ln]
    assert not line.startswith("sumjudge ") or shutil.which("sumjudge", path=path)  # found on that PATH
    ran = subprocess.run(line, shell=True, cwd=ROOT, env=env, capture_output=True, text=True)
    assert ran.returncode in (0, 1), ran.stderr  # 1: the score is below a gate; never "not found" (127)
    assert "9.5" in ran.stdout  # the invented number of examples/summary.txt, in a verdict


def _sumjudge_lines(doc: Path) -> list[str]:
    lines = []
    for block in SHELL_BLOCK.findall(doc.read_text(encoding="utf-8")):
        for raw in block.splitlines():
            line = raw.split("  #", 1)[0].strip()
            if line.startswith("sumjudge view"):
                continue  # a server that runs until stopped: tests/view/test_view_browser.py drives it
            if line.startswith(("sumjudge ", "python -c ")):
                lines.append(line)
    return lines


PLACEHOLDERS = ("RUN_A", "RUN_B", "RUN_ID")
"""Words an example says stand for the reader's own values (run ids)."""
DOCS = [
    doc for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    if any(not any(word in ln for word in PLACEHOLDERS) for ln in _sumjudge_lines(doc))
]


@pytest.mark.integration
@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_shell_examples_run_from_a_fresh_checkout(
    doc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [ln for ln in _sumjudge_lines(doc) if not any(word in ln for word in PLACEHOLDERS)]
    shutil.copytree(ROOT / "examples", tmp_path / "examples")  # a checkout's files, nothing else
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SUMJUDGE_MODEL", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    with JudgeServer() as server:  # examples that name a hosted judge reach this one instead
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        for line in lines:
            argv = [arg.replace("/tmp/", f"{tmp_path}/") for arg in shlex.split(line)]  # not the shared /tmp
            if argv[0] == "python":
                done = subprocess.run([sys.executable, *argv[1:]], capture_output=True, text=True)
                assert done.returncode == 0, f"{doc.name}: {line}\n{done.stderr}"
                continue
            result = CliRunner().invoke(main, argv[1:])
            # 0 ok, 1 a gate failed, 3 a gate inconclusive (too few items to tell): outcomes, not breakage
            assert result.exit_code in (0, 1, 3), f"{doc.name}: {line}\nexit {result.exit_code}: {result.output}"
            assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), line


SHOWN = [shown for doc in doc_outputs.DOCS for shown in doc_outputs.shown_outputs(doc)]


def test_the_docs_mark_the_outputs_they_show():
    names = {(s.doc.name, s.name) for s in SHOWN}
    assert {("testing-in-ci.md", "score-gate"), ("testing-in-ci.md", "pytest-failure"),
            ("testing-in-ci.md", "pytest-scores"), ("offline-judge.md", "python-above")} <= names
    assert all(s.name in doc_outputs.PRODUCERS for s in SHOWN)


@pytest.mark.integration
@pytest.mark.parametrize("shown", SHOWN, ids=lambda s: f"{s.doc.name}:{s.name}@{s.start}")
def test_an_output_a_doc_shows_is_what_the_code_prints(shown) -> None:
    """Run ids aside, the block is what the command or snippet prints now. After a change that moves it
    (the offline judge's rules or reasons): `PYTHONPATH=src python tests/doc_outputs.py --write`."""
    printed = doc_outputs.PRODUCERS[shown.name](shown)
    assert doc_outputs.normal(printed) == doc_outputs.normal(shown.text), (
        f"{shown.doc.name}: the '{shown.name}' block drifted; refresh it with "
        "`PYTHONPATH=src python tests/doc_outputs.py --write` and review the diff")


def test_the_readmes_first_gate_passes_the_faithful_summary_and_fails_the_wrong_figure() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = SHELL_BLOCK.findall(text.split("## A first result", 1)[1])[0]
    commands = [line.split("  #", 1)[0].strip().removeprefix(".venv/bin/") for line in first.splitlines() if line.strip()]
    assert len(commands) == 2 and all("--max-unsupported 0" in c for c in commands)
    codes = [CliRunner().invoke(main, shlex.split(c)[1:]).exit_code for c in commands]
    assert codes == [0, 1]
    # the score alone lets the wrong figure through: the unsupported-claims gate is what catches it
    score_only = shlex.split(commands[1].replace("--max-unsupported 0", ""))[1:]
    assert CliRunner().invoke(main, score_only).exit_code == 0


def test_the_demo_points_at_a_section_that_exists_and_the_readme_outputs_are_ignored() -> None:
    text = (ROOT / "examples" / "demo.py").read_text(encoding="utf-8")
    (doc, section) = re.search(r'See (\S+), "([^"]+)"', text).groups()
    assert f"## {section}" in (ROOT / doc).read_text(encoding="utf-8")
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    for written in re.findall(r"--(?:out|report) (\S+)", (ROOT / "README.md").read_text(encoding="utf-8")):
        assert written in ignored, written


def test_the_async_example_names_what_runs_it_in_every_install_line() -> None:
    text = (ROOT / "docs" / "testing-in-ci.md").read_text(encoding="utf-8")
    assert "@pytest.mark.asyncio" in text
    installs = re.findall(r"pip install sumjudge[^\n`]*", text)
    assert installs and all("pytest-asyncio" in line for line in installs if "pytest" in line), installs
