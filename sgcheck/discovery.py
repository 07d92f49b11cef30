"""Which files a walk of a folder finds: one walk for ``sgcheck check`` and ``sgcheck replay``.

:func:`walk` goes through a folder as ``os.walk`` does, in sorted order, hidden folders
skipped, and leaves out what git ignores and what the exclude patterns name, so the pack
search (``contract/packs.py``) and the log search (``replay/files.py``) find files the same
way. Each caller decides which of the names it keeps and how a link leaving the folder is
reported (``paths.links_out_of``).

Ignore files, as git reads them (docs/ci.md, "Which files are checked"):

- inside a git repository (the nearest folder upward holding ``.git``), its
  ``.git/info/exclude`` and the ``.gitignore`` of every folder from the repository root down
  to the walked folder, then the ``.gitignore`` files met while walking; a deeper file's rules
  come before those of a shallower one, and within a file the last matching line decides;
- outside a repository, only the ``.gitignore`` files inside the walked folder.

The user's global ignore file (``core.excludesFile``) is not read, so a run gives the same
answer on every machine. Every ignore file is read within ``CONFIG_LIMIT``; one that cannot be
read (too large, not text, a device) is skipped, and a line git would not accept is skipped.

Patterns are matched by the ``pathspec`` library (``GitIgnoreSpec``), whose matching uses
regular expressions that backtrack: a pattern with more than :data:`MAX_WILDCARDS` runs of
``*`` could take time growing with a power of the path's length, so such a line of an ignore
file is not used, and such an ``--exclude`` pattern is refused (:func:`pattern_problem`).
A folder named on the command line is searched under the same rules: when git ignores it, or
an exclude pattern names it, nothing inside it is found.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.source import CONFIG_LIMIT, read_source
from sgcheck.paths import display

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

IGNORE_FILE = ".gitignore"
#: Most runs of ``*`` (``**`` is one run) a pattern may hold; see the module docstring.
MAX_WILDCARDS = 2


class PatternError(ValueError):
    """An exclude pattern that cannot be used; the message says why."""


def pattern_problem(line: str) -> str | None:
    """Why ``line`` cannot be used as a gitignore-style pattern, or None when it can."""
    if "\x00" in line:
        return "a pattern cannot hold a NUL character"
    if _wildcard_runs(line) > MAX_WILDCARDS:
        return f"a pattern may hold at most {MAX_WILDCARDS} runs of '*' ('**' counts as one)"
    from pathspec import GitIgnoreSpec

    try:
        GitIgnoreSpec.from_lines([line])
    except (ValueError, TypeError) as error:  # pathspec's pattern errors are ValueErrors
        return f"not a gitignore pattern ({error})"
    return None


def _wildcard_runs(line: str) -> int:
    """Runs of unescaped ``*`` in ``line``, one pass."""
    runs = 0
    escaped = in_run = False
    for char in line:
        if escaped:
            escaped = in_run = False
        elif char == "\\":
            escaped, in_run = True, False
        elif char == "*":
            if not in_run:
                runs += 1
            in_run = True
        else:
            in_run = False
    return runs


def _compile(lines: Iterable[str]) -> GitIgnoreSpec:
    """The usable lines compiled as one spec; the others are left out."""
    from pathspec import GitIgnoreSpec

    kept = [line for line in lines if "\x00" not in line and _wildcard_runs(line) <= MAX_WILDCARDS]
    try:
        return GitIgnoreSpec.from_lines(kept)
    except (ValueError, TypeError):  # one bad line: find it and leave it out
        return GitIgnoreSpec.from_lines([line for line in kept if pattern_problem(line) is None])


@dataclass(frozen=True, slots=True)
class Patterns:
    """Gitignore-style patterns, relative to the folder ``base`` (an absolute path)."""

    base: str
    spec: GitIgnoreSpec

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True when the last pattern matching ``path`` (absolute) excludes it, False when it
        is a ``!`` pattern, None when no pattern matches or ``path`` is not under ``base``."""
        try:
            relative = os.path.relpath(path, self.base)
        except ValueError:  # another drive
            return None
        if relative == os.curdir or relative == os.pardir or relative.startswith(os.pardir + os.sep):
            return None
        relative = relative.replace(os.sep, "/") + ("/" if is_dir else "")
        return self.spec.check_file(relative).include


def patterns(base: str, lines: Sequence[str]) -> Patterns:
    """``lines`` as patterns relative to ``base``; :class:`PatternError` names the first bad one."""
    for line in lines:
        problem = pattern_problem(line)
        if problem is not None:
            raise PatternError(f"{line!r}: {problem}")
    return Patterns(os.path.abspath(base), _compile(lines))


