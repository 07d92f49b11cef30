"""What the language server finds in a document: the library's own checks, run on the editor's text.

Nothing here checks anything itself. A game log is replayed by :mod:`sgcheck.replay` (resumed from
a checkpoint of its previous analysis when only its end changed: :mod:`sgcheck.replay.resume`),
a card file, pack manifest or scenario is checked by :func:`sgcheck.contract.checker.plan_check`
with the settings of the nearest ``[tool.sgcheck]``, exactly as ``sgcheck replay`` and ``sgcheck
check`` do for the file on disk; the documents open in the editor stand for their files while it
runs (:func:`sgcheck.lang.source.overlaid`), so unsaved text is what is checked, a pack's manifest
or a log's pack included. No function here raises: a failure of sgcheck itself is SG-X001 on the
document, as the command line reports it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sgcheck import codes
from sgcheck.config import Config
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.paths import display
from sgcheck.project.kinds import command_of
from sgcheck.project.stamps import stamps
from sgcheck.replay.observer import GO, STOP, Flow, ReplayObserver
from sgcheck.replay.options import ReplayOptions, ReplayResult
from sgcheck.replay.resume import Checkpoint, first_change, replay_kept, usable

if TYPE_CHECKING:
    from sgcheck.project.definition import Project

LOG = "log"
CARDS = "cards"  # a card file, pack manifest or scenario: what ``sgcheck check`` reads


def kind_of(path: str) -> str | None:
    """What the server checks a file of this name as: a log, a file ``check`` reads, or nothing
    (the command that reads its kind, ``sgcheck.project.kinds``)."""
    return {"replay": LOG, "check": CARDS}.get(command_of(path) or "")


class Cancelled(Exception):
    """A newer version of the document (or of a file it reads) supersedes this analysis."""


@dataclass(slots=True)
class Found:
    """One analysis: the findings for each file they are on (by absolute path; the document's own
    path always present, possibly with none), the files it read (a change to any of them asks for
    it again), and for a log its replay."""

    findings: dict[str, list[Diagnostic]]
    reads: set[str] = field(default_factory=set)
    replay: ReplayResult | None = None


@dataclass(slots=True)
class LogMemory:
    """What the previous analysis of a log leaves for the next: its text, the settings and files it
    was replayed with (any change to them voids the checkpoints) and its checkpoints."""

    text: str = ""
    key: tuple[object, ...] | None = None
    checkpoints: list[Checkpoint] = field(default_factory=list)
    reads: list[str] = field(default_factory=list)  # the pack's and scenario's files


def project_for(path: str) -> Project:
    """The project of the file at ``path`` as ``sgcheck check PATH`` or ``replay PATH`` finds it:
    the nearest ``[tool.sgcheck]`` above it (``sgcheck.project.definition``)."""
    from sgcheck.contract import code_catalogue
    from sgcheck.project.definition import load_project

    return load_project([path], codes=code_catalogue)


def shown_path(path: str) -> str:
    """A file as the command line run from the working directory names it (relative when it can)."""
    from sgcheck.paths import OUTSIDE, found_display

    shown = found_display(path)
    return os.path.abspath(path) if shown.startswith(OUTSIDE) else shown  # outside: as the editor names it


class _Watch(ReplayObserver):
    """Tells the turn loop to stop when the analysis is no longer wanted (``stopped``: it did)."""

    def __init__(self, cancelled: Callable[[], bool]) -> None:
        self.cancelled = cancelled
        self.stopped = False

    def step_begins(self) -> Flow:
        if self.cancelled():
            self.stopped = True
            return STOP
        return GO


def replay_options(config: Config) -> tuple[ReplayOptions, object]:
    """The options ``sgcheck replay FILE`` runs with under ``config``, and its selection."""
    from sgcheck.contract import code_catalogue

    values = config.replay
    options = ReplayOptions(keep_going=bool(values.keep_going), ruleset=values.ruleset)
    try:
        selection = values.selection(code_catalogue())
    except ValueError:
        selection = None
    return options, selection


def analyse_log(
    path: str,
    text: str,
    memory: LogMemory | None = None,
    *,
    cancelled: Callable[[], bool] = lambda: False,
    observer: ReplayObserver | None = None,
) -> Found:
    """Replay the log at ``path`` whose text is ``text`` as ``sgcheck replay PATH`` would (its
    ``[tool.sgcheck.replay]`` settings and selection); ``memory`` (updated) resumes from the last
    checkpoint before the first change since its previous analysis."""
    from sgcheck.lang.source import LOG_LIMIT, decode
    from sgcheck.replay.files import replay_file_result
    from sgcheck.selection import Selection

    absolute = os.path.abspath(path)
    shown = shown_path(absolute)
    config = project_for(absolute).settings
    options, selection = replay_options(config)
    source = decode(text.encode("utf-8", "replace"), shown, limit=LOG_LIMIT)
    if isinstance(source, Diagnostic):
        return Found({absolute: [source.at(source.span or Span.point(shown))]})
    folder = os.path.dirname(shown) or "."
    # the checkpoints hold the pack and scenario the log was replayed with: void when a file changed
    key = (options, config.source, shown, stamps(memory.reads) if memory is not None else ())
    start = None
    if memory is not None and memory.key == key and memory.checkpoints:
        start, valid = usable(memory.checkpoints, first_change(memory.text, text))
    else:
        valid = []
    watch = observer if observer is not None else _Watch(cancelled)
    try:
        result, kept = replay_kept(source, options, folder=folder, start=start, observer=watch)
    except (Exception, RecursionError, MemoryError) as error:
        return Found({absolute: [codes.internal_error(error).at(Span.point(shown))]})
    if isinstance(watch, _Watch) and watch.stopped:
        raise Cancelled  # the analysis is no longer wanted: its findings are never shown
    reads = _log_reads(result, shown)
    if memory is not None:
        memory.text, memory.checkpoints, memory.reads = text, [*valid, *kept], sorted(reads)
        memory.key = (*key[:3], stamps(memory.reads))
    filed = replay_file_result(shown, result, with_summary=False)
    if isinstance(selection, Selection):
        filed = selection.filter(filed)
    found = Found({absolute: []}, replay=result)
    found.findings[absolute].extend(filed.diagnostics)
    found.reads = reads
    return found


def _log_reads(result: ReplayResult, shown: str) -> set[str]:
    """The files a log's replay read besides the log: its pack's and its scenario's."""
    reads: set[str] = set()
    if result.pack is not None:
        reads.update(os.path.abspath(name) for name in result.pack.sources)
        reads.update(_pack_files(result.pack.shown))
    if result.scenario is not None:
        reads.update(os.path.abspath(name) for name in result.scenario.sources)
    return reads


