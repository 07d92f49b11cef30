"""Which build of sgcheck runs: compiled with mypyc, or pure Python.

``pip install .`` compiles the hot modules with mypyc when it can (``hatch_build.py``; the list is
in ``pyproject.toml``) and keeps their ``.py`` sources next to the extension modules. Setting
``SGCHECK_PURE=1`` at run time makes a compiled install import those ``.py`` sources instead:
:mod:`sgcheck` then puts :class:`PureFinder` first on ``sys.meta_path`` (see :func:`prefer_pure`),
so that one install runs either build. This module is never compiled.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The environment variable that asks for the pure Python build, at install time and at run time.
PURE_ENV = "SGCHECK_PURE"

#: The module whose origin tells the builds apart: the engine is compiled in every compiled build.
PROBE = "sgcheck.core.engine"

#: The note the wheel's build hook leaves: which build was installed and, when pure, why.
_NOTE = Path(__file__).with_name("_build.txt")


def pure_requested() -> bool:
    """``SGCHECK_PURE=1`` is set."""
    return os.environ.get(PURE_ENV) == "1"


class PureFinder(importlib.machinery.PathFinder):
    """Finds sgcheck's modules as ``.py`` sources only, so that no compiled extension is loaded."""

    @classmethod
    def find_spec(
        cls, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("sgcheck.") or path is None:
            return None
        name = fullname.rpartition(".")[2]
        for folder in path:
            package = Path(folder, name, "__init__.py")
            module = Path(folder, name + ".py")
            if package.is_file():
                return importlib.util.spec_from_file_location(
                    fullname, package, submodule_search_locations=[str(package.parent)]
                )
            if module.is_file():
                return importlib.util.spec_from_file_location(fullname, module)
        return None


def prefer_pure() -> None:
    """Import sgcheck's ``.py`` sources rather than its extension modules from now on (idempotent)."""
    if not any(finder is PureFinder for finder in sys.meta_path):
        sys.meta_path.insert(0, PureFinder)


def current() -> str:
    """``"compiled"`` when the core engine is (or would be) loaded from an extension module, else ``"pure"``."""
    module = sys.modules.get(PROBE)
    origin = getattr(module, "__file__", None) if module is not None else _origin(PROBE)
    compiled = bool(origin) and str(origin).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    return "compiled" if compiled else "pure"


def _origin(name: str) -> str | None:
    try:
        spec = importlib.util.find_spec(name)
    except ImportError:
        return None
    return spec.origin if spec is not None else None


def describe() -> str:
    """The build for people: ``compiled with mypyc``, or ``pure Python`` with the reason when one is known."""
    if current() == "compiled":
        return "compiled with mypyc"
    if pure_requested():
        return f"pure Python, {PURE_ENV}=1"
    try:
        note = _NOTE.read_text(encoding="utf-8").strip()
    except OSError:
        note = ""
    return note if note.startswith("pure Python, ") else "pure Python"
