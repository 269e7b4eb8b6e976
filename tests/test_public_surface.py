"""The public surface: every name a package exports resolves, and the import paths that the README of
0.1 gave still lead to the same objects after the move into layer packages."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

def _packages() -> list[str]:
    """Every package of the tree: a name that a lazy export map points at a moved module fails
    only when read, so each package's exports are read here."""
    import sumjudge

    return ["sumjudge"] + sorted(m.name for m in pkgutil.walk_packages(sumjudge.__path__, "sumjudge.") if m.ispkg)


@pytest.mark.parametrize("package", _packages())
def test_every_exported_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    exported = set(getattr(module, "__all__", ())) | set(getattr(module, "_EXPORTS", {}))
    missing = []
    for name in sorted(exported):
        try:
            getattr(module, name)
        except (AttributeError, ImportError) as exc:
            missing.append(f"{name}: {exc}")
    assert missing == []
    assert set(getattr(module, "__all__", ())) <= set(dir(module))


@pytest.mark.parametrize(
    ("package", "module", "name"),
    [
        ("sumjudge.runs", "sumjudge.runs.dataset", "run_dataset"),
        ("sumjudge.analysis", "sumjudge.analysis.compare", "compare_runs"),
        ("sumjudge.data", "sumjudge.data.parquet", "write_frame"),
        ("sumjudge.store", "sumjudge.store.database", "RunStore"),
    ],
)
def test_a_package_exports_the_names_of_its_modules(package: str, module: str, name: str) -> None:
    assert getattr(importlib.import_module(package), name) is getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("old", ["sumjudge.batch", "sumjudge.compare", "sumjudge.parquet", "sumjudge.stats", "sumjudge.decide"])
def test_no_import_path_is_kept_for_a_version_nobody_installed(old: str) -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)


def test_importing_a_package_imports_none_of_its_modules() -> None:
    """Package ``__init__`` files hold exports only: importing them loads no scorer, judge or SDK."""
    code = (
        "import sys, sumjudge, sumjudge.runs, sumjudge.store, sumjudge.analysis, sumjudge.data\n"
        "heavy = [m for m in ('sumjudge.runs.dataset', 'sumjudge.store.database', 'sumjudge.analysis.compare',\n"
        "         'sumjudge.data.datasets', 'sumjudge.summarization', 'openai', 'pydantic') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
