"""Where a replay stands: :class:`ReplayPosition`, an immutable value the turn loop replaces step by step.

A replay's position is everything a later replay needs to go on from it as this one would: the
game's state and the watch's memory, the statements and turns counted, what the header and the
setup lines settled (:class:`Opening`), how far the log has been read (:class:`Progress`) and
the errors ``--keep-going`` follows (:class:`~sgcheck.replay.cascade.Cascade`). Each is a record
like the core's (:class:`sgcheck.core.record.Record`: ``@final``, ``Final`` fields, compared and
shown by field), so a position is never changed, only replaced by a new one: what a step leaves
behind is the position before it, intact. A checkpoint (:mod:`sgcheck.replay.resume`) is a
position kept with the findings so far (:class:`~sgcheck.replay.sink.Found`, also a value), and
a replay resumed from it starts from that very value.

The position is split in three records by how often they change, so that the step the loop
takes on nearly every statement (a new state, one more statement) builds a small record: the
:class:`ReplayPosition` itself (the state, the counts, the watch), its :class:`Progress` (once or
twice a turn) and its :class:`Opening` (only before play).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, final

from sgcheck.core.pieces import Color
from sgcheck.core.record import Record
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.state import GameState
from sgcheck.core.watch import Watch
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.logs.ast import Header, KingPlacement, ResultLine, RollOff, Statement
from sgcheck.lang.logs.reader import PlainTurn
from sgcheck.replay.cascade import Cascade
from sgcheck.replay.chain import Link

if TYPE_CHECKING:
    from sgcheck.play.game_scenario import GameScenario
    from sgcheck.play.pack import GamePack

#: What the watch found at a hand-over (the End of a turn and the next Upkeep), to report at the
#: next turn's header, or, if the log ends first, at this span.
Handover = tuple[tuple[Diagnostic, ...], Span]


@final
class Setup(Record):
    """The setup lines read so far (core §1, R19): each side's draft, the last roll-off, the
    Kings placed, whether the colour was chosen."""

    __match_args__: ClassVar[tuple[str, ...]] = ("drafts", "rolloff", "kings", "chosen")
    __slots__ = __match_args__

    drafts: Final[tuple[tuple[Color, tuple[str, ...]], ...]]
    rolloff: Final[RollOff | None]  # the last roll-off (a tie is rolled again)
    kings: Final[tuple[tuple[Color, KingPlacement], ...]]
    chosen: Final[bool]

    def __init__(
        self,
        drafts: tuple[tuple[Color, tuple[str, ...]], ...] = (),
        rolloff: RollOff | None = None,
        kings: tuple[tuple[Color, KingPlacement], ...] = (),
        chosen: bool = False,
    ) -> None:
        self.drafts = drafts
        self.rolloff = rolloff
        self.kings = kings
        self.chosen = chosen

    def drafted(self, color: Color) -> tuple[str, ...] | None:
        """The cards ``color`` kept in the draft (None: no draft of theirs yet)."""
        for side, cards in self.drafts:
            if side is color:
                return cards
        return None

    def king(self, color: Color) -> KingPlacement | None:
        """Where the log placed ``color``'s King (None: not yet)."""
        for side, placed in self.kings:
            if side is color:
                return placed
        return None

    def with_draft(self, color: Color, cards: tuple[str, ...]) -> Setup:
        """``color`` drafted ``cards`` (a second draft of theirs replaces the first)."""
        drafts = (*((side, kept) for side, kept in self.drafts if side is not color), (color, cards))
        return Setup(drafts, self.rolloff, self.kings, self.chosen)

    def with_rolloff(self, roll: RollOff) -> Setup:
        return Setup(self.drafts, roll, self.kings, self.chosen)

    def with_king(self, placed: KingPlacement) -> Setup:
        return Setup(self.drafts, self.rolloff, (*self.kings, (placed.color, placed)), self.chosen)

    def with_choice(self) -> Setup:
        return Setup(self.drafts, self.rolloff, self.kings, True)


