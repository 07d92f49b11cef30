"""One protocol for every output format, and the registry every command asks.

A command builds a typed result (a :class:`~sgcheck.results.Run` of checked files, a
:class:`~sgcheck.results.SimulationReport`, a :class:`~sgcheck.results.GauntletReport`, the
odds of :mod:`sgcheck.core.odds`) and asks the registry to spell it in the format the user chose
(:func:`render`). A format is one module of this package whose ``FORMAT`` follows
:class:`Format`: its name, the kinds of result it renders, and how. The registry names each
format, its module and its kinds (:data:`REGISTRY`), so a command's ``--format`` choices are known
without importing every renderer, and loads a module only when its format is asked for; a test
holds each entry equal to its module's ``FORMAT``.

A run of checked files is written file by file (:class:`ReportStream`): a format spells each
file's part while its source is at hand (``part``, a pure function of the file's result, run in
a worker process when the files are checked in several) and the end of the report once every
file is checked (``close``). Text and GitHub annotations write each part as it comes
(``streamed``); JSON, SARIF, JUnit XML and the HTML page are one document each, written whole at
the end (the HTML page and SARIF keep what each file's part was worth).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache
from importlib import import_module
from typing import NamedTuple, Protocol, runtime_checkable

from sgcheck.codes import CodeInfo
from sgcheck.diagnostics import Severity
from sgcheck.results import FileResult, GauntletReport, ReplayFacts, Run, SimulationReport


class ResultKind(StrEnum):
    """What a command asks a format to render: each command builds one kind of result."""

    CHECK = "check"  # a Run of card files, packs and scenarios (sgcheck check)
    REPLAY = "replay"  # a Run of replayed logs (sgcheck replay)
    SIMULATION = "simulation"  # one pack against another (sgcheck simulate)
    GAUNTLET = "gauntlet"  # every pair of several packs (sgcheck simulate --against ... --against ...)
    ODDS_TABLE = "odds table"  # the accuracy and cost tables (sgcheck odds table)
    CAPTURE_ODDS = "capture odds"  # the chance to capture this turn (sgcheck odds capture)
    DICE_STATS = "dice stats"  # each player's dice of a corpus of logs, tested (sgcheck dice stats)
    DICE_NEXT = "dice next"  # the rolls both players' keys give (sgcheck dice next)


RUN_KINDS = frozenset({ResultKind.CHECK, ResultKind.REPLAY})


def kind_of(result: object) -> ResultKind:
    """The kind of a typed result; ValueError for anything else."""
    from sgcheck.core.odds import CaptureOdds, OddsTables
    from sgcheck.replay.dice_next import NextRolls, PurposeRolls
    from sgcheck.replay.dice_stats import DiceStats

    if isinstance(result, Run):
        return ResultKind.REPLAY if result.command == "replay" else ResultKind.CHECK
    if isinstance(result, SimulationReport):
        return ResultKind.SIMULATION
    if isinstance(result, GauntletReport):
        return ResultKind.GAUNTLET
    if isinstance(result, OddsTables):
        return ResultKind.ODDS_TABLE
    if isinstance(result, CaptureOdds):
        return ResultKind.CAPTURE_ODDS
    if isinstance(result, DiceStats):
        return ResultKind.DICE_STATS
    if isinstance(result, NextRolls | PurposeRolls):
        return ResultKind.DICE_NEXT
    raise ValueError(f"not a result a format renders: {type(result).__name__}")


@dataclass(frozen=True, slots=True)
class Options:
    """How a result is spelled beyond its format: colour (text only), and whether each replay
    summary is headed by its file's name."""

    color: bool = False
    labelled: bool = False


@runtime_checkable
class Format(Protocol):
    """An output format: its name, the kinds of result it renders, and how."""

    @property
    def name(self) -> str: ...

    @property
    def renders(self) -> frozenset[ResultKind]:
        """The kinds of result this format spells (a run's kinds: its command's)."""
        ...

    @property
    def streamed(self) -> bool:
        """Whether a run's parts are written as each file is checked (else whole, at the end)."""
        ...

    def part(self, result: FileResult, sources: Mapping[str, str], options: Options) -> str:
        """One file's part of a run's report: written now if ``streamed``, else kept for ``close``."""
        ...

    def keep(self, result: FileResult) -> FileResult:
        """What the end of a run's report needs of a file once its part is spelled
        (:func:`without_positions` drops what only the part needed)."""
        ...

    def close(self, end: RunEnd) -> str:
        """The end of a run's report, once every file is checked."""
        ...

    def render(self, result: object, options: Options) -> str:
        """A result that is not a run (a simulation, the odds), whole."""
        ...


