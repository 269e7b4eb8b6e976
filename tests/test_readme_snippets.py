"""Every Python snippet of the README runs as written.

The snippets name hosted judges (OpenAI, Anthropic); here their base URLs point at the bundled
protocol-level servers on 127.0.0.1, so the code runs unchanged and reaches no network. What a
snippet leaves to the reader (``pairs``, a client ``my_llm``) is supplied the way a reader would.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sumjudge.testing.anthropic_server import AnthropicServer
from sumjudge.testing.judge_server import JudgeServer

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide.md"
"""What the README used to hold past its first screen: its blocks are run as the README's are."""
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def python_blocks() -> list[str]:
    return [b for doc in (README, GUIDE) for b in BLOCK.findall(doc.read_text(encoding="utf-8"))]


async def my_llm(messages, schema: dict) -> str:
    """A reader's own client: here, one that answers each step's schema with a plausible reply."""
    prop = next(iter(schema["properties"]))
    if prop == "alignment":
        return json.dumps({"alignment": [{"claim": "The bridge opened in 1932.", "supported": True, "reason": "stated"}]})
    if prop == "questions":
        return json.dumps({"questions": ["Did the bridge open in 1932?", "Did it cost 4 million dollars?"]})
    return json.dumps({"coverage": [
        {"question": "Did the bridge open in 1932?", "answered": True, "reason": "said"},
        {"question": "Did it cost 4 million dollars?", "answered": False, "reason": "not said"},
    ]})


@pytest.mark.integration
def test_the_readme_snippets_run(monkeypatch, capsys) -> None:
    blocks = python_blocks()
    assert len(blocks) >= 4
    with JudgeServer() as openai_server, AnthropicServer() as anthropic_server:
        monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", anthropic_server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
        for block in blocks:
            # each block on its own, as a reader copies it (`pairs` and `scorer` came from
            # elsewhere); only `my_llm`, the reader's own client that the custom judge wraps, is given
            namespace = {"my_llm": my_llm}
            exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 - our own README
        # The quick start names no model: the offline judge answers it (what it prints is checked
        # below, against the README's output block); no snippet may reach beyond these servers.
    printed = capsys.readouterr().out
    assert "True" in printed or "False" in printed  # verdicts printed by attribute access


def test_the_custom_judge_example_scores_with_a_judge_reply() -> None:
    (block,) = [b for b in python_blocks() if "class MyJudge" in b]
    namespace: dict = {"my_llm": my_llm}
    exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 - our own README
    result = namespace["scorer"].run_sync(input="The bridge opened in 1932 and cost 4 million dollars.",
                                          output="The bridge opened in 1932.")
    assert result.alignment_score == 1.0
    assert result.coverage_score == 0.5
    assert result.score == 0.5
    assert result.model == "my/judge-v1"


def test_the_quick_start_prints_what_the_readme_shows(capsys) -> None:
    """The quick start names no model: its output block is the offline judge's real output."""
    text = README.read_text(encoding="utf-8")
    quick_start = python_blocks()[0]
    assert "create_summarization_scorer()" in quick_start
    shown = text.split("prints (the offline judge's real output", 1)[1].split("```\n", 2)[1]
    exec(compile(quick_start, str(README), "exec"), {})  # noqa: S102 - our own README
    out = capsys.readouterr()
    assert (out.err + out.out).splitlines() == shown.splitlines()


EXTRAS = {"anthropic/": "anthropic", "integrations.pandas": "pandas", "pd.read_": "pandas",
          "integrations.ray": "ray", "data.write_frame": "parquet"}
"""What a block uses -> the extra it must name (``pip install 'sumjudge[...]'``)."""


def test_every_block_names_the_extra_it_needs() -> None:
    for block in python_blocks():
        for used, extra in EXTRAS.items():
            if used in block:
                assert re.search(r"sumjudge\[[a-z,]*" + extra, block), f"a block using {used!r} names no [{extra}]:\n{block}"


def test_make_demo_installs_what_the_readme_runs_next() -> None:
    """The README's first screen runs `sumjudge view` after `make demo`: the demo installs the viewer."""
    readme = README.read_text(encoding="utf-8")
    demo = next(line for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
                if "install -e" in line and "test," not in line)
    assert "sumjudge view" in readme and "view" in demo.split("'.[")[1]
    assert len(readme.splitlines()) <= 100  # a first screen, not the manual (~600 lines)
