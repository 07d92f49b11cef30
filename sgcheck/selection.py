"""Which findings a run reports: the codes selected and ignored, for every file or per file.

One meaning for both commands, spelled as linters spell it: ``--select`` (the codes reported;
default: all), ``--extend-select`` (more on top), ``--ignore`` (taken away), and per-file ignores
(``GLOB:CODES``). Codes may be written in any of the spellings :func:`sgcheck.codes.select_codes`
accepts: ``SG-C050``, ``C050``, ``c050``, a rule's name, or a prefix naming a family (``C05``).
Codes that say an input could not be read are never switched off.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from pathlib import PurePosixPath

from sgcheck.codes import CodeInfo, select_codes, unknown_code
from sgcheck.diagnostics import Diagnostic
from sgcheck.results import FileResult


class SelectionError(ValueError):
    """A spelling that names no code, or a per-file entry without its ``GLOB:CODES`` shape."""


@dataclass(frozen=True, slots=True)
class PerFile:
    """Codes not reported in the files a glob matches (``packs/legacy/*.sgcard``, ``*.sglog``)."""

    glob: str
    codes: frozenset[str]

    def matches(self, path: str) -> bool:
        posix = path.replace("\\", "/").removeprefix("./")
        return PurePosixPath(posix).match(self.glob) or fnmatchcase(posix, self.glob)


@dataclass(frozen=True, slots=True)
class Selection:
    """The codes a run does not report: everywhere, and in the files of each per-file entry."""

    ignored: frozenset[str] = frozenset()
    per_file: tuple[PerFile, ...] = ()

    def reports(self, diagnostic: Diagnostic) -> bool:
        if diagnostic.code in self.ignored:
            return False
        if self.per_file and diagnostic.span is not None:
            source = diagnostic.span.source
            return not any(diagnostic.code in entry.codes and entry.matches(source) for entry in self.per_file)
        return True

    def filter(self, result: FileResult) -> FileResult:
        """``result`` without the findings this selection does not report."""
        if not self.ignored and not self.per_file:
            return result
        kept = tuple(d for d in result.diagnostics if self.reports(d))
        if len(kept) == len(result.diagnostics):
            return result
        hidden = tuple(d.code for d in result.diagnostics if not self.reports(d))
        return replace(result, diagnostics=kept, hidden=result.hidden + hidden)


def codes_named(spellings: Iterable[str], catalogue: Mapping[str, CodeInfo]) -> frozenset[str]:
    """Every code the spellings name; :class:`SelectionError` for one that names none."""
    found: set[str] = set()
    for spelling in spellings:
        named = select_codes(spelling, catalogue)
        if not named:
            hint = unknown_code(spelling, catalogue)
            raise SelectionError(f"{spelling!r} names no code{hint} ('sgcheck explain --list' shows them)")
        found |= named
    return frozenset(found)


def selection(
    catalogue: Mapping[str, CodeInfo],
    *,
    select: Iterable[str] | None = None,
    extend_select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    per_file: Iterable[str] = (),
    always_on: frozenset[str] = frozenset(),
) -> Selection:
    """The selection the options spell: ``select`` (None: every code) and ``extend_select`` less
    ``ignore``; ``per_file`` entries are ``GLOB:CODE,CODE``. ``always_on`` codes stay reported."""
    chosen = codes_named(select, catalogue) if select is not None else frozenset(catalogue)
    chosen |= codes_named(extend_select, catalogue)
    ignored = (frozenset(catalogue) - chosen) | codes_named(ignore, catalogue)
    entries = tuple(per_file_entry(entry, catalogue, always_on) for entry in per_file)
    return Selection(ignored - always_on, entries)


def per_file_entry(entry: str, catalogue: Mapping[str, CodeInfo], always_on: frozenset[str] = frozenset()) -> PerFile:
    """``GLOB:CODE,CODE`` as a :class:`PerFile` (the last ``:`` separates: a glob may hold one)."""
    glob, colon, spelled = entry.rpartition(":")
    if not colon or not glob.strip() or not spelled.strip():
        raise SelectionError(f"{entry!r} is not GLOB:CODES (for example 'legacy/*.sgcard:C120,C121')")
    codes = codes_named((c for c in spelled.replace(" ", ",").split(",") if c), catalogue)
    return PerFile(glob.strip(), codes - always_on)
