"""llama.cpp is installed at the tested version and built portably wherever the project installs it.

A llama-cpp-python compiled for the build machine's CPU (GGML_NATIVE, its default) crashed with SIGSEGV
in grammar-constrained generation on another CPU, and an unpinned version changes with the registry.
"""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _pinned_version() -> str:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # (tomllib is 3.11+)
    local = re.search(r"^local\s*=\s*\[(.*)\]\s*$", pyproject, re.M)
    assert local, "pyproject.toml has no 'local' extra"
    (spec,) = [s.strip().strip('"') for s in local.group(1).split(",") if "llama-cpp-python" in s]
    match = re.fullmatch(r"llama-cpp-python==([0-9.]+)", spec.replace(" ", ""))
    assert match, f"the local extra must pin llama-cpp-python to the tested version, not {spec!r}"
    return match.group(1)


def test_the_makefile_builds_the_pinned_version_portably_before_anything_else_installs_it() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(rf"^LLAMA_CPP_VERSION\s*:?=\s*{re.escape(_pinned_version())}\s*$", makefile, re.M)
    recipe = makefile.split("$(VENV)/.test-installed:", 1)[1].split("\n\n", 1)[0]
    installs = [line.strip() for line in recipe.splitlines() if " install " in line]
    first, rest = installs[0], installs[1:]
    # the first install is the portable build, with a cache no other build uses (or none)
    assert "llama-cpp-python==$(LLAMA_CPP_VERSION)" in first and "$(PORTABLE_BUILD)" in first
    portable = re.search(r"^PORTABLE_BUILD\s*:?=(.*)$", makefile, re.M)
    assert portable and 'CMAKE_ARGS="$(PORTABLE_CMAKE_ARGS)"' in portable.group(1)
    # no libmtmd (llava): nothing here uses llama.cpp's multimodal handlers (see the next test)
    assert _makefile_cmake_args().split() == ["-DGGML_NATIVE=OFF", "-DLLAVA_BUILD=OFF"]
    assert "PIP_CACHE_DIR=" in portable.group(1) or "--no-cache-dir" in first
    assert "--force-reinstall" in first  # a llama-cpp-python built natively before is replaced
    # what installs the local extra afterwards asks for the same version, so pip keeps the portable one
    assert all("llama-cpp-python" not in line or "==$(LLAMA_CPP_VERSION)" in line for line in rest)


def _makefile_cmake_args() -> str:
    found = re.search(r"^PORTABLE_CMAKE_ARGS\s*:?=(.*)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert found, "the Makefile has no PORTABLE_CMAKE_ARGS"
    return found.group(1).strip()


def test_one_install_line_the_makefiles_flags_in_the_guide_the_readme_ci_and_the_error_messages() -> None:
    from sumjudge.judges.llama_models import LLAMA_INSTALL_LINE, PORTABLE_CMAKE_ARGS
    from sumjudge.summarization.reader.models import READER_INSTALL

    flags = f'CMAKE_ARGS="{_makefile_cmake_args()}"'
    assert PORTABLE_CMAKE_ARGS == _makefile_cmake_args()
    assert READER_INSTALL == f"{flags} pip install --no-cache-dir 'sumjudge[reader]'"
    assert LLAMA_INSTALL_LINE == f"{flags} pip install --no-cache-dir 'sumjudge[local]'"
    texts = {doc: (ROOT / doc).read_text(encoding="utf-8") for doc in ("README.md", "docs/guide.md", ".ci/run")}
    every = [(doc, m) for doc, text in texts.items() for m in re.findall(r'CMAKE_ARGS="[^"]*"', text)]
    assert every and all(m == flags for _, m in every), every
    assert READER_INSTALL in texts["docs/guide.md"]  # the guide's line for the reader, as the error prints it


def test_nothing_uses_llama_cpps_multimodal_part_which_the_test_install_leaves_out() -> None:
    used = [p for folder in ("src", "bench", "examples") for p in (ROOT / folder).rglob("*.py")
            if re.search(r"llava|mtmd|Llava|chat_handler|clip_model_path", p.read_text(encoding="utf-8"))]
    assert used == []


def test_ci_and_the_readme_build_it_the_same_way() -> None:
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = "\n".join((ROOT / doc).read_text(encoding="utf-8") for doc in ("README.md", "docs/guide.md"))
    install_local = [ln for ln in readme.splitlines() if "sumjudge[local]" in ln and "pip install" in ln]
    assert install_local and all(f'CMAKE_ARGS="{_makefile_cmake_args()}"' in ln and "--no-cache-dir" in ln for ln in install_local)
    rebuild = f"pip install --no-cache-dir --force-reinstall --no-deps 'llama-cpp-python=={_pinned_version()}'"
    assert rebuild in readme


def test_the_installed_llama_cpp_python_is_the_pinned_one() -> None:
    try:
        installed = importlib.metadata.version("llama-cpp-python")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("llama-cpp-python is not installed (the local extra)")
    assert installed == _pinned_version()