def _pack_files(given: str) -> set[str]:
    """The manifest and card files of the pack at ``given`` (a folder or a card file)."""
    from sgcheck.contract.packs import discover
    from sgcheck.core.ruleset import CORE

    try:
        files: set[str] = set()
        for plan in discover([given], CORE)[:1]:
            if plan.manifest is not None:
                files.add(os.path.abspath(plan.manifest.path))
            files.update(os.path.abspath(source.path) for source in plan.files)
        return files
    except (Exception, RecursionError):
        return set()


def analyse_cards(path: str) -> Found:
    """Check the card file, manifest or scenario at ``path`` as ``sgcheck check PATH`` would (its
    pack with it, the nearest ``[tool.sgcheck]`` applied): the findings on every file of the pack."""
    from sgcheck.contract.checker import plan_check

    absolute = os.path.abspath(path)
    shown = shown_path(absolute)
    found = Found({absolute: []})
    try:
        project = project_for(absolute)
        # as ``check PATH`` discovers: a card file brings in the pack that lists it; a pattern
        # that cannot be used is check's to report, and the editor keeps checking
        job = plan_check([shown], project.settings, discovery=project.discovery(whole_pack=True, lenient=True))
        for plan in job.plans:
            if plan.manifest is not None:
                found.reads.add(os.path.abspath(plan.manifest.path))
            found.reads.update(os.path.abspath(source.path) for source in plan.files)
        for result, _texts in job.results():
            on = os.path.abspath(result.path)
            kept = found.findings.setdefault(on, [])
            kept.extend(result.diagnostics)  # suppressed findings are listed apart, and not shown
    except (Exception, RecursionError, MemoryError) as error:
        found.findings[absolute] = [codes.internal_error(error).at(Span.point(shown))]
    return found


def analyse(
    path: str,
    text: str,
    open_texts: Mapping[str, str],
    memory: LogMemory | None = None,
    *,
    cancelled: Callable[[], bool] = lambda: False,
) -> Found:
    """Analyse the document at ``path`` (``text``), with every open document (absolute path to
    text) standing for its file."""
    from sgcheck.lang.source import overlaid

    kind = kind_of(path)
    with overlaid({**open_texts, os.path.abspath(path): text}):
        if kind == LOG:
            return analyse_log(path, text, memory, cancelled=cancelled)
        if kind == CARDS:
            return analyse_cards(path)
    return Found({os.path.abspath(path): []})


__all__ = ["CARDS", "LOG", "Cancelled", "Found", "LogMemory", "analyse", "display", "kind_of"]
