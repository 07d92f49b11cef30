"""The files a replay will read besides its logs, known before it runs: those a log's tags lead to.

``replay -o FILE`` must not write over a file the run reads, whatever the route: the logs and
the command line's ``--pack`` and ``--scenario`` are known at once, and so are the pack and the
scenario each log's ``[Pack]`` and ``[Scenario]`` tags name (read here from the log's header,
located by the rule replay follows, :mod:`sgcheck.play.tag_path`). The guard asks before any
game is replayed; what a run reads that is not known here is still never written over (the
report is held until the run ends and checked against every file read, ``sgcheck.cli.common``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.ast import Header
from sgcheck.lang.source import LOG_LIMIT, decode, read_bytes_head
from sgcheck.play.tag_path import Located, TagKind, locate

#: How much of a log is read for its header: a header longer than this is rare, and what it
#: leads to is still guarded when the log is replayed.
HEADER_BYTES = 64 << 10


def tag_reads(log: str) -> list[str]:
    """The files the ``[Pack]`` and ``[Scenario]`` tags of the log at ``log`` lead a replay to
    read (a pack's manifest and card files, a scenario file), as far as they can be known; none
    when the log cannot be read or has no such tag."""
    from sgcheck.lang.logs.reader import read_log
    from sgcheck.play.game_scenario import SCENARIO_TAG
    from sgcheck.play.pack import PACK_TAG

    head = read_bytes_head(log, HEADER_BYTES)
    if head is None:
        return []
    cut = max(head.rfind(b"\n"), head.rfind(b"\r")) + 1 if len(head) == HEADER_BYTES else len(head)
    source = decode(head[:cut], log, limit=LOG_LIMIT)
    if isinstance(source, Diagnostic):
        return []
    try:
        first = next(iter(read_log(source)), None)
    except Exception:  # a log the replay will report on: its tags lead nowhere yet
        return []
    if not isinstance(first, Header):
        return []
    found: list[str] = []
    folder = os.path.dirname(log) or "."
    kinds: tuple[TagKind, ...] = (PACK_TAG, SCENARIO_TAG)
    for kind in kinds:
        tag = first.get(kind.tag)
        if tag is None:
            continue
        located = locate(kind, tag.value, log_folder=folder, from_tag=True, span=None)
        if isinstance(located, Located):
            found.extend(pack_reads(located.given))
    return found


def pack_reads(given: str) -> list[str]:
    """What naming ``given`` as a pack or a scenario reads: the file itself, a scenario by its
    short name, and a pack's manifest and card files (its folder's, or its manifest's)."""
    return list(dict.fromkeys(_pack_reads(given)))


def _pack_reads(given: str) -> Iterator[str]:
    from sgcheck.contract.packs import discover
    from sgcheck.core.ruleset import CORE
    from sgcheck.project.kinds import SCENARIO_SUFFIXES, is_manifest

    path = Path(given)
    yield given
    yield given + SCENARIO_SUFFIXES[0]
    try:
        folder = path if path.is_dir() else path.parent if is_manifest(path.name) else None
        if folder is None:
            return
        for plan in discover([str(folder)], CORE):
            if plan.manifest is not None:
                yield str(plan.manifest.path)
            yield from (str(source.path) for source in plan.files)
    except (OSError, ValueError, RecursionError):
        return
