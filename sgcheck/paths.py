"""How paths are shown in reports: as the user gave them, normalised, with forward slashes.

Paths sgcheck finds by itself (a configuration file found by searching upward) are shown
relative to the working directory, like the paths a user types, so that every report, SARIF
URIs included, names files the same way wherever the checkout lies.
"""

from __future__ import annotations

import os
from pathlib import Path


def display(path: str) -> str:
    """``path`` as given, normalised, with forward slashes."""
    return os.path.normpath(path).replace(os.sep, "/")


def relative_display(path: str | os.PathLike[str], start: str | None = None) -> str:
    """``path`` relative to ``start`` (the working directory), or absolute where it cannot be."""
    try:
        return display(os.path.relpath(path, start))
    except ValueError:  # another drive on Windows
        return display(os.path.abspath(path))


def real_path(path: Path) -> Path:
    """``path`` with symbolic links resolved; as given when that fails (a link loop, a bad name)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return path.absolute()


def links_out_of(path: Path, folder: Path) -> bool:
    """``path`` resolves (through symbolic links) to somewhere outside ``folder``.

    Files found by walking a folder are read only when this is false: a link may point anywhere
    on the machine, and a report would quote what it read.
    """
    return not real_path(path).is_relative_to(real_path(folder))
