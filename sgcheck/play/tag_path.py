"""Where a log's ``[Pack]`` or ``[Scenario]`` tag points, or the command line's path instead.

A tag is read relative to the log's folder and must stay inside it, through ``..``, an absolute
path or a symbolic link: a log found in a corpus must not make sgcheck read, and quote, files
elsewhere on the machine. A path given on the command line is the user's own choice and may
point anywhere. The pack and the scenario a game is played with are located by the same rule,
each with its own codes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sgcheck import codes
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.paths import display, real_path


@dataclass(frozen=True, slots=True)
class TagKind:
    """What a tag names, and the codes and words of its problems."""

    tag: str  # "Pack"
    noun: str  # "pack": "the [Pack] tag names no pack"
    missing: str  # the code for nothing to read there
    outside: str  # the code for a tag leading out of the log's folder
    option: str  # the command-line option that overrides the tag
    hint: str  # how a tag is read, for a tag that names nothing


@dataclass(frozen=True, slots=True)
class Located:
    """A path to read: as given to the file system, as the report names it, where a problem with it
    is placed, and the folder a tag must stay in (None for a command-line path)."""

    given: str
    shown: str
    where: Span
    folder: str | None


def locate(
    kind: TagKind, path: str, *, log_folder: str | None, from_tag: bool, span: Span | None
) -> Located | Diagnostic:
    """Where ``path`` points: a tag's value joined to ``log_folder`` (None: the working directory)
    and kept inside it, or a command-line path taken as given; or the diagnostic for a tag that names
    nothing or leads outside. A problem is placed at ``span``, or on the path itself."""
    if not from_tag:
        shown = display(path)
        return Located(path, shown, span if span is not None else Span.point(shown), None)
    folder = log_folder if log_folder is not None else "."
    relative = os.path.normpath(path.replace("\\", "/"))  # as a manifest's card paths are read
    given = shown = display(os.path.join(folder, relative))
    where = span if span is not None else Span.point(shown)
    if not path.strip():
        return codes.diagnostic(kind.missing, f"the [{kind.tag}] tag names no {kind.noun}", hint=kind.hint).at(where)
    if leaves_folder(path, relative, shown, folder):
        return codes.diagnostic(
            kind.outside,
            f"the [{kind.tag}] tag names '{path}', which is outside the log's folder",
            hint=f"copy the {kind.noun} into the log's folder, or give it on the command line with {kind.option}",
        ).at(where)
    return Located(given, shown, where, folder)


def leaves_folder(path: str, relative: str, joined: str, folder: str) -> bool:
    """The tag is absolute, or leads out of ``folder``: by ``..``, or once the symbolic links of
    ``joined`` (the path that will be read) are resolved."""
    if os.path.isabs(path) or path.startswith(("/", "\\")) or (len(path) > 1 and path[1] == ":"):
        return True
    if relative == ".." or relative.startswith("../"):
        return True
    if "\x00" in path:
        return False  # not a name at all: nothing there (the "missing" code)
    return not real_path(Path(joined)).is_relative_to(real_path(Path(folder)))