def without_positions(result: FileResult, *, explanations: bool = False) -> FileResult:
    """``result`` without a replay's positions, drawn into its part already, and with its summary
    spelled (the text, not the records of the position it holds, is kept to the run's end); with
    ``explanations``, each statement's explanation is kept (``replay --timeline``)."""
    if result.summary is not None and not isinstance(result.summary, str):
        from sgcheck.report.summaries import summary_text

        result = replace(result, summary=summary_text(result.summary))
    facts = result.facts
    if not isinstance(facts, ReplayFacts) or facts.timeline is None:
        return result
    kept = facts.timeline.explanations_only() if explanations else None
    return replace(result, facts=replace(facts, timeline=kept))


def not_rendered(fmt: str, result: object) -> ValueError:
    """The error a format raises for a result it does not render (the registry asks it none)."""
    return ValueError(f"the {fmt} format does not render {type(result).__name__}")


@dataclass(frozen=True, slots=True)
class Entry:
    """A format as the registry knows it before loading it."""

    name: str
    module: str  # the module holding FORMAT
    renders: frozenset[ResultKind]
    #: whether it writes a file's facts (:attr:`FileResult.facts`); a replay reported in a format
    #: that does not never works them out (a ``--dispute`` ruling, kept in them, is the exception)
    writes_facts: bool = False


_ALL = frozenset(ResultKind)

#: Every format, in the order the commands offer them.
REGISTRY: tuple[Entry, ...] = (
    Entry("text", "sgcheck.report.text", _ALL),
    Entry("json", "sgcheck.report.json_format", _ALL, writes_facts=True),
    Entry("sarif", "sgcheck.report.sarif", RUN_KINDS),
    Entry("github", "sgcheck.report.github", RUN_KINDS),
    Entry("junit", "sgcheck.report.junit", RUN_KINDS),
    Entry(
        "html",
        "sgcheck.report.html",
        frozenset({ResultKind.REPLAY, ResultKind.SIMULATION, ResultKind.GAUNTLET}),
        writes_facts=True,
    ),
)


def names_for(kind: ResultKind) -> tuple[str, ...]:
    """The formats that render ``kind``: a command's ``--format`` choices."""
    return tuple(entry.name for entry in REGISTRY if kind in entry.renders)


def _entry(name: str) -> Entry:
    for entry in REGISTRY:
        if entry.name == name:
            return entry
    raise ValueError(f"unknown output format {name!r}; expected one of: {', '.join(e.name for e in REGISTRY)}")


@cache
def format_named(name: str) -> Format:
    """The format called ``name``, its module loaded now; ValueError for an unknown name."""
    entry = _entry(name)
    loaded: Format = import_module(entry.module).FORMAT
    return loaded


def render(result: object, fmt: str, *, color: bool = False) -> str:
    """Spell ``result`` in ``fmt``. ``color`` only affects the text format: machine formats must
    stay parseable whatever the terminal is. An unknown format, or one that does not render
    this kind of result, raises :class:`ValueError` rather than falling back."""
    kind = kind_of(result)
    entry = _entry(fmt)
    # A run is spelled by any format of runs (the HTML page of a check run shows its findings
    # with no board); the command offers the formats of its kind (names_for).
    if kind not in entry.renders and not (kind in RUN_KINDS and entry.renders & RUN_KINDS):
        raise ValueError(
            f"the {fmt} format does not render a {kind.value}; expected one of: {', '.join(names_for(kind))}"
        )
    if isinstance(result, Run):
        stream = ReportStream(
            fmt,
            command=result.command,
            rules=result.rules,
            tool_version=result.tool_version,
            color=color,
            labelled=labels_summaries(result.command, len(result.files)),
        )
        parts = [stream.add(file, result.sources) for file in result.files]
        return "".join(parts) + stream.close()
    return format_named(fmt).render(result, Options(color=color))


