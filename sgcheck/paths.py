"""How paths are shown in reports: as the user gave them, normalised, with forward slashes.

A path the user typed (on the command line, or a file found by walking a folder they named) is
shown as typed (:func:`display`). A path sgcheck finds by itself (a configuration file found by
searching upward, the target a symbolic link points to) is never shown absolute, so that every
report, SARIF URIs included, names files the same way wherever the checkout lies and tells no one
where that is (:func:`found_display`):

* under the working directory: relative to it (``cards/a.sgcard``);
* in a folder the working directory lies in, as a configuration file found upward:
  relative, climbing (``../pyproject.toml``);
* anywhere else: ``<outside>/`` and its name alone (``<outside>/passwd``).
"""

from __future__ import annotations

import os
from pathlib import Path


def display(path: str) -> str:
    """``path`` as given, normalised, with forward slashes."""
    return os.path.normpath(path).replace(os.sep, "/")


#: What stands for the folders of a path outside the working directory and the folders above it.
OUTSIDE = "<outside>"


def _climbing(path: str, start: str) -> str | None:
    """``path`` relative to ``start`` when it lies under ``start`` or in a folder ``start`` lies
    in (only ``..`` before its name); None otherwise."""
    try:
        relative = os.path.relpath(path, start)
    except ValueError:  # another drive on Windows
        return None
    parts = relative.split(os.sep)
    if parts[0] != os.pardir or all(part == os.pardir for part in parts[:-1]):
        return display(relative)
    return None


def found_display(path: str | os.PathLike[str], start: str | None = None) -> str:
    """A path sgcheck found by itself, as reports show it (module docstring): relative to ``start``
    (the working directory) when it lies under it or in a folder above it, else ``<outside>/NAME``;
    never absolute. Symbolic links are resolved on both sides when the paths as given do not meet
    (a working directory reached through a link, a link's resolved target)."""
    target = os.path.abspath(path)
    here = os.path.abspath(start if start is not None else os.curdir)
    shown = _climbing(target, here)
    if shown is None:
        shown = _climbing(os.path.realpath(target), os.path.realpath(here))
    if shown is not None:
        return shown
    name = os.path.basename(target.rstrip(os.sep))
    return f"{OUTSIDE}/{name}" if name else OUTSIDE


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
