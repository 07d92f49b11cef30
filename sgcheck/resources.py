"""Locate the data files shipped with sgcheck (grammars, JSON Schemas).

In a source checkout they live in the top-level ``grammar/`` and ``schemas/``
folders; an installed wheel carries copies under ``sgcheck/_data/``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def data_dir(kind: str) -> Path:
    """The folder holding ``kind`` data files (``"grammar"`` or ``"schemas"``)."""
    installed = _PACKAGE_DIR / "_data" / kind
    if installed.is_dir():
        return installed
    checkout = _PACKAGE_DIR.parent / kind
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"sgcheck data folder {kind!r} is missing from this installation")


def grammar_text(name: str) -> str:
    """The text of ``grammar/<name>``."""
    return (data_dir("grammar") / name).read_text(encoding="utf-8")


def schema_path(name: str) -> Path:
    """The path of ``schemas/<name>``."""
    return data_dir("schemas") / name
