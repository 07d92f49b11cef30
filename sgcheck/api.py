"""sgcheck as a Python library: read a game, walk its positions, list and play legal actions,
replay with the findings as data, check a pack.

Everything here is public and covered by the stability promise of docs/api.md; everything
else in the package is internal and may change in any release. The functions call the same
library the command line does (the line reader, the replay's turn loop, the pure engine, the
contract checker): a finding here is the finding ``sgcheck replay`` or ``sgcheck check`` prints.

>>> import sgcheck
>>> game = sgcheck.read_game("examples/logs/guide-example-a.sglog")
>>> game.legal
True
>>> first = game.positions[0]
>>> first.turn, first.to_move, first.phase
(1, 'white', 'upkeep')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sgcheck.core import engine
from sgcheck.core.actions import Action, Attack, Break, EndTurn, EnterPhase, Repair
from sgcheck.core.legal import legal_actions, with_roll
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color
from sgcheck.core.squares import ALL_SQUARES
from sgcheck.core.squares import name as square_name
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.from_actions import statement_for
from sgcheck.lang.logs.reader import PlainTurn, TurnStep
from sgcheck.lang.logs.vocab import PHASES
from sgcheck.lang.logs.writer import format_statement
from sgcheck.replay.observer import GO, Flow, ReplayObserver

__all__ = [
    "Finding",
    "Game",
    "IllegalAction",
    "LegalAction",
    "Pack",
    "Position",
    "check_pack",
    "parse_game",
    "read_game",
    "read_pack",
]

_PHASE_WORDS = {phase: word for word, phase in PHASES.items()}
#: Dice that let the engine judge a dice-bearing action before its dice are known (their faces
#: never decide whether it is legal).
_PLACEHOLDER = {Attack: (0, 0), Break: (1, 1, 1), Repair: (1, 1, 1)}


@dataclass(frozen=True, slots=True)
class Finding:
    """One finding, as data: what ``sgcheck replay`` or ``sgcheck check`` reports.

    ``severity`` is ``"error"``, ``"warning"`` or ``"note"``; ``line`` and ``column`` are 1-based
    (0 when the finding has no place in a file); ``rules`` are the rulebook sections and rulings
    it cites (``"core §3"``, ``"R06"``)."""

    code: str
    severity: str
    message: str
    path: str | None = None
    line: int = 0
    column: int = 0
    rules: tuple[str, ...] = ()
    hint: str | None = None
    fix: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    @classmethod
    def of(cls, diag: Diagnostic) -> Finding:
        """The finding of one of the library's diagnostics."""
        span = diag.span
        fix = diag.fix.replacement if diag.fix is not None else None
        return cls(
            code=diag.code,
            severity=diag.severity.value,
            message=diag.message,
            path=span.source if span is not None else None,
            line=span.line if span is not None else 0,
            column=span.column if span is not None else 0,
            rules=tuple(diag.rules),
            hint=diag.hint,
            fix=fix,
        )

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}: " if self.path else ""
        return f"{where}{self.code} {self.message}"


