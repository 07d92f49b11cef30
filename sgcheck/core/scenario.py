"""Scenarios (core §7, §8; R24-R26): a game that starts from a given position and may be won
in other ways than the core's.

A scenario sets, for each side, the starting LP and SP, what its Gem holds and which pieces
already stand on the board; who takes the first turn; a turn limit (decided by the tiebreak of
R18); named marker squares; and win conditions from a small vocabulary, added to the core's or
replacing them. It reaches the rules as the data below, which they consult: the state carries it
(:class:`ScenarioPlay`, with what its conditions remember), the start of play is built from it
(:func:`sgcheck.core.state.initial_state`), and every win condition is a :class:`WinCondition`
that :mod:`sgcheck.core.play.victory` evaluates with the named predicate of its kind. There is no
code path of its own for any one scenario.

A scenario never changes combat math, costs, caps, rates, thresholds or the turn structure
(core §8, R24): nothing here can express such a change. A scenario file that tries is reported
by the contract checker with the code of the core number it names.

This module holds the model and what can be known about a scenario without playing it (the
army each side owns, conditions that can never hold); it does not import the game state.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from sgcheck.core import caps
from sgcheck.core.pieces import KING, NON_KING_KINDS, PIECE_VALUES, SET_COUNTS, WHITE, Color, Kind, piece
from sgcheck.core.record import pickle_by_fields
from sgcheck.core.squares import Square, name
from sgcheck.diagnostics import plural

#: Counts of the five non-King kinds, in the order of :data:`NON_KING_KINDS`.
Counts = tuple[int, int, int, int, int]
NO_PIECES: Counts = (0, 0, 0, 0, 0)


class WinKind(StrEnum):
    """The vocabulary of scenario win conditions; each is one named predicate in core/play/victory.py."""

    #: Gem Siege (R25): the side has, at some point of the game, broken the enemy Gem with a
    #: successful Break and captured an enemy piece (in either order).
    BREAK_AND_CAPTURE = "break_and_capture"
    #: Wellsprings (R26): the side's pieces stand on every marker of a set it is to hold (a
    #: neutral set: all its markers; a set whose markers belong to the sides: the enemy's).
    HOLD_MARKERS = "hold_markers"
    #: The value of the enemy pieces in the side's Gem reaches a number (captured value, as the
    #: tiebreak of core §7 counts it).
    CAPTURED_VALUE = "captured_value"


class Timing(StrEnum):
    """When a kind of condition is looked at."""

    ANY_TIME = "at any time"  # after every action (and after each End)
    END_OF_TURN = "at the end of a turn"  # after the End phase of every turn, either player's


TIMING: dict[WinKind, Timing] = {
    WinKind.BREAK_AND_CAPTURE: Timing.ANY_TIME,
    WinKind.HOLD_MARKERS: Timing.END_OF_TURN,
    WinKind.CAPTURED_VALUE: Timing.ANY_TIME,
}


@dataclass(frozen=True, slots=True)
class MarkerSet:
    """Named marker squares. Each marker belongs to a side or to nobody (``None``)."""

    name: str
    squares: tuple[Square, ...]
    owners: tuple[Color | None, ...]  # parallel to ``squares``

    def to_hold(self, side: Color) -> tuple[Square, ...]:
        """The markers ``side`` must stand on to hold the set: every marker that is not its own."""
        return tuple(sq for sq, owner in zip(self.squares, self.owners, strict=True) if owner is not side)

    def owned_by(self, side: Color | None) -> tuple[Square, ...]:
        return tuple(sq for sq, owner in zip(self.squares, self.owners, strict=True) if owner is side)


@dataclass(frozen=True, slots=True)
class WinCondition:
    """One win condition: its kind, the sides that may win by it, and its argument."""

    kind: WinKind
    sides: tuple[Color, ...] = (Color.WHITE, Color.BLACK)
    markers: str | None = None  # HOLD_MARKERS: the name of the marker set
    value: int | None = None  # CAPTURED_VALUE: the captured value to reach

    @property
    def timing(self) -> Timing:
        return TIMING[self.kind]

    def describe(self, side: Color | None = None) -> str:
        """``breaking Black's Gem and capturing a piece`` (for ``side``), or the rule in general."""
        enemy = f"{side.other.title}'s" if side is not None else "the enemy"
        match self.kind:
            case WinKind.BREAK_AND_CAPTURE:
                return f"breaking {enemy} Gem and capturing a piece"
            case WinKind.HOLD_MARKERS:
                return f"holding the '{self.markers}' markers at the end of a turn"
            case WinKind.CAPTURED_VALUE:
                return f"reaching captured value {self.value}"
        raise AssertionError(self.kind)  # pragma: no cover