def labels_summaries(command: str, file_count: int) -> bool:
    """Whether each replay summary is headed by its file's name: when there is more than one."""
    return command == "replay" and file_count > 1


class PartRenderer(NamedTuple):
    """How one file's part of a run's report is spelled: a pure function of the file's result.

    It is a small picklable value, so a worker process can render its file's part and hand
    back only text (never the file's source).
    """

    fmt: str
    color: bool = False
    labelled: bool = False

    def __call__(self, result: FileResult, sources: Mapping[str, str]) -> str:
        return format_named(self.fmt).part(result, sources, Options(self.color, self.labelled))

    def keep(self, result: FileResult) -> FileResult:
        """The format's :meth:`Format.keep`: what a worker process hands back of a file with its
        part, so no record of a position (a summary's ``GameState``) travels between processes."""
        return format_named(self.fmt).keep(result)


@dataclass(frozen=True, slots=True)
class RunEnd:
    """What a run's report knows once every file is checked: what a format's ``close`` spells."""

    command: str
    files: tuple[FileResult, ...]
    rules: Mapping[str, CodeInfo]
    tool_version: str
    counts: Mapping[Severity, int]
    suppressed: int
    hidden: Mapping[str, int]  # codes of the findings the selection left out, counted
    #: where the run's configuration came from ("" none), said with what it hid; None: not said
    configuration: str | None
    held: tuple[str, ...]  # each file's part, for a format written whole
    options: Options

    def configuration_data(self) -> dict[str, object] | None:
        """Where the configuration came from and what it hid, as data (None: nothing to say)."""
        if self.configuration is None and not self.hidden:
            return None
        return {
            "source": self.configuration or None,
            "hidden": sum(self.hidden.values()),
            "codes": dict(sorted(self.hidden.items())),
        }

    def run(self) -> Run:
        """The run as one value (sources left out: each file's part was spelled with them)."""
        return Run(self.command, self.files, {}, self.rules, self.tool_version, self.configuration_data())


class ReportStream:
    """Renders a run one file at a time; ``add`` returns what can be written now.

    The concatenation of every ``add`` and ``close`` is exactly :func:`render` of the
    same run. Sources are used only while their file is rendered, so a caller may drop
    a file's text as soon as ``add`` returns.
    """

    def __init__(
        self,
        fmt: str,
        *,
        command: str,
        rules: Mapping[str, CodeInfo],
        tool_version: str,
        color: bool = False,
        labelled: bool = False,
    ) -> None:
        self.format = format_named(fmt)
        self.renderer = PartRenderer(fmt, color, labelled)  # a format that does not paint ignores color
        self.command = command
        self.rules = rules
        self.tool_version = tool_version
        self.files: list[FileResult] = []
        self.counts: Counter[Severity] = Counter()
        self.suppressed = 0
        self.hidden: Counter[str] = Counter()  # codes of the findings the selection left out
        #: where the run's configuration came from ("" none), said with what it hid; None: not said
        self.configuration: str | None = None
        self.held: list[str] = []  # what a whole-document format keeps of each file's part

    def add(self, result: FileResult, sources: Mapping[str, str]) -> str:
        return self.add_rendered(result, self.renderer(result, sources))

    def add_rendered(self, result: FileResult, part: str) -> str:
        """Record a file whose part ``self.renderer`` has already rendered (in another process)."""
        result = self.format.keep(result)
        self.files.append(result)
        self.counts.update(diagnostic.severity for diagnostic in result.diagnostics)
        self.suppressed += len(result.suppressed)
        self.hidden.update(result.hidden)
        if self.format.streamed:
            return part
        self.held.append(part)
        return ""

    def close(self) -> str:
        end = RunEnd(
            self.command,
            tuple(self.files),
            self.rules,
            self.tool_version,
            self.counts,
            self.suppressed,
            self.hidden,
            self.configuration,
            tuple(self.held),
            Options(self.renderer.color, self.renderer.labelled),
        )
        return self.format.close(end)