@dataclass(frozen=True, slots=True)
class DiscoveryOptions:
    """What a walk leaves out.

    ``exclude``: pattern sets (the command line's, relative to the working directory, and the
    configuration's, relative to its folder); a path is excluded when one of them excludes it.
    ``respect_gitignore``: leave out what git ignores. ``force_exclude``: a file named on the
    command line is left out too when the exclude patterns name it (ignore files never leave
    out a named file). ``whole_pack``: a card file named on the command line that a pack lists
    brings in its whole pack (``sgcheck check``; see ``contract/packs.py``).
    """

    exclude: tuple[Patterns, ...] = ()
    respect_gitignore: bool = True
    force_exclude: bool = False
    whole_pack: bool = False

    def excluded(self, path: str, is_dir: bool) -> bool:
        """An exclude pattern names ``path`` (as given or absolute) or a folder holding it."""
        absolute = os.path.abspath(path)
        return any(patterns.decide(absolute, is_dir) for patterns in self.exclude)

    def skips_named(self, path: str) -> bool:
        """``path`` was named on the command line and ``--force-exclude`` leaves it out."""
        return self.force_exclude and bool(self.exclude) and self.excluded(path, _is_dir(path))


DEFAULT = DiscoveryOptions()


def repository_root(start: str) -> str | None:
    """The nearest folder from ``start`` upward that holds ``.git`` (a folder, or the file of
    a worktree or submodule), as a real path; None outside a repository."""
    here = os.path.realpath(start)
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def walk(root: str, options: DiscoveryOptions = DEFAULT) -> Iterator[tuple[str, list[str], list[str]]]:
    """``(folder, subfolders, files)`` for every folder under ``root`` that is searched, as
    ``os.walk`` gives them (``folder`` joined onto ``root`` as given), sorted, without hidden
    folders and without what is ignored or excluded. A caller may prune ``subfolders``."""
    real_root = os.path.realpath(root)
    absolute_root = os.path.abspath(root)
    above = _ignore_files_above(real_root) if options.respect_gitignore else ()
    inherited: dict[str, tuple[Patterns, ...]] = {}
    for folder, subfolders, names in os.walk(root):
        relative = os.path.relpath(folder, root)
        real = os.path.normpath(os.path.join(real_root, relative))
        absolute = os.path.normpath(os.path.join(absolute_root, relative))
        rules = inherited.pop(folder, above)
        if options.respect_gitignore and IGNORE_FILE in names:
            own = _read_ignore_file(os.path.join(folder, IGNORE_FILE), real)
            if own is not None:
                rules = (*rules, own)
        place = _Place(real, absolute, rules, options)
        kept = [d for d in sorted(subfolders) if not d.startswith(".") and not place.skips(d, True)]
        subfolders[:] = kept
        for name in kept:
            inherited[os.path.join(folder, name)] = rules
        yield folder, subfolders, [name for name in sorted(names) if not place.skips(name, False)]


@dataclass(frozen=True, slots=True)
class _Place:
    """One folder of a walk: its real and absolute paths and the ignore files that apply there."""

    real: str
    absolute: str
    rules: tuple[Patterns, ...]
    options: DiscoveryOptions

    def skips(self, name: str, is_dir: bool) -> bool:
        if self.options.exclude and self.options.excluded(os.path.join(self.absolute, name), is_dir):
            return True
        path = os.path.join(self.real, name)
        for patterns in reversed(self.rules):  # the deepest ignore file with a matching line decides
            decision = patterns.decide(path, is_dir)
            if decision is not None:
                return decision
        return False


def _ignore_files_above(real_root: str) -> tuple[Patterns, ...]:
    """The repository's ``.git/info/exclude`` and the ``.gitignore`` files of the folders from
    the repository root down to the parent of ``real_root``, shallowest first."""
    repository = repository_root(real_root)
    if repository is None:
        return ()
    found: list[Patterns] = []
    git = os.path.join(repository, ".git")
    if os.path.isdir(git):
        info = _read_ignore_file(os.path.join(git, "info", "exclude"), repository)
        if info is not None:
            found.append(info)
    relative = os.path.relpath(real_root, repository)
    parts = [] if relative == os.curdir else relative.split(os.sep)
    folder = repository
    for part in parts:
        own = _read_ignore_file(os.path.join(folder, IGNORE_FILE), folder)
        if own is not None:
            found.append(own)
        folder = os.path.join(folder, part)
    return tuple(found)


def _read_ignore_file(path: str, base: str) -> Patterns | None:
    """The usable lines of one ignore file, or None when it is absent, unreadable or empty."""
    if not os.path.isfile(path):
        return None
    read = read_source(path, display(path), limit=CONFIG_LIMIT)
    if isinstance(read, Diagnostic):
        return None
    lines = [line for line in read.text.split("\n") if line.strip() and not line.startswith("#")]
    if not lines:
        return None
    return Patterns(base, _compile(lines))


def _is_dir(path: str) -> bool:
    try:
        return os.path.isdir(path)
    except (OSError, ValueError):
        return False
