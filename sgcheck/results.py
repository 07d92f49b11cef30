"""What a checker returns, independent of how it is rendered.

Replay and the contract checker both produce :class:`FileResult` values and the
renderers in :mod:`sgcheck.report` turn a :class:`Run` of them into text, JSON, SARIF
or annotations. The types live here, below all three, so dependencies point one way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from sgcheck.codes import CodeInfo
from sgcheck.diagnostics import Diagnostic, Span


@dataclass(frozen=True, slots=True)
class Suppressed:
    """A finding an in-source suppression silenced: still reported, with the reason given and
    where the suppression is, so a silenced contract break never disappears without trace."""

    diagnostic: Diagnostic
    reason: str
    at: Span


class SummaryRecord:
    """A file's summary block as a typed record, spelled by the report layer
    (:func:`sgcheck.report.summaries.summary_text`): a pack's :class:`ManifestFacts`, a replayed
    log's ``ReplaySummary`` (``sgcheck/replay/summary.py``, beside the core's records it holds)."""

    __slots__ = ()


class Facts(Protocol):
    """What a checker knows of one input beyond its findings, as a typed record: a replayed log
    (:class:`ReplayFacts`), a pack's manifest (:class:`ManifestFacts`), a card file
    (:class:`CardFileFacts`), a scenario file (:class:`ScenarioFileFacts`). Each says its JSON
    form, the ``facts`` of the JSON report."""

    def as_json(self) -> dict[str, object]: ...


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a replayed game ended (core §7, R11): its score (``1-0``, ``0-1``, ``1/2-1/2``), the
    outcome's name, the winner (None: no winner), the turn it ended on and the words of it."""

    score: str
    outcome: str
    winner: str | None
    turn: int
    detail: str

    def as_json(self) -> dict[str, object]:
        return {
            "score": self.score,
            "outcome": self.outcome,
            "winner": self.winner,
            "turn": self.turn,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class ReplayFacts:
    """A replayed log: what its summary says, as data (``replay/summary.py`` builds it).

    ``result`` is the game's result (score, outcome, winner, turn, detail) and ``final`` the
    position after the last action written, both None when there is none; ``scenario`` and
    ``module`` are said only for a game that has them. ``timeline`` holds the HTML page's
    positions and each statement's explanation (``replay --format html``, ``--timeline``),
    ``dispute`` the ruling of ``replay --dispute``: neither is part of ``as_json``, the JSON report
    writes each as a section of its own.
    """

    legal: bool
    stopped: bool
    ruleset: str
    house_rules: tuple[str, ...]
    turns: int
    first_turn: str | None
    last_turn: str | None
    actions: int
    result: GameEnd | None = None
    final: Mapping[str, object] | None = None
    scenario: Mapping[str, object] | None = None
    module: Mapping[str, object] | None = None
    timeline: Mapping[str, Any] | None = None  # JSON data: its frames are read by position
    dispute: Mapping[str, object] | None = None

    def as_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "legal": self.legal,
            "stopped": self.stopped,
            "ruleset": self.ruleset,
            "house_rules": list(self.house_rules),
            "turns": self.turns,
            "first_turn": self.first_turn,
            "last_turn": self.last_turn,
            "actions": self.actions,
            "result": self.result.as_json() if self.result is not None else None,
            "final": self.final,
        }
        if self.scenario is not None:
            data["scenario"] = self.scenario
        if self.module is not None:
            data["module"] = self.module
        return data


@dataclass(frozen=True, slots=True)
class ManifestFacts(SummaryRecord):
    """A pack's manifest: the pack's name and version, its ruleset, scenario and module when it
    names them (None: a manifest that does not say, or could not be read), its cards and files."""

    cards: int
    files: int
    pack: str | None = None
    version: str | None = None
    ruleset: str | None = None
    scenario: str | None = None
    module: str | None = None

    def as_json(self) -> dict[str, object]:
        named = {"pack": self.pack, "version": self.version, "ruleset": self.ruleset}
        named |= {"scenario": self.scenario, "module": self.module}
        return {key: value for key, value in named.items() if value is not None} | {
            "cards": self.cards,
            "files": self.files,
        }


@dataclass(frozen=True, slots=True)
class CardFileFacts:
    """A card file: how many cards it holds."""

    cards: int

    def as_json(self) -> dict[str, object]:
        return {"cards": self.cards}


@dataclass(frozen=True, slots=True)
class ScenarioFileFacts:
    """A scenario file that loads: its scenario's name."""

    scenario: str

    def as_json(self) -> dict[str, object]:
        return {"scenario": self.scenario}


@dataclass(frozen=True, slots=True)
class FileResult:
    """The outcome of checking one input (a game log, a card file or a pack).

    ``summary`` is the block printed after the diagnostics in text output (the final board of a
    replay, a pack's name and size), as a typed record the report layer spells (or text already
    spelled); ``facts`` is its machine-readable form, a typed
    record (:class:`Facts`; None: nothing to say), whose JSON form the JSON output writes.
    ``suppressed`` are the findings an in-source suppression silenced: listed, counted, never an
    error of the run. ``hidden`` are the codes of the findings the run's selection (a
    configuration, or the command line) left out: counted in the report's summary, so that no
    finding disappears unsaid.
    """

    path: str
    diagnostics: tuple[Diagnostic, ...]
    summary: str | SummaryRecord | None = None
    facts: Facts | None = None
    suppressed: tuple[Suppressed, ...] = ()
    hidden: tuple[str, ...] = ()

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


@dataclass(frozen=True, slots=True)
class Run:
    """Everything one command invocation reports.

    ``sources`` maps a span's ``source`` name to the text it points into, so the
    text renderer can show the offending line. ``rules`` is the metadata of every
    code that may appear (used by SARIF's rule table).
    """

    command: str
    files: tuple[FileResult, ...]
    sources: Mapping[str, str] = field(default_factory=dict)
    rules: Mapping[str, CodeInfo] = field(default_factory=dict)
    tool_version: str = ""
    #: where the run's configuration came from and what it hid (None: not said)
    configuration: Mapping[str, object] | None = None

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return tuple(d for f in self.files for d in f.diagnostics)

    @property
    def has_errors(self) -> bool:
        return any(f.has_errors for f in self.files)

    @property
    def suppressed(self) -> tuple[Suppressed, ...]:
        return tuple(s for f in self.files for s in f.suppressed)


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """What ``sgcheck simulate`` reports of one pack against another (docs/simulate.md): the run's
    settings, win rates, the first player's edge, game length, endings, each card's record,
    economy curves, the impact of taking cards out, and the dominant cards. ``data`` is the
    report's JSON document, as :mod:`sgcheck.simulate.stats` summarises the games."""

    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class GauntletReport:
    """What ``sgcheck simulate`` reports of several packs, each against every other: the
    standings and each match (:mod:`sgcheck.simulate.gauntlet`), as its JSON document."""

    data: Mapping[str, Any]
