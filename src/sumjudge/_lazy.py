"""Lazy package exports (PEP 562): a package names what it exports and where each name lives, and
a name's module is imported the first time the name is read.

Why: ``import sumjudge`` (and the pytest plugin, which pytest loads in every session of an
environment where sumjudge is installed) would otherwise import the scorer, the judges and the SDKs
up front. Type checkers and IDEs see the real imports under ``TYPE_CHECKING`` in each package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``; ``exports`` maps each name to its module
    (relative, such as ``".evals"``). A name read once is kept in the package's namespace."""
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
