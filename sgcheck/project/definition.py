"""The :class:`Project` a run works on: its root, its configuration and where that came from, and
what a walk of its folders leaves out.

``sgcheck check``, ``replay`` and ``fmt`` and the language server all find their configuration
here (:func:`load_project`), in one order of precedence:

1. ``--isolated``: none, the defaults;
2. ``--config FILE``: that file, whatever else is near;
3. an audit (``replay --audit``, ``--dispute``): none, since the logs' sender could have put a
   ``pyproject.toml`` beside them or above them that switches checks off;
4. the nearest ``pyproject.toml`` with a ``[tool.sgcheck]`` table, searched upward from the first
   path named (from the working directory when that is standard input);
5. none found: the defaults.

The file is read by :mod:`sgcheck.config`, which places each problem on its setting, and a folder
is walked by :mod:`sgcheck.discovery`; what the walk leaves out (:meth:`Project.discovery`) is
decided here, once, for every command and the editor.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from sgcheck.config import Codes, Config, find_pyproject, load_config
from sgcheck.discovery import DiscoveryOptions, PatternError, Patterns, patterns
from sgcheck.paths import display, found_display

__all__ = ["Origin", "Project", "load_project", "start_of"]


class Origin(Enum):
    """Where a project's configuration came from."""

    GIVEN = "given"  # --config FILE
    FOUND = "found"  # the nearest pyproject.toml with a [tool.sgcheck] table
    NONE = "none"  # none was found: the defaults
    ISOLATED = "isolated"  # --isolated: none was looked for
    AUDIT = "audit"  # an audit reads none beside or above its logs unless --config names one

    @property
    def looked(self) -> bool:
        """A configuration was looked for (or given): the run says which, or that there is none."""
        return self not in (Origin.ISOLATED, Origin.AUDIT)


@dataclass(frozen=True, slots=True)
class Project:
    """What a run works on. ``root``: the folder its configuration lies in (its ``exclude``
    patterns are relative to it), else the folder the search started from; ``origin``: where the
    configuration came from; ``config``: the settings read (None: no file was read, the defaults
    apply; a file that could not be read or is invalid is a :class:`Config` whose ``problems``
    say so)."""

    root: str
    origin: Origin
    config: Config | None = None

    @property
    def settings(self) -> Config:
        """The settings in force: the file's, or the defaults."""
        return self.config if self.config is not None else Config()

    @property
    def shown(self) -> str | None:
        """The configuration file as reports name it, or None."""
        return self.config.source if self.config is not None else None

    def described(self) -> str:
        """The ``--verbose`` line that says which configuration is in force."""
        return f"sgcheck: configuration: {self.shown or 'none (defaults)'}"

    def discovery(
        self,
        exclude: Sequence[str] = (),
        extend_exclude: Sequence[str] = (),
        *,
        force_exclude: bool = False,
        respect_gitignore: bool = True,
        whole_pack: bool = False,
        lenient: bool = False,
    ) -> DiscoveryOptions:
        """What a walk of the project's folders leaves out: ``exclude`` (relative to the working
        directory) or else the configuration's ``exclude`` (relative to its folder),
        ``extend_exclude`` as well, and what ignore files ignore (``respect_gitignore``);
        ``whole_pack``: a named card file brings in the pack that lists it (``check``). A pattern
        that cannot be used is :class:`~sgcheck.discovery.PatternError`; ``lenient`` (the editor,
        which keeps checking while ``check`` reports it) leaves such a configured set out."""
        here = os.getcwd()
        found: list[Patterns] = []
        if exclude:
            found.append(patterns(here, exclude))
        elif self.config is not None and self.config.exclude and self.config.folder is not None:
            try:
                found.append(patterns(self.config.folder, self.config.exclude))
            except PatternError:
                if not lenient:
                    raise
        if extend_exclude:
            found.append(patterns(here, extend_exclude))
        return DiscoveryOptions(
            tuple(found), respect_gitignore=respect_gitignore, force_exclude=force_exclude, whole_pack=whole_pack
        )


def start_of(paths: Sequence[str]) -> Path:
    """Where the search for a configuration starts: the first path named, or the working
    directory when it is standard input (``-``) or nothing is named."""
    return Path(paths[0]) if paths and paths[0] != "-" else Path.cwd()


def load_project(
    paths: Sequence[str],
    *,
    codes: Callable[[], Codes],
    config_file: str | os.PathLike[str] | None = None,
    isolated: bool = False,
    audit: bool = False,
) -> Project:
    """The project of a run over ``paths`` (see the module's order of precedence). ``codes``: the
    codes its settings may name (``contract.code_catalogue``), asked for only when a configuration
    file is read, so a run without one does not load the contract's catalogue."""
    start = start_of(paths)
    absolute = os.path.abspath(start)
    here = absolute if os.path.isdir(absolute) else os.path.dirname(absolute)
    if isolated:
        return Project(here, Origin.ISOLATED)
    if config_file is not None:
        given = Path(config_file)
        config = load_config(given, display(os.fspath(config_file)), codes=codes())
        return Project(config.folder or here, Origin.GIVEN, config)
    if audit:
        return Project(here, Origin.AUDIT)
    found = find_pyproject(start)
    if found is None:
        return Project(here, Origin.NONE)
    config = load_config(found, found_display(found), codes=codes())
    return Project(config.folder or here, Origin.FOUND, config)