class IllegalAction(ValueError):
    """:meth:`Position.push` was given an action the rules refuse here; ``finding`` says why."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(f"{finding.code} {finding.message}")
        self.finding = finding


@dataclass(frozen=True, slots=True)
class LegalAction:
    """A legal action of a position: its number there (from 1, in the order the core lists them),
    how a log writes it, and the core's action. A dice-bearing action (an attack, a Break, a
    Repair) is written without its dice, which :meth:`Position.push` takes as ``roll``."""

    number: int
    text: str
    action: Action = field(repr=False)

    @property
    def needs_roll(self) -> bool:
        return isinstance(self.action, Attack | Break | Repair)


@dataclass(frozen=True, slots=True)
class Position:
    """A position of a game: whose turn, which phase, the players' totals, the board. Immutable:
    :meth:`push` returns the position after an action and leaves this one as it was.
    ``line`` is the log line that led here (0 for a position not read from a log)."""

    state: GameState = field(repr=False)
    line: int = 0

    def __repr__(self) -> str:
        at = f", line {self.line}" if self.line else ""
        return f"<Position turn {self.turn} {self.to_move} {self.phase}{at}>"

    @property
    def turn(self) -> int:
        return self.state.turn_number

    @property
    def to_move(self) -> str:
        """``"white"`` or ``"black"``."""
        return self.state.to_move.name.lower()

    @property
    def phase(self) -> str:
        """The phase as a log writes it: ``"upkeep"``, ``"main1"``, ``"battle"``, ``"main2"``, ``"end"``."""
        return _PHASE_WORDS[self.state.turn.phase]

    def lp(self, color: str) -> int:
        """A player's Life Points (``color``: ``"white"`` or ``"black"``)."""
        return self.state.player(_color(color)).lp

    def sp(self, color: str) -> int:
        """A player's Soul Points."""
        return self.state.player(_color(color)).sp

    @property
    def board(self) -> dict[str, str]:
        """The pieces on the board, by square: ``{"e1": "White King", ...}``."""
        return {square_name(sq): str(p) for sq, p in zip(ALL_SQUARES, self.state.board, strict=True) if p is not None}

    @property
    def is_over(self) -> bool:
        return self.state.result is not None

    @property
    def result(self) -> str | None:
        """How the game ended (``"White wins by ..."``), or None while it goes on."""
        return self.state.result.detail if self.state.result is not None else None

    @property
    def legal_actions(self) -> tuple[LegalAction, ...]:
        """Every legal action here, numbered from 1, phase changes and the end of the turn included."""
        return tuple(LegalAction(n, _written(self.state, a), a) for n, a in enumerate(legal_actions(self.state), 1))

    def push(self, choice: int | LegalAction | Action, roll: Sequence[int] | None = None) -> Position:
        """The position after ``choice``: a legal action's number, a :class:`LegalAction` or a core
        action; ``roll``: the dice of an attack, a Break or a Repair. Raises
        :class:`IllegalAction` when the rules refuse it, and ValueError when the number is not one
        of this position's or the dice are missing."""
        if isinstance(choice, int):
            listed = self.legal_actions
            if not 1 <= choice <= len(listed):
                raise ValueError(f"no legal action {choice} here: they are numbered 1 to {len(listed)}")
            choice = listed[choice - 1]
        action = choice.action if isinstance(choice, LegalAction) else choice
        if roll is not None:
            action = with_roll(action, tuple(roll))
        elif isinstance(action, Attack | Break | Repair) and not action.roll:
            raise ValueError(f"{_written(self.state, action)} needs its dice: push(..., roll=(...))")
        step = engine.apply(self.state, action)
        if not isinstance(step, Applied):
            raise IllegalAction(Finding.of(step.first.diagnostic))
        return Position(step.state)


@dataclass(frozen=True, slots=True)
class Game:
    """A game log read and replayed: its findings and every position it went through.

    ``positions`` holds the position after each phase label, statement and end of turn the replay
    played, in order, each with its line; ``legal`` is True when the log has no error."""

    path: str
    tags: dict[str, str]
    findings: tuple[Finding, ...]
    positions: tuple[Position, ...]

    @property
    def legal(self) -> bool:
        return not any(f.is_error for f in self.findings)

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.is_error)

    @property
    def end(self) -> Position | None:
        """The last position the replay reached (None: the log reached no play)."""
        return self.positions[-1] if self.positions else None

    def __iter__(self) -> Iterator[Position]:
        return iter(self.positions)


@dataclass(frozen=True, slots=True)
class Pack:
    """A card pack read and checked: its cards' names, in pack order, and what ``sgcheck check``
    reports on it; ``playable`` is False when the cards break the contract."""

    path: str
    cards: tuple[str, ...]
    findings: tuple[Finding, ...]

    @property
    def playable(self) -> bool:
        return not any(f.is_error for f in self.findings)


