"""The one table of file kinds: what a file's name says it holds, and which command reads it.

Every reader, walk, report and editor feature that decides what a file is by its name asks
:func:`kind_of` (or reads a tuple derived here from :data:`KINDS`); none writes a suffix of its
own. Names are compared with ASCII case folding (``letters.ascii_lower``), as every word a user
writes is: ``GAME.SGLOG`` is a log, and a name whose letters only look like ASCII ones is no kind.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum

from sgcheck.letters import ascii_lower

__all__ = [
    "CARD_SUFFIXES",
    "KINDS",
    "LOG_SUFFIX",
    "MANIFEST_NAMES",
    "SCENARIO_SUFFIXES",
    "YAML_SUFFIXES",
    "FileKind",
    "Kind",
    "command_of",
    "is_card_file",
    "is_kind",
    "is_manifest",
    "is_scenario_file",
    "is_yaml",
    "kind_of",
    "row",
]


class Kind(Enum):
    """What a file holds."""

    LOG = "log"  # a game log (docs/log-format.md)
    CARDS = "cards"  # cards in the card language
    YAML_CARDS = "yaml cards"  # the same cards written in YAML
    SCENARIO = "scenario"  # a scenario file (R24)
    MANIFEST = "manifest"  # a pack's manifest
    CONFIGURATION = "configuration"  # the project's settings ([tool.sgcheck])


@dataclass(frozen=True, slots=True)
class FileKind:
    """One row of the table: the kind, the names or endings that say it (exact names are matched
    on the whole file name, endings on its end), how a message names it (``noun``) and how a
    report's totals count it (``short``, ``many``), and the command that reads it (None: no
    command takes it as an input)."""

    kind: Kind
    endings: tuple[str, ...]
    noun: str
    short: str
    many: str
    command: str | None
    whole_name: bool = False

    def matches(self, folded: str) -> bool:
        """``folded`` (a file name, ASCII-folded) is of this kind."""
        return folded in self.endings if self.whole_name else folded.endswith(self.endings)


#: The table: each ending or name belongs to exactly one row (``tests/test_project.py``).
KINDS: tuple[FileKind, ...] = (
    FileKind(Kind.LOG, (".sglog",), "game log", "log", "logs", "replay"),
    FileKind(Kind.CARDS, (".sgcard",), "card file", "card file", "card files", "check"),
    FileKind(Kind.YAML_CARDS, (".sgcard.yaml", ".sgcard.yml"), "card file", "card file", "card files", "check"),
    FileKind(Kind.SCENARIO, (".scenario.yaml", ".scenario.yml"), "scenario", "scenario", "scenarios", "check"),
    FileKind(Kind.MANIFEST, ("sgpack.yaml", "sgpack.yml"), "pack manifest", "manifest", "manifests", "check", True),
    FileKind(
        Kind.CONFIGURATION, ("pyproject.toml",), "configuration file", "configuration", "configurations", None, True
    ),
)

_ROWS = {row.kind: row for row in KINDS}


def row(kind: Kind) -> FileKind:
    """The table's row of ``kind``."""
    return _ROWS[kind]


def kind_of(path: str | os.PathLike[str]) -> FileKind | None:
    """The kind a file's name says (only its last part is read), or None for any other name."""
    name = ascii_lower(os.fspath(path).rsplit("/", 1)[-1])
    return next((found for found in KINDS if found.matches(name)), None)


def is_kind(path: str | os.PathLike[str], *kinds: Kind) -> bool:
    found = kind_of(path)
    return found is not None and found.kind in kinds


#: What names a log: the ending a folder walk of ``sgcheck replay`` looks for.
LOG_SUFFIX = _ROWS[Kind.LOG].endings[0]
#: The endings of card files, in the card language or in YAML.
CARD_SUFFIXES = _ROWS[Kind.CARDS].endings + _ROWS[Kind.YAML_CARDS].endings
#: The endings of scenario files; the first is the one a name without an ending is tried with.
SCENARIO_SUFFIXES = _ROWS[Kind.SCENARIO].endings
#: The names of a pack's manifest, the first preferred.
MANIFEST_NAMES = _ROWS[Kind.MANIFEST].endings
#: The endings of a YAML file: a card file a manifest lists with one is read as YAML cards.
YAML_SUFFIXES = (".yaml", ".yml")


def is_card_file(path: str | os.PathLike[str]) -> bool:
    """A card file, in the card language or in YAML."""
    return is_kind(path, Kind.CARDS, Kind.YAML_CARDS)


def is_scenario_file(path: str | os.PathLike[str]) -> bool:
    return is_kind(path, Kind.SCENARIO)


def is_manifest(path: str | os.PathLike[str]) -> bool:
    return is_kind(path, Kind.MANIFEST)


def is_yaml(path: str | os.PathLike[str]) -> bool:
    """A YAML file by its ending (a card file a manifest lists is read as YAML then)."""
    return ascii_lower(os.fspath(path)).endswith(YAML_SUFFIXES)


def command_of(path: str | os.PathLike[str]) -> str | None:
    """The command that reads a file of this name (``replay``, ``check``), or None."""
    found = kind_of(path)
    return found.command if found is not None else None
