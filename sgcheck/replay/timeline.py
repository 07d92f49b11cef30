"""A replay's positions, one after each phase label, statement and end of turn: the data of the
HTML report (``ReplayOptions(timeline=True)``).

The recorder is handed each state as replay goes on and keeps a compact frame of it, a typed
record (:class:`~sgcheck.results.Frame`) of numbers and short strings; the whole is a
:class:`~sgcheck.results.Timeline`. The report embeds each frame's JSON form (``as_json``), a
list whose fields are by position, and its page's script draws the board from them:

==  =========  ===============================================================================
0   line       the source line of the statement, label or turn end (1-based; 0: none)
1   kind       0 the start of play, 1 a phase label, 2 a statement, 3 the end of a turn
2   turn       the turn number
3   side       0 White, 1 Black (whose turn it is)
4   phase      0 Upkeep … 4 End, -1 none yet
5   board      the squares that changed since the previous frame, 3 characters each: the square
               (``e4``) and what stands there now (``PNBRQK`` White, ``pnbrqk`` Black, ``.`` empty);
               the first frame lists every piece
6   damage     the damage dealt this turn, ``[square, amount, ...]`` (square 0 = a1 … 63 = h8)
7   totals     ``[White LP, SP, King damage, Black LP, SP, King damage]``
8   gems       ``"<White's 12 counts>/<Black's 12 counts>"`` (each Gem's pieces by
               :attr:`~sgcheck.core.pieces.Piece.index`, one digit each), with ``!`` after a
               broken Gem; ``0`` when unchanged since the previous frame (``UNCHANGED``)
9   cards      ``[[White's Relics in play], [Black's], [White's Spells cast], [Black's],
               White's hand size, Black's]``; ``0`` when unchanged, ``null`` in a game without cards
10  squares    the squares the statement names, ``[from, to]`` (-1 where it names none)
11  explained  why the statement came out as it did (:mod:`sgcheck.replay.explain`, an
               :class:`~sgcheck.results.Explanation`): the line, turn, side, phase, statement,
               ``legal``, the ``facts`` the core worked out and the totals ``after``; at a turn
               end, the Pass bonus and the next player's income; ``null`` for other frames and a
               turn end where nothing was worked out
==  =========  ===============================================================================

``ended`` is the first frame at which the game is over (None: it never ends), and ``header`` the
log's header tags as ``[name, value]`` pairs, in the order written (the page's header shows the
players, the event, the date and the ``[Result]`` tag from them).

``marks`` maps a diagnostic (its index in the replay's findings) to the frame it is shown at:
the frame of the statement or label being replayed when it was reported.

:class:`Recording` keeps the frames: an observer of the turn loop
(:class:`~sgcheck.replay.observer.ReplayObserver`), told of each step as it is played, with why it
came out as it did (:mod:`sgcheck.replay.explain`); the report reads the timeline it produces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from sgcheck.codes import Family, family_of
from sgcheck.core.actions import Action, Activate, Attack, Move, Play, Summon, Teleport
from sgcheck.core.outcome import Applied, Rejected
from sgcheck.core.pieces import Color
from sgcheck.core.squares import ALL_SQUARES, name
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.ast import Statement
from sgcheck.lang.logs.reader import PlainTurn, TurnStep
from sgcheck.lang.logs.writer import format_statement
from sgcheck.replay.describe import statement_word
from sgcheck.replay.explain import END_OF_TURN, explain_income, explain_step, not_a_pass
from sgcheck.replay.observer import GO, Flow, ReplayObserver
from sgcheck.results import (
    UNCHANGED,
    CardsShown,
    Explanation,
    Frame,
    Timeline,
    TimelineMarker,
    TimelineResult,
    Unchanged,
)

#: Frame kinds (field 1).
START, LABEL, STATEMENT, TURN_END = 0, 1, 2, 3

_NO_SQUARES = (-1, -1)
_NAMES = tuple(name(sq) for sq in ALL_SQUARES)


def _cell(state: GameState, sq: int) -> str:
    p = state.board[sq]
    if p is None:
        return "."
    letter = p.kind.letter
    return letter if p.color is Color.WHITE else letter.lower()


def action_squares(action: Action | None) -> tuple[int, int]:
    """The squares an action names, ``(from, to)``, -1 where it names none (a summon has no from)."""
    match action:
        case Move() | Attack() | Teleport():
            return int(action.frm), int(action.to)
        case Summon():
            return -1, int(action.to)
        case Activate() | Play() if action.target is not None:
            return -1, int(action.target)
        case _:
            return _NO_SQUARES


@dataclass(slots=True)
class Recorder:
    """Frames of a replay as it goes on; see the module's docstring for their fields."""

    frames: list[Frame] = field(default_factory=list)
    marks: list[tuple[int, int]] = field(default_factory=list)
    ended: int | None = None  # the first frame at which the game is over
    _board: tuple[object, ...] = ()
    _gems: str = ""
    _cards: CardsShown | None = None

    def record(
        self,
        state: GameState,
        kind: int,
        line: int,
        squares: tuple[int, int] = _NO_SQUARES,
        explained: Explanation | None = None,
    ) -> None:
        if self.ended is None and state.result is not None:
            self.ended = len(self.frames)
        board = state.board
        before = self._board or (None,) * 64
        pairs = enumerate(zip(board, before, strict=True))
        changed = "".join(_NAMES[sq] + _cell(state, sq) for sq, (now, then) in pairs if now is not then)
        self._board = board
        white, black = state.players
        gems = (
            "".join(str(n) for n in white.gem)
            + ("!" if white.gem_broken else "")
            + "/"
            + "".join(str(n) for n in black.gem)
            + ("!" if black.gem_broken else "")
        )
        gem_field: str | Unchanged = gems if gems != self._gems else UNCHANGED
        self._gems = gems
        cards_field: CardsShown | Unchanged | None = None
        if state.cards is not None:
            table = state.cards
            cards = CardsShown(
                tuple(r.card for r in table.in_play if r.owner is Color.WHITE),
                tuple(r.card for r in table.in_play if r.owner is Color.BLACK),
                tuple(table.discarded[Color.WHITE]),
                tuple(table.discarded[Color.BLACK]),
                len(table.hands[Color.WHITE]),
                len(table.hands[Color.BLACK]),
            )
            cards_field = cards if cards != self._cards else UNCHANGED
            self._cards = cards
        damage = tuple(n for sq, amount in state.turn.damage for n in (int(sq), amount))
        self.frames.append(
            Frame(
                line=line,
                kind=kind,
                turn=state.turn_number,
                side=int(state.to_move),
                phase=int(state.turn.phase) if kind != START else -1,
                board=changed,
                damage=damage,
                totals=(white.lp, white.sp, white.king_damage, black.lp, black.sp, black.king_damage),
                gems=gem_field,
                cards=cards_field,
                squares=squares,
                explained=explained,
            )
        )

    def mark(self, diagnostic_index: int, frame_index: int) -> None:
        self.marks.append((diagnostic_index, frame_index))

    def data(self, state: GameState | None, source: str, header: Sequence[tuple[str, str]] = ()) -> Timeline:
        """The timeline: the log's source name, the frames, the marks, the game's result (and the
        frame it ended at), the scenario's markers, the log's header tags (``header``: name and
        value, as written) and the explanations of the frames in order (field 11 of each frame
        that has one: ``sgcheck replay --format json --timeline``)."""
        result = None
        if state is not None and state.result is not None:
            result = TimelineResult(state.result.score, state.result.detail)
        markers: tuple[TimelineMarker, ...] = ()
        if state is not None and state.scenario is not None:
            markers = tuple(
                TimelineMarker(m.name, tuple(int(sq) for sq in m.squares)) for m in state.scenario.scenario.markers
            )
        frames = tuple(self.frames)
        return Timeline(
            source=source,
            frames=frames,
            marks=tuple(self.marks),
            result=result,
            ended=self.ended,
            markers=markers,
            header=tuple((tag, value) for tag, value in header),
            explanations=tuple(frame.explained for frame in frames if frame.explained is not None),
        )


