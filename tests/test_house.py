"""The shape of the house that the README's Layout promises: a ground floor grouped by concept, no
layer of the import contracts over five entries, the 0.1 import paths still working, and one room
for what every judge reads (the contracts themselves are checked by `lint-imports` in `make test`)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "sumjudge"


def _layers() -> list[list[str]]:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = re.search(r'type = "layers"\s*\nlayers = \[(.*?)\n\]', text, re.S)
    assert block, "pyproject.toml has no layers contract"
    return [[m.strip() for m in row.split("|")] for row in re.findall(r'"([^"]+)"', block.group(1))]


def _is_shim(tree: ast.Module) -> bool:
    """Only a docstring, imports, ``__all__`` and ``sys.modules[...] = ...``: it re-exports."""
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, ast.Assign) and all(
            (isinstance(t, ast.Name) and t.id == "__all__") or
            (isinstance(t, ast.Subscript) and ast.unparse(t.value) == "sys.modules") for t in node.targets
        ):
            continue
        return False
    return True


def test_no_layer_of_the_contract_lists_more_than_five_entries() -> None:
    layers = _layers()
    assert layers and max(len(row) for row in layers) <= 5, [row for row in layers if len(row) > 5]


def test_the_top_level_holds_at_most_seven_modules_besides_the_floor_and_shims() -> None:
    modules = []
    for path in sorted(PACKAGE.glob("*.py")):
        if path.name in ("__init__.py", "errors.py") or path.name.startswith("_"):
            continue
        source = path.read_text(encoding="utf-8")
        if len(source.splitlines()) <= 10 or _is_shim(ast.parse(source)):
            continue
        modules.append(path.name)
    assert len(modules) <= 7, modules


def test_the_top_level_holds_no_shim_module() -> None:
    shims = [p.name for p in sorted(PACKAGE.glob("*.py")) if p.name != "__init__.py" and _is_shim(ast.parse(p.read_text(encoding="utf-8")))]
    assert shims == []


def test_every_judge_reads_through_the_shared_room() -> None:
    """The offline judge and the reader both read with a ``Reading``; neither package imports the other."""
    from sumjudge.summarization.offline import create_offline_judge
    from sumjudge.summarization.language import Reading

    assert isinstance(create_offline_judge("lexical").reading, Reading)
    for package, other in (("offline", "reader"), ("reader", "offline")):
        for path in (PACKAGE / "summarization" / package).glob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
            assert not [m for m in imported if m.split(".")[-1] == other or f".{other}." in f".{m}."], path


def test_a_module_name_used_twice_is_one_concept_the_layout_names() -> None:
    from collections import Counter

    names = Counter(p.name for p in PACKAGE.rglob("*.py") if p.name != "__init__.py")
    twice = sorted(n for n, k in names.items() if k > 1)
    assert len(twice) <= 10, twice
    layout = (PACKAGE.parents[1] / "docs" / "layout.md").read_text(encoding="utf-8").split("## Names used twice", 1)[1]
    assert [n for n in twice if f"`{n}`" not in layout] == []


def test_the_judges_that_need_no_network_are_registered_by_their_own_packages() -> None:
    from importlib.metadata import entry_points

    from sumjudge.judges.registry import FAMILIES_GROUP, JudgeFamily, judge_family

    registry = (PACKAGE / "judges" / "registry.py").read_text(encoding="utf-8")
    assert "summarization" not in registry and "reader" not in registry.lower()
    registered = {e.name: e.value for e in entry_points(group=FAMILIES_GROUP)}
    assert registered == {
        "offline": "sumjudge.summarization.offline:FAMILY",
        "reader": "sumjudge.summarization.reader:FAMILY",
    }
    assert isinstance(judge_family("local", "reader-0.5b"), JudgeFamily)
    assert judge_family("local", "smollm2") is None  # llama.cpp's generic local judge


def test_the_docs_stay_readable_in_size() -> None:
    docs = PACKAGE.parents[1] / "docs"
    words = sum(len(p.read_text(encoding="utf-8").split()) for p in docs.glob("*.md"))
    assert words <= 22_000, words
    assert len((docs / "results.md").read_text(encoding="utf-8").splitlines()) <= 400