def read_game(path: str | Path, *, keep_going: bool = True, pack: str | Path | None = None) -> Game:
    """Read and replay the game log at ``path`` (its ``[Pack]`` tag read relative to its folder,
    or ``pack`` given); ``keep_going``: report every independent error, as ``sgcheck replay
    --keep-going`` does (False: stop at the first). Raises OSError when the file cannot be read."""
    from sgcheck.lang.source import read_source

    source = read_source(str(path))
    if isinstance(source, Diagnostic):
        raise OSError(source.message)
    return _replayed(source, keep_going, pack, str(Path(path).parent))


def parse_game(text: str, *, name: str = "<game>", keep_going: bool = True, pack: str | Path | None = None) -> Game:
    """:func:`read_game` of a log held in a string (``name``: how findings name it)."""
    from sgcheck.lang.source import SourceText

    return _replayed(SourceText(name, text), keep_going, pack, None)


def read_pack(path: str | Path) -> Pack:
    """Read and check the pack (a folder with ``sgpack.yaml``, a manifest or a card file) at
    ``path``. Raises OSError when nothing can be loaded there."""
    from sgcheck.play.pack import load_game_pack

    loaded = load_game_pack(str(path), log_folder=None, from_tag=False)
    if isinstance(loaded, Diagnostic):
        raise OSError(loaded.message)
    return Pack(loaded.shown, tuple(card.name for card in loaded.cards), tuple(map(Finding.of, loaded.findings)))


def check_pack(*paths: str | Path) -> tuple[Finding, ...]:
    """What ``sgcheck check`` reports on the packs and card files under ``paths``."""
    from sgcheck.contract import check_paths

    run = check_paths([str(p) for p in paths])
    return tuple(Finding.of(diag) for result in run.files for diag in result.diagnostics)


# --- internals ----------------------------------------------------------------------------------


def _color(color: str) -> Color:
    try:
        return Color[color.upper()]
    except KeyError:
        raise ValueError(f"no colour {color!r}: 'white' or 'black'") from None


def _written(state: GameState, action: Action) -> str:
    """How a log writes ``action`` (a dice-bearing one without its dice)."""
    if isinstance(action, EnterPhase):
        return _PHASE_WORDS[action.phase] + ":"
    if isinstance(action, EndTurn):
        return "end of turn"
    placeholder = _PLACEHOLDER.get(type(action))
    shown = with_roll(action, placeholder) if placeholder is not None and not getattr(action, "roll", ()) else action
    text = format_statement(statement_for(state, shown, ()))
    if placeholder is not None and shown is not action:
        text = text.replace(" roll " + " ".join(map(str, placeholder)), " roll")
    return text


class _Positions(ReplayObserver):
    """Keeps the position after each step of the replay, with its line."""

    def __init__(self) -> None:
        self.positions: list[Position] = []

    def started(self, state: GameState, line: int) -> Flow:
        self.positions.append(Position(state, line))
        return GO

    def label_played(self, line: int, state: GameState | None) -> Flow:
        if state is not None:
            self.positions.append(Position(state, line))
        return GO

    def statement_played(
        self,
        turn: PlainTurn,
        step: TurnStep,
        before: GameState | None,
        state: GameState | None,
        findings: Sequence[Diagnostic],
    ) -> Flow:
        if state is not None:
            self.positions.append(Position(state, turn.statement(step).span.line))
        return GO

    def turn_ended(self, turn: PlainTurn, passes: Sequence[TurnStep], state: GameState | None) -> Flow:
        if state is not None:
            line = turn.statement(passes[-1]).span.line if passes else turn.header_span().line
            self.positions.append(Position(state, line))
        return GO


def _replayed(source: object, keep_going: bool, pack: str | Path | None, folder: str | None) -> Game:
    from sgcheck.lang.source import SourceText
    from sgcheck.replay.interpreter import ReplayOptions, replay_source

    assert isinstance(source, SourceText)
    seen = _Positions()
    options = ReplayOptions(keep_going=keep_going, pack=str(pack) if pack is not None else None)
    result = replay_source(source, options, folder=folder, observer=seen)
    tags = {tag.name: tag.value for tag in result.header.tags} if result.header is not None else {}
    return Game(source.name, tags, tuple(map(Finding.of, result.diagnostics)), tuple(seen.positions))