@final
class Opening(Record):
    """What the header and the setup lines settled: the ruleset, the header, the setup lines,
    the game's pack and scenario (once loaded) and whether the pack was looked for (the
    ``--pack`` option or the [Pack] tag)."""

    __match_args__: ClassVar[tuple[str, ...]] = ("ruleset", "header", "setup", "pack", "pack_asked", "scenario")
    __slots__ = __match_args__

    ruleset: Final[Ruleset]
    header: Final[Header | None]
    setup: Final[Setup]
    pack: Final[GamePack | None]
    pack_asked: Final[bool]
    scenario: Final[GameScenario | None]

    def __init__(
        self,
        ruleset: Ruleset = CORE,
        header: Header | None = None,
        setup: Setup = Setup(),  # noqa: B008 - an immutable record
        pack: GamePack | None = None,
        pack_asked: bool = False,
        scenario: GameScenario | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.header = header
        self.setup = setup
        self.pack = pack
        self.pack_asked = pack_asked
        self.scenario = scenario


@final
class Progress(Record):
    """How far the log has been read: items and turns, the first and last turn played, whether
    the state is the start of a turn the log has not reached (``between_turns``), the turn being
    replayed (``where_turn``: findings after the game ended are placed on it), what the watch
    found at the last hand-over, the result lines and whether the note on cards without a pack
    was given."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "items",
        "turns",
        "first_turn",
        "last_turn",
        "between_turns",
        "where_turn",
        "handover",
        "result_lines",
        "warned_cards",
    )
    __slots__ = __match_args__

    items: Final[int]
    turns: Final[int]
    first_turn: Final[tuple[int, Color] | None]
    last_turn: Final[tuple[int, Color] | None]
    between_turns: Final[bool]
    where_turn: Final[PlainTurn | None]
    handover: Final[Handover | None]
    result_lines: Final[Link[ResultLine] | None]  # newest first (sgcheck.replay.chain)
    warned_cards: Final[bool]

    def __init__(
        self,
        items: int = 0,
        turns: int = 0,
        first_turn: tuple[int, Color] | None = None,
        last_turn: tuple[int, Color] | None = None,
        between_turns: bool = True,
        where_turn: PlainTurn | None = None,
        handover: Handover | None = None,
        result_lines: Link[ResultLine] | None = None,
        warned_cards: bool = False,
    ) -> None:
        self.items = items
        self.turns = turns
        self.first_turn = first_turn
        self.last_turn = last_turn
        self.between_turns = between_turns
        self.where_turn = where_turn
        self.handover = handover
        self.result_lines = result_lines
        self.warned_cards = warned_cards

    def with_item(self) -> Progress:
        """One more item read."""
        return Progress(
            self.items + 1,
            self.turns,
            self.first_turn,
            self.last_turn,
            self.between_turns,
            self.where_turn,
            self.handover,
            self.result_lines,
            self.warned_cards,
        )

    def at_turn(self, turn: PlainTurn) -> Progress:
        """``turn`` was read (one more item) and findings are placed on it; the hand-over is
        being reported."""
        return Progress(
            self.items + 1,
            self.turns,
            self.first_turn,
            self.last_turn,
            self.between_turns,
            turn,
            None,
            self.result_lines,
            self.warned_cards,
        )

    def with_turn(self, turn: PlainTurn, read: int, between_turns: bool = False) -> Progress:
        """``turn`` is being played (``read``: 1 if it was not counted as an item yet): counted,
        the last (and maybe the first) turn, the one findings are placed on; no hand-over left.
        With ``between_turns``: it was played and ended, and the state is the next turn's start
        (what :meth:`with_turn_ended` with no hand-over then gives, in one step)."""
        last = (turn.number, turn.color)
        return Progress(
            self.items + read,
            self.turns + 1,
            self.first_turn if self.first_turn is not None else last,
            last,
            between_turns,
            turn,
            None,
            self.result_lines,
            self.warned_cards,
        )

    def with_result_line(self, line: ResultLine) -> Progress:
        return self.replace(items=self.items + 1, result_lines=Link(line, self.result_lines))

    def with_turn_ended(self, between_turns: bool, handover: Handover | None) -> Progress:
        """The turn ended: whether the state is the next turn's start, and what the watch found."""
        return Progress(
            self.items,
            self.turns,
            self.first_turn,
            self.last_turn,
            between_turns,
            self.where_turn,
            handover,
            self.result_lines,
            self.warned_cards,
        )


#: A position before anything is read.
START_PROGRESS = Progress()
START_OPENING = Opening()


@final
class ReplayPosition(Record):
    """Where a replay stands after a step; see the module's docstring. ``state`` is None until
    play starts; ``watch`` is core §8 watched in play (:mod:`sgcheck.core.watch`), in a game with
    cards that can break what it watches only; ``capture`` is the last capture of a market game
    (R26), whose reveal the log owes."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "state",
        "statements",
        "watch",
        "capture",
        "progress",
        "opening",
        "cascade",
    )
    __slots__ = __match_args__

    state: Final[GameState | None]
    statements: Final[int]
    watch: Final[Watch | None]
    capture: Final[Statement | None]
    progress: Final[Progress]
    opening: Final[Opening]
    cascade: Final[Cascade]

    def __init__(
        self,
        state: GameState | None = None,
        statements: int = 0,
        watch: Watch | None = None,
        capture: Statement | None = None,
        progress: Progress = START_PROGRESS,
        opening: Opening = START_OPENING,
        cascade: Cascade = Cascade(),  # noqa: B008 - an immutable value
    ) -> None:
        self.state = state
        self.statements = statements
        self.watch = watch
        self.capture = capture
        self.progress = progress
        self.opening = opening
        self.cascade = cascade

    # the steps the turn loop takes on nearly every statement, built by the constructor

    def with_state(self, state: GameState | None) -> ReplayPosition:
        return ReplayPosition(
            state, self.statements, self.watch, self.capture, self.progress, self.opening, self.cascade
        )

    def with_count(self, statements: int) -> ReplayPosition:
        """``statements`` counted so far (R04: a reveal is none)."""
        return ReplayPosition(
            self.state, statements, self.watch, self.capture, self.progress, self.opening, self.cascade
        )

    def with_played(self, state: GameState, watch: Watch | None) -> ReplayPosition:
        """An action applied: its state, and the watch's memory after it."""
        return ReplayPosition(state, self.statements, watch, self.capture, self.progress, self.opening, self.cascade)

    def with_applied(
        self, state: GameState, statements: int, watch: Watch | None, capture: Statement | None
    ) -> ReplayPosition:
        """A statement applied: its state, the statements counted, the watch's memory after it and
        the last capture of a market game."""
        return ReplayPosition(state, statements, watch, capture, self.progress, self.opening, self.cascade)

    def with_ended(self, state: GameState, watch: Watch | None, progress: Progress) -> ReplayPosition:
        """A turn ended: the state after it, the watch's memory and the log's progress."""
        return ReplayPosition(state, self.statements, watch, self.capture, progress, self.opening, self.cascade)

    def with_moved(self, state: GameState, statements: int, progress: Progress) -> ReplayPosition:
        """Steps played at once: the state after them, the statements counted and the progress."""
        return ReplayPosition(state, statements, self.watch, self.capture, progress, self.opening, self.cascade)

    def with_progress(self, progress: Progress) -> ReplayPosition:
        return ReplayPosition(
            self.state, self.statements, self.watch, self.capture, progress, self.opening, self.cascade
        )

    def with_opening(self, opening: Opening) -> ReplayPosition:
        return ReplayPosition(
            self.state, self.statements, self.watch, self.capture, self.progress, opening, self.cascade
        )

    def with_cascade(self, cascade: Cascade) -> ReplayPosition:
        return ReplayPosition(
            self.state, self.statements, self.watch, self.capture, self.progress, self.opening, cascade
        )


#: The position of a replay that has read nothing.
START = ReplayPosition()


@final
class Checkpoint(Record):
    """A replay kept before the turn that starts at ``offset`` (on ``line``, which starts at
    ``line_start``): its position and its findings then, both values, which a replay of the same
    log resumed there starts from (:mod:`sgcheck.replay.resume`)."""

    __match_args__: ClassVar[tuple[str, ...]] = ("offset", "line", "line_start", "position", "found")
    __slots__ = __match_args__

    offset: Final[int]
    line: Final[int]
    line_start: Final[int]
    position: Final[ReplayPosition]
    found: Final[Link[Diagnostic] | None]  # the findings so far (sgcheck.replay.sink.Found)

    def __init__(
        self, offset: int, line: int, line_start: int, position: ReplayPosition, found: Link[Diagnostic] | None
    ) -> None:
        self.offset = offset
        self.line = line
        self.line_start = line_start
        self.position = position
        self.found = found
