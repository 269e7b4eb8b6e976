"""The outputs the docs show, made again from the code: each is a code block right after a marker line

    <!-- shown-output: NAME -->

where NAME is one of :data:`PRODUCERS` (a function that runs what the doc describes and returns what it
prints). tests/test_newcomer_paths.py compares every marked block with what its producer prints now;
run ids are masked and trailing spaces dropped, nothing else.

After a change that moves what the docs show (the offline judge's rules or reasons, its version, the
end table), refresh every marked block in place and review the diff:

    PYTHONPATH=src .venv/bin/python tests/doc_outputs.py --write      # or without --write: list the drift
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKER = re.compile(r"^(?P<head><!-- shown-output: (?P<name>[a-z0-9-]+) -->\n```[a-z]*\n)(?P<body>.*?)```\n",
                    re.DOTALL | re.MULTILINE)
_RUN_ID = re.compile(r"\b\d{8}-\d{6}-[0-9a-f]{6}\b")
_PYTHON = re.compile(r"```python\n(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class Shown:
    doc: Path
    name: str
    text: str
    """The block as the doc has it."""
    start: int
    """Offset of the marker in the doc (the block before it is the one some producers run)."""


def shown_outputs(doc: Path) -> list[Shown]:
    text = doc.read_text(encoding="utf-8")
    return [Shown(doc, m["name"], m["body"], m.start()) for m in MARKER.finditer(text)]


def normal(text: str) -> str:
    """What is compared: run ids masked, trailing spaces and blank ends dropped."""
    lines = [line.rstrip() for line in _RUN_ID.sub("RUN", text).splitlines()]
    return "\n".join(lines).strip("\n")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SUMJUDGE_MODEL", "GITHUB_STEP_SUMMARY", "FORCE_COLOR")}
    src = str(ROOT / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update({"NO_COLOR": "1", "COLUMNS": "400", **extra})
    return env


def _checkout() -> Path:
    """A fresh folder holding the checkout's examples, as a newcomer's clone has them."""
    where = Path(tempfile.mkdtemp(prefix="sumjudge-doc-"))
    shutil.copytree(ROOT / "examples", where / "examples")
    return where


def _sumjudge_stderr(*args: str) -> str:
    where = _checkout()
    try:
        done = subprocess.run([sys.executable, "-m", "sumjudge.cli", *args], cwd=where, env=_env(), capture_output=True,
                              text=True, timeout=600)
        return done.stderr
    finally:
        shutil.rmtree(where, ignore_errors=True)


def score_gate(shown: Shown) -> str:
    """docs/testing-in-ci.md: `sumjudge score` with a pass-rate gate on the bundled examples (standard error)."""
    return _sumjudge_stderr("score", "examples/summaries.jsonl", "--pass-rate", "0.9", "--threshold", "0.7",
                            "--junit", "sumjudge.xml")


def exam_kept(shown: Shown) -> str:
    """docs/guide.md: an exam kept and sat twice; the line `questions` writes, and `compare`'s exam line."""
    where = _checkout()
    try:
        def run(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([sys.executable, "-m", "sumjudge.cli", *args], cwd=where, env=_env(),
                                  capture_output=True, text=True, timeout=600)

        written = run("questions", "examples/summaries.jsonl", "--out", "exam.jsonl").stderr
        run("score", "examples/summaries.jsonl", "--questions", "exam.jsonl", "--out", "kept.jsonl", "-q")
        run("score", "examples/summaries.jsonl", "--questions", "exam.jsonl", "--out", "kept-again.jsonl", "--fresh", "-q")
        compared = run("compare", "kept.jsonl", "kept-again.jsonl").stdout
        lines = [x for x in written.splitlines() if " written to exam.jsonl" in x]
        lines += [x for x in compared.splitlines() if x.startswith("exam: ")]
        return "\n".join(lines)
    finally:
        shutil.rmtree(where, ignore_errors=True)


def python_above(shown: Shown) -> str:
    """What the doc's last Python block before the marker prints (standard output)."""
    blocks = _PYTHON.findall(shown.doc.read_text(encoding="utf-8")[: shown.start])
    done = subprocess.run([sys.executable, "-c", blocks[-1]], cwd=ROOT, env=_env(OPENAI_API_KEY="unused"),
                          capture_output=True, text=True, timeout=600)
    if done.returncode:
        raise RuntimeError(f"{shown.doc.name}: the Python block before '{shown.name}' failed:\n{done.stderr}")
    return done.stdout


_PYTEST_HELPERS = '''
def my_summarizer(source):  # the doc's stand-ins: the source's first two sentences, and the source itself
    return " ".join(source.split(". ")[:2]).rstrip(".") + "."


async def my_agent(source):
    return source

'''


def _pytest_example(shown: Shown) -> str:
    """docs/testing-in-ci.md's test file, run by pytest with the default judge (the terminal output)."""
    (block,) = [b for b in _PYTHON.findall(shown.doc.read_text(encoding="utf-8")) if "# tests/test_summaries.py" in b]
    return _pytest_run(block)


@functools.lru_cache(maxsize=4)
def _pytest_run(block: str) -> str:
    where = Path(tempfile.mkdtemp(prefix="sumjudge-doc-"))
    try:
        (where / "test_summaries.py").write_text(_PYTEST_HELPERS + block, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider", "-o", "asyncio_mode=auto",
             "test_summaries.py"], cwd=where, env=_env(COLUMNS="80"), capture_output=True, text=True, timeout=600,
        )
        return done.stdout
    finally:
        shutil.rmtree(where, ignore_errors=True)


def pytest_failure(shown: Shown) -> str:
    """The `E ...` lines of the example's failing test."""
    return "\n".join(line for line in _pytest_example(shown).splitlines() if line.startswith("E  "))


def pytest_scores(shown: Shown) -> str:
    """The plugin's section, from its title to its last scored summary."""
    lines = _pytest_example(shown).splitlines()
    first = next(i for i, line in enumerate(lines) if " sumjudge scores " in line)
    end = next((i for i in range(first + 2, len(lines)) if not lines[i].startswith("   ")), len(lines))
    return "\n".join(lines[first:end])


PRODUCERS: dict[str, Callable[[Shown], str]] = {
    "score-gate": score_gate,
    "exam-kept": exam_kept,
    "python-above": python_above,
    "pytest-failure": pytest_failure,
    "pytest-scores": pytest_scores,
}


def refresh(doc: Path) -> bool:
    """Rewrite every marked block of ``doc`` with what its producer prints now; whether anything changed."""
    text = doc.read_text(encoding="utf-8")

    def made(m: re.Match[str]) -> str:
        shown = Shown(doc, m["name"], m["body"], m.start())
        out = "\n".join(line.rstrip() for line in PRODUCERS[shown.name](shown).splitlines()).strip("\n")
        if normal(out) == normal(shown.text):
            return m.group(0)  # unchanged but for a run id: left as it is
        return m["head"] + out + "\n```\n"

    new = MARKER.sub(made, text)
    if new != text:
        doc.write_text(new, encoding="utf-8")
    return new != text


def main(argv: list[str]) -> int:
    write = "--write" in argv
    drift = 0
    for doc in DOCS:
        if write:
            if refresh(doc):
                print(f"rewrote the shown outputs of {doc.relative_to(ROOT)}")
            continue
        for shown in shown_outputs(doc):
            if normal(PRODUCERS[shown.name](shown)) != normal(shown.text):
                drift += 1
                print(f"{doc.relative_to(ROOT)}: '{shown.name}' differs from what the code prints now")
    return 1 if drift else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
