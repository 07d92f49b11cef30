"""Game logs as files: which logs a command line names, and each one replayed safely.

``sgcheck replay`` takes files, folders (searched for ``*.sglog``) and ``-`` for standard
input. :func:`replay_input` turns one of them into a :class:`~sgcheck.results.FileResult`
and never raises: a file that cannot be read is reported (SG-P008 and the reading codes),
and a failure of sgcheck itself on one log becomes SG-X001 for that log alone, so the
other logs are still replayed and every output format stays a complete document.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO, Protocol

from sgcheck import codes
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.discovery import DEFAULT, DiscoveryOptions, walk
from sgcheck.distribute import DEFAULT_TIMEOUT, map_ordered
from sgcheck.lang.source import SourceChanged, SourceText, SourceTexts, read_source, read_stream
from sgcheck.letters import ascii_lower
from sgcheck.paths import display, links_out_of
from sgcheck.project.kinds import LOG_SUFFIX
from sgcheck.replay.dice_check import merged
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source
from sgcheck.replay.summary import replay_summary, summary_facts
from sgcheck.results import FileResult, ReplayFacts
from sgcheck.selection import Selection

STDIN = "-"
STDIN_NAME = "<stdin>"


@dataclass(frozen=True, slots=True)
class LogInput:
    """One log to replay: ``path`` as shown to the user, or a problem found while looking for it."""

    path: str
    problem: Diagnostic | None = None


def discover_logs(paths: Sequence[str], discovery: DiscoveryOptions = DEFAULT) -> list[LogInput]:
    """The logs named by ``paths``: files as given, folders searched for ``*.sglog``.

    Folders are walked by :func:`sgcheck.discovery.walk`: in sorted order, hidden folders
    skipped, and what git ignores or an exclude pattern names left out. A file found in a
    folder that is a symbolic link leaving that folder is not read (it could be anything on
    the machine, and a report would quote it); it is reported instead. A file named in
    ``paths`` is always replayed, unless ``--force-exclude`` and an exclude pattern names it.
    """
    found: list[LogInput] = []
    for given in paths:
        if given != STDIN and discovery.skips_named(given):
            continue
        if given != STDIN and os.path.isdir(given):
            found.extend(_walk(given, discovery))
        else:
            found.append(LogInput(given))
    return found


def _walk(root: str, discovery: DiscoveryOptions) -> Iterator[LogInput]:
    # The walk never enters a linked folder, so only a file that is itself a link can lead out of
    # ``root``: the others are not resolved (one system call a file instead of one a path part).
    for folder, _subfolders, names in walk(root, discovery):
        links = _links_in(folder) if names else frozenset()
        for name in names:
            if not ascii_lower(name).endswith(LOG_SUFFIX):
                continue
            path = os.path.join(folder, name)
            shown = display(path)
            linked = name in links if links is not None else os.path.islink(path)
            if linked and links_out_of(Path(path), Path(root)):
                problem = codes.diagnostic(
                    "SG-P008",
                    f"not read: {shown!r} is a link to a file outside the folder {display(root)!r}",
                    hint="name the file itself on the command line to replay it",
                ).at(Span.point(shown))
                yield LogInput(shown, problem)
            else:
                yield LogInput(shown)


def _links_in(folder: str) -> frozenset[str] | None:
    """The names of the symbolic links in ``folder``, from one read of the folder rather than a
    system call a file (None when it cannot be read: each file is then asked)."""
    try:
        with os.scandir(folder) as entries:
            return frozenset(entry.name for entry in entries if entry.is_symlink())
    except OSError:
        return None


def replay_file_result(
    path: str, result: ReplayResult, *, with_summary: bool = True, with_facts: bool = True
) -> FileResult:
    """A replay's outcome as a report entry: findings, the summary block and its facts (each
    worked out only when asked for: a report that writes no facts has no use for them)."""
    return FileResult(
        path=path,
        diagnostics=result.diagnostics,
        summary=replay_summary(result) if with_summary else None,
        facts=summary_facts(result) if with_facts else None,
    )


def replay_input(
    log: LogInput,
    options: ReplayOptions,
    *,
    with_summary: bool = True,
    stdin: BinaryIO | None = None,
    progress: Progress | None = None,
    stdin_name: str = STDIN_NAME,
    selection: Selection | None = None,
    extra: Sequence[Diagnostic] = (),
    with_facts: bool = True,
    text: SourceText | None = None,
) -> tuple[FileResult, Mapping[str, str]]:
    """Replay one log; the result and the source texts its findings point into (the log's, and
    its pack's card files). A ``[Pack]`` tag is read relative to the log's folder (for standard
    input, the folder of ``stdin_name``). ``extra``: findings on the log from the whole run (a
    secret another log shares, :mod:`sgcheck.replay.dice_reuse`), placed among the log's by
    position. Findings ``selection`` does not report are left out. ``with_facts``: False when
    the report writes no facts (text, SARIF, GitHub, JUnit), which are then not worked out.
    ``text``: the log's text, already read by this run (:func:`run_findings`), or None to read it.
    Never raises."""
    result, sources, _ = replay_log(
        log, options, with_summary, stdin, progress, stdin_name, with_facts=with_facts, text=text
    )
    if extra:
        result = replace(result, diagnostics=merged(result.diagnostics, list(extra)))
    return (selection.filter(result) if selection is not None else result), sources


#: How much of the logs' text (characters, in all) a run keeps from the pass over their headers
#: (:func:`run_findings`) to their replay, so that each log is read and decoded once: a log past
#: what is left, or too big to be kept whole, is read again when its replay comes.
HELD_CHARS = 32 << 20


def run_findings(
    logs: Sequence[LogInput], held: dict[str, SourceText] | None = None
) -> dict[str, tuple[Diagnostic, ...]]:
    """Findings of a run over several logs that no one log shows: a secret two logs share (DR3,
    SG-D107), by log path. Only the headers are read; a log that cannot be read is left to its
    replay to report. ``held``, when given, receives the texts read here (by log path, within
    :data:`HELD_CHARS` in all), for :func:`replay_all` to replay instead of reading each log again."""
    from sgcheck.replay.dice_reuse import log_commitments, reuse_by_log

    if len(logs) < 2:
        return {}
    found = {}
    room = HELD_CHARS
    for log in logs:
        if log.problem is not None or log.path == STDIN:
            continue
        source = read_source(log.path, display(log.path), streamed=True)
        if isinstance(source, SourceText):
            pieces = source.kept()
            if held is not None and pieces is not None and (size := sum(map(len, pieces))) <= room:
                held[log.path] = source
                room -= size
            try:
                found[log.path] = log_commitments(display(log.path), source)
            except SourceChanged:
                continue
    return {log: tuple(findings) for log, findings in reuse_by_log(found).items()}


def replay_log(
    log: LogInput,
    options: ReplayOptions,
    with_summary: bool = True,
    stdin: BinaryIO | None = None,
    progress: Progress | None = None,
    stdin_name: str = STDIN_NAME,
    *,
    with_facts: bool = True,
    text: SourceText | None = None,
) -> tuple[FileResult, Mapping[str, str], ReplayResult | None]:
    """:func:`replay_input` without a selection, with the replay itself (None when the log could
    not be read or replayed: the file result says why). Never raises."""
    if log.problem is not None:
        return FileResult(log.path, (log.problem,)), {}, None
    shown = stdin_name if log.path == STDIN else log.path
    try:
        source: SourceText | Diagnostic
        if log.path == STDIN:
            if stdin is None:
                raise ValueError("standard input is not available")
            source = read_stream(stdin, stdin_name)
        elif text is not None:
            source = text
        else:
            source = read_source(log.path, display(log.path), streamed=True)
        if isinstance(source, Diagnostic):
            return FileResult(shown, (source.at(source.span or Span.point(shown)),)), {}, None
        told = None if progress is None else functools.partial(progress, log.path)
        named = stdin_name if log.path == STDIN else log.path
        folder = (os.path.dirname(named) or ".") if named != STDIN_NAME else None
        result = replay_source(source, options, progress=told, folder=folder)
        # the dispute's ruling is kept in the facts, which every format then writes
        found = replay_file_result(shown, result, with_summary=with_summary, with_facts=with_facts or options.dispute)
        if options.dispute:
            from sgcheck.replay.dispute import dispute_report

            assert isinstance(found.facts, ReplayFacts)
            found = replace(found, facts=replace(found.facts, dispute=dispute_report(source, options, folder)))
        return found, _texts(source, result), result
    except SourceChanged as changed:  # a big log is read twice; it changed in between (SG-P008)
        return FileResult(shown, (changed.diagnostic.at(Span.point(shown)),)), {}, None
    except (Exception, RecursionError, MemoryError) as error:  # one log's failure must not hide the others
        return FileResult(shown, (codes.internal_error(error).at(Span.point(shown)),)), {}, None


def _texts(source: SourceText, result: ReplayResult) -> Mapping[str, str]:
    """The texts the findings point into: the log's, and those of the pack's files and of the
    scenario the report quotes (a pack that breaks the contract is reported on its cards, a
    scenario with an error on its text)."""
    others = {
        **(result.pack.sources if result.pack is not None else {}),
        **(result.scenario.sources if result.scenario is not None else {}),
    }
    if not others:
        return SourceTexts(source)
    quoted = {finding.span.source for finding in result.diagnostics if finding.span is not None}
    files = [SourceText(name, text) for name, text in others.items() if name in quoted]
    return SourceTexts(*files, source)


#: Told, while one log is replayed in this process, how much of it has been read so far (the
#: log's path as given, and the characters read: the reader tells it at every piece of about
#: 1 MiB); ``sgcheck replay`` draws its progress bar from it.
Progress = Callable[[str, int], None]


class Renderer(Protocol):
    """Spells one file's part of the report (``sgcheck.report.PartRenderer``); picklable."""

    def __call__(self, result: FileResult, sources: Mapping[str, str], /) -> str: ...

    def keep(self, result: FileResult, /) -> FileResult:
        """What the report's end needs of the file once its part is spelled: what a worker hands
        back (its summary spelled, never the positions it was drawn from)."""
        ...


@dataclass(frozen=True, slots=True)
class _Job:
    """What a worker needs to replay one log and render its part of the report."""

    options: ReplayOptions
    with_summary: bool
    render: Renderer
    selection: Selection | None = None
    extra: Mapping[str, tuple[Diagnostic, ...]] | None = None
    with_facts: bool = True

    def __call__(self, log: LogInput) -> tuple[FileResult, str]:
        extra = self.extra.get(display(log.path), ()) if self.extra else ()
        result, sources = replay_input(
            log,
            self.options,
            with_summary=self.with_summary,
            selection=self.selection,
            extra=extra,
            with_facts=self.with_facts,
        )
        return self.render.keep(result), self.render(result, sources)


def replay_all(
    logs: Sequence[LogInput],
    options: ReplayOptions,
    render: Renderer,
    *,
    with_summary: bool = True,
    jobs: int = 1,
    cluster: str | None = None,
    cluster_timeout: float = DEFAULT_TIMEOUT,
    stdin: BinaryIO | None = None,
    progress: Progress | None = None,
    stdin_name: str = STDIN_NAME,
    selection: Selection | None = None,
    extra: Mapping[str, tuple[Diagnostic, ...]] | None = None,
    with_facts: bool = True,
    held: dict[str, SourceText] | None = None,
) -> Iterator[tuple[FileResult, str]]:
    """Replay ``logs`` and yield each result with its rendered part, in input order, as soon as
    it and every log before it are done.

    With ``jobs`` above 1 the logs are replayed in that many processes, and with ``cluster``
    on a Dask cluster (:func:`sgcheck.distribute.map_ordered`, which connects before this
    returns and raises :class:`~sgcheck.distribute.ClusterError` when it cannot); each worker
    renders its own file's part, so only the result and the text to print travel back (never
    the log). A cluster's workers read each log, and the pack and scenario it names, by the
    path given here. The output is the same bytes whatever ``jobs`` and ``cluster`` are.
    Standard input cannot be shared with workers: a run that reads ``-`` replays in this
    process. ``progress`` hears about the bytes read of each log replayed in this process (not
    of logs replayed by workers: count those as they come). ``with_facts``: as in :func:`replay_input`.
    ``held``: the texts :func:`run_findings` kept, by log path, replayed here instead of reading
    those logs again (each is let go once replayed); workers read their logs themselves.
    """
    if replays_here(logs, jobs, cluster):
        return _replay_here(
            logs, options, render, with_summary, stdin, progress, stdin_name, selection, extra, with_facts, held
        )
    job = _Job(options, with_summary, render, selection, extra, with_facts)
    return map_ordered(job, logs, jobs=jobs, cluster=cluster, timeout=cluster_timeout)


def replays_here(logs: Sequence[LogInput], jobs: int, cluster: str | None) -> bool:
    """Whether :func:`replay_all` replays ``logs`` in this process (else in workers)."""
    return any(log.path == STDIN for log in logs) or (cluster is None and min(jobs, len(logs)) <= 1)


def _replay_here(
    logs: Sequence[LogInput],
    options: ReplayOptions,
    render: Renderer,
    with_summary: bool,
    stdin: BinaryIO | None,
    progress: Progress | None,
    stdin_name: str,
    selection: Selection | None,
    extra: Mapping[str, tuple[Diagnostic, ...]] | None = None,
    with_facts: bool = True,
    held: dict[str, SourceText] | None = None,
) -> Iterator[tuple[FileResult, str]]:
    for log in logs:
        result, sources = replay_input(
            log,
            options,
            with_summary=with_summary,
            stdin=stdin,
            progress=progress,
            stdin_name=stdin_name,
            selection=selection,
            extra=extra.get(display(log.path), ()) if extra else (),
            with_facts=with_facts,
            text=held.pop(log.path, None) if held else None,
        )
        yield result, render(result, sources)