class Recording(ReplayObserver):
    """Records the position after each phase label, statement and end of turn
    (``ReplayOptions(timeline=True)``), the frame each finding is shown at, and why each statement
    and end of turn came out as it did; keeps the frames ``keep_line`` or ``keep_turn`` ask for
    (``sgcheck replay --explain`` and ``--at``)."""

    def __init__(self, keep_line: int | None = None, keep_turn: tuple[int, int] | None = None) -> None:
        self.recorder = Recorder()
        self.keep_line, self.keep_turn = keep_line, keep_turn
        self.in_step = False  # a step is being played: its findings are shown at its frame
        self.last: tuple[GameState, Action, Applied | Rejected] | None = None  # the step's application
        self.kept: list[tuple[Explanation, GameState]] = []

    # --- the turn loop's calls ---------------------------------------------------------------

    def started(self, state: GameState, line: int) -> Flow:
        self.recorder.record(state, START, line)
        return GO

    def step_begins(self) -> Flow:
        self.in_step = True
        self.last = None
        return GO

    def applied(self, before: GameState, action: Action, outcome: Applied | Rejected) -> None:
        self.last = (before, action, outcome)

    def reported(self, index: int) -> None:
        frames = len(self.recorder.frames)
        self.recorder.mark(index, frames if self.in_step else frames - 1)

    def label_played(self, line: int, state: GameState | None) -> Flow:
        self._record(LABEL, line, _NO_SQUARES, state, None)
        return GO

    def statement_played(
        self,
        turn: PlainTurn,
        step: TurnStep,
        before: GameState | None,
        state: GameState | None,
        findings: Sequence[Diagnostic],
    ) -> Flow:
        stmt = turn.statement(step)
        line = stmt.span.line
        explained = None
        if before is not None and state is not None:
            explained = self._explain_statement(step, stmt, line, before, state, findings)
        self._record(STATEMENT, line, action_squares(step.action), state, explained)
        return GO

    def turn_ended(self, turn: PlainTurn, passes: Sequence[TurnStep], state: GameState | None) -> Flow:
        line = turn.tree().span.end_line
        explained: Explanation | None = None
        if self.last is not None and state is not None:
            before, action, applied = self.last
            if isinstance(applied, Applied):
                written = "; ".join(_written(turn.statement(step)) for step in passes) or END_OF_TURN
                explained = explain_step(line, before, state, written, action, applied.effects)
                if passes and not applied.effects.passed:
                    explained = replace(explained, facts=(not_a_pass(before), *explained.facts))
        self._record(TURN_END, line, _NO_SQUARES, state, explained)
        return GO

    # --- frames ------------------------------------------------------------------------------

    def _record(
        self,
        kind: int,
        line: int,
        squares: tuple[int, int],
        state: GameState | None,
        explained: Explanation | None,
    ) -> None:
        self.in_step = False
        if state is None:
            return
        self.recorder.record(state, kind, line, squares, explained)
        if explained is not None and self._wanted(kind, line, explained):
            self.kept.append((explained, state))

    def _wanted(self, kind: int, line: int, explained: Explanation) -> bool:
        """Whether --explain or --at asked for this frame: a statement at the line (or the end of
        the turn there, when it is a written Pass), or a statement or end of the turn."""
        if self.keep_line is not None:
            return line == self.keep_line and (kind == STATEMENT or explained.statement != END_OF_TURN)
        if self.keep_turn is not None:
            side = 0 if explained.side == "white" else 1
            return (explained.turn, side) == self.keep_turn
        return False

    def _explain_statement(
        self,
        step: TurnStep,
        stmt: Statement,
        line: int,
        before: GameState,
        after: GameState,
        findings: Sequence[Diagnostic],
    ) -> Explanation | None:
        written = _written(stmt)
        if self.last is None:  # not applied: an income note, or refused before the core saw it
            refused = next((d for d in findings if d.is_error and not _claim(d)), None)
            if step.word == "income":
                return explain_income(line, before, written, refused)
            return explain_step(line, before, after, written, step.action, None, refused)
        state, action, applied = self.last
        if isinstance(applied, Rejected):
            return explain_step(line, state, after, written, action, None, applied.first.diagnostic)
        return explain_step(line, state, after, written, action, applied.effects)

    def data(self, state: GameState | None, source: str, header: Sequence[tuple[str, str]]) -> Timeline:
        """The positions recorded (:meth:`Recorder.data`)."""
        return self.recorder.data(state, source, header)


def _written(stmt: Statement) -> str:
    """A statement in its canonical text (``attack Ra3 Pa5 roll 3 4 cost 12``), else its word."""
    try:
        return format_statement(stmt)
    except (ValueError, TypeError):
        return statement_word(stmt)


def _claim(diag: Diagnostic) -> bool:
    """A finding about a wrong claim (SG-R2xx): the statement itself was played."""
    return family_of(diag.code) is Family.CLAIM
