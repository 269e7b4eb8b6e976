"""bench/README.md is the index of the benchmark scripts: every script under bench/ is named in it, every
script sits in one of its folders (grouped by what it measures), and every path and docs section it
names exists, so that the map from a figure of docs/results.md to its command cannot go stale."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
INDEX = BENCH / "README.md"
FOLDERS = ("quality", "speed", "cost", "peers", "common")

# a repository path as the index writes it in prose and commands: bench/..., docs/..., tests/..., src/...
PATH = re.compile(r"(?<![\w./-])((?:bench|docs|tests|src)/[\w./*-]*[\w*])")
# a Markdown link, relative to bench/: [text](../docs/results.md#section)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#([^)\s]*))?\)")


def scripts() -> list[Path]:
    return sorted(p for p in BENCH.rglob("*") if p.suffix in (".py", ".sh") and "__pycache__" not in p.parts
                  and not any(part.startswith(".venv") for part in p.parts))


def anchors(markdown: Path) -> set[str]:
    """The section anchors GitHub gives a Markdown file's headings (fenced code blocks skipped)."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in markdown.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        heading = re.match(r"#{1,6}\s+(.*)", line)
        if fenced or not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def test_there_are_scripts_to_index() -> None:
    assert len(scripts()) > 20


@pytest.mark.parametrize("script", [p.relative_to(ROOT).as_posix() for p in scripts()])
def test_every_bench_script_is_in_the_index(script: str) -> None:
    assert f"`{script}`" in INDEX.read_text(encoding="utf-8"), f"{script} is not named in bench/README.md"


def test_every_bench_script_sits_in_a_folder_of_what_it_measures() -> None:
    loose = [p.relative_to(ROOT).as_posix() for p in scripts() if p.relative_to(BENCH).parts[0] not in FOLDERS]
    assert loose == [], f"move these into one of bench/{{{','.join(FOLDERS)}}}/ and index them: {loose}"


def test_every_path_the_index_names_exists() -> None:
    text = INDEX.read_text(encoding="utf-8")
    named = set(PATH.findall(text))
    assert "bench/quality/bump_pairs.py" in named  # the pattern reads the index as written
    missing = [p for p in sorted(named) if not (list(ROOT.glob(p)) if "*" in p else (ROOT / p).exists())]
    assert missing == []


def test_every_link_of_the_index_reaches_a_file_and_its_section() -> None:
    broken = []
    for target, anchor in LINK.findall(INDEX.read_text(encoding="utf-8")):
        path = (BENCH / target).resolve()
        if not path.exists():
            broken.append(target)
        elif anchor and anchor not in anchors(path):
            broken.append(f"{target}#{anchor}")
    assert broken == []