@dataclass(frozen=True, slots=True)
class SideSetup:
    """One side's start: resources, what its Gem holds, its pieces on the board.

    ``own`` is the side's own pieces in its Gem; ``None`` means its usual reserve (every piece of
    its set that is neither on the board nor held in the enemy's Gem). ``captured`` is the enemy
    pieces already in its Gem. ``pieces`` are on the board at the start, the King among them if
    the scenario places it (otherwise the log places it, as in core §1).
    """

    lp: int = caps.START_LP
    sp: int = caps.START_SP
    own: Counts | None = None
    captured: Counts = NO_PIECES
    pieces: tuple[tuple[Square, Kind], ...] = ()

    @property
    def king(self) -> Square | None:
        return next((sq for sq, kind in self.pieces if kind is KING), None)


@dataclass(frozen=True, slots=True)
class Scenario:
    """A scenario as the rules consult it (R24)."""

    name: str
    sides: tuple[SideSetup, SideSetup] = (SideSetup(), SideSetup())
    first: Color = WHITE
    turn_limit: int | None = None
    markers: tuple[MarkerSet, ...] = ()
    conditions: tuple[WinCondition, ...] = ()
    core_victory: bool = True  # King conversion and 1000 LP still win (core §7)
    description: str = ""
    source: str = field(default="", compare=False)  # where it was read, as the report shows it

    def side(self, color: Color) -> SideSetup:
        return self.sides[color]

    @property
    def second(self) -> Color:
        return self.first.other

    def marker_set(self, set_name: str) -> MarkerSet | None:
        return next((m for m in self.markers if m.name == set_name), None)

    def own_pieces(self, color: Color) -> Counts:
        """The side's own pieces in its Gem at the start: as written, or its usual reserve."""
        written = self.side(color).own
        if written is not None:
            return written
        on_board = _board_counts(self.side(color))
        held = self.side(color.other).captured
        reserve = (max(0, SET_COUNTS[kind] - on_board[i] - held[i]) for i, kind in enumerate(NON_KING_KINDS))
        return _counts(reserve)

    def gem(self, color: Color) -> tuple[int, ...]:
        """The side's Gem at the start, as the state keeps it: 12 counts indexed by piece."""
        counts = [0] * 12
        for i, kind in enumerate(NON_KING_KINDS):
            counts[piece(color, kind).index] = self.own_pieces(color)[i]
            counts[piece(color.other, kind).index] = self.side(color).captured[i]
        return tuple(counts)

    def army(self, color: Color) -> Counts:
        """Every non-King piece of ``color`` in the game: on the board and in both Gems."""
        on_board = _board_counts(self.side(color))
        own = self.own_pieces(color)
        held = self.side(color.other).captured
        return _counts(on_board[i] + own[i] + held[i] for i in range(len(NON_KING_KINDS)))


def _counts(values: Iterator[int] | tuple[int, ...]) -> Counts:
    a, b, c, d, e = values
    return (a, b, c, d, e)


def _board_counts(side: SideSetup) -> Counts:
    counts = [0] * len(NON_KING_KINDS)
    for _, kind in side.pieces:
        if kind is not KING:
            counts[NON_KING_KINDS.index(kind)] += 1
    return _counts(tuple(counts))


def army_excess(scenario: Scenario) -> Iterator[tuple[Color, Kind, int]]:
    """Each kind of which a side would have more pieces than its set holds (core §1: 8 Pawns, 2
    Knights, 2 Bishops, 2 Rooks, 1 Queen), counting the board and both Gems, with that number."""
    for color in Color:
        for i, kind in enumerate(NON_KING_KINDS):
            total = scenario.army(color)[i]
            if total > SET_COUNTS[kind]:
                yield color, kind, total


def army_value(scenario: Scenario, color: Color) -> int:
    """The value of every non-King piece of ``color`` in the game."""
    return sum(count * PIECE_VALUES[kind] for count, kind in zip(scenario.army(color), NON_KING_KINDS, strict=True))


def army_size(scenario: Scenario, color: Color) -> int:
    """How many pieces ``color`` has in the game, its King included."""
    return sum(scenario.army(color)) + 1


def never_holds(scenario: Scenario, condition: WinCondition, side: Color) -> str | None:
    """Why ``condition`` can never be met by ``side``, or None. Pieces are never created or lost
    (core §4.3, §5), so what a side can capture or occupy is bounded by the armies of the scenario."""
    enemy = side.other
    if condition.kind is WinKind.BREAK_AND_CAPTURE and not any(scenario.army(enemy)):
        return f"{enemy.title} has no piece but its King, and a King is never captured (core §4.4)"
    if condition.kind is WinKind.CAPTURED_VALUE and condition.value is not None:
        most = army_value(scenario, enemy)
        if condition.value > most:
            return f"all of {enemy.title}'s pieces are worth {most}, less than {condition.value}"
    if condition.kind is WinKind.HOLD_MARKERS and condition.markers is not None:
        markers = scenario.marker_set(condition.markers)
        if markers is None:
            return None  # an unknown set is reported on its own
        squares = markers.to_hold(side)
        if not squares:
            return f"'{markers.name}' has no marker for {side.title} to hold"
        size = army_size(scenario, side)
        if len(squares) > size:
            return f"{side.title} must hold {plural(len(squares), 'marker')} with only {plural(size, 'piece')}"
    return None


def met_at_start(scenario: Scenario, condition: WinCondition, side: Color) -> str | None:
    """Why ``side`` already meets ``condition`` in the starting position, or None: a captured value
    its Gem starts with (the game is won before the first turn), or markers its pieces start on (won
    at the end of the first turn unless they move)."""
    if condition.kind is WinKind.CAPTURED_VALUE and condition.value is not None:
        held = sum(n * PIECE_VALUES[k] for n, k in zip(scenario.side(side).captured, NON_KING_KINDS, strict=True))
        if held >= condition.value:
            return f"{side.title}'s Gem starts with captured value {held}: the game is won before the first turn"
    if condition.kind is WinKind.HOLD_MARKERS and condition.markers is not None:
        markers = scenario.marker_set(condition.markers)
        squares = markers.to_hold(side) if markers is not None else ()
        mine = {sq for sq, _ in scenario.side(side).pieces}
        if squares and all(sq in mine for sq in squares):
            return f"{side.title}'s pieces start on every marker of '{condition.markers}' it is to hold"
    return None


def can_end(scenario: Scenario) -> bool:
    """The game has a way to end: the core's win conditions, a turn limit or a scenario condition."""
    return scenario.core_victory or scenario.turn_limit is not None or bool(scenario.conditions)


def describe_markers(markers: MarkerSet) -> str:
    """``c3 f3 (White's) · c6 f6 (Black's)`` or ``d4 e4 d5 e5``."""
    parts = []
    for owner in (Color.WHITE, Color.BLACK, None):
        squares = markers.owned_by(owner)
        if squares:
            owned = f" ({owner.title}'s)" if owner is not None else ""
            parts.append(" ".join(name(sq) for sq in squares) + owned)
    return " · ".join(parts)


class ScenarioPlay(NamedTuple):
    """The scenario of a game as the state carries it, with what its conditions remember: whether
    each side has broken the enemy Gem and captured an enemy piece at some point (R25)."""

    scenario: Scenario
    broke: tuple[bool, bool] = (False, False)
    captured: tuple[bool, bool] = (False, False)


pickle_by_fields(globals())
