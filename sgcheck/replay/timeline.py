"""A replay's positions, one after each phase label, statement and end of turn: the data of the
HTML report (``ReplayOptions(timeline=True)``).

The recorder is handed each state as replay goes on and keeps a compact frame of it: numbers
and short strings only, JSON-compatible as they are, so the report embeds them unchanged and
its page's script draws the board from them. A frame is a list, by position:

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
               broken Gem; ``0`` when unchanged since the previous frame
9   cards      ``[[White's Relics in play], [Black's], [White's Spells cast], [Black's],
               White's hand size, Black's]``; ``0`` when unchanged, ``null`` in a game without cards
10  squares    the squares the statement names, ``[from, to]`` (-1 where it names none)
11  explained  why the statement came out as it did (:mod:`sgcheck.replay.explain`): a dict
               with the line, turn, side, phase, statement, ``legal``, the ``facts`` the core
               worked out and the totals ``after``; at a turn end, the Pass bonus and the next
               player's income; ``null`` for other frames and a turn end where nothing was worked out
==  =========  ===============================================================================

``ended`` is the first frame at which the game is over (None: it never ends), and ``header`` the
log's header tags as ``[name, value]`` pairs, in the order written (the page's header shows the
players, the event, the date and the ``[Result]`` tag from them).

``marks`` maps a diagnostic (its index in the replay's findings) to the frame it is shown at:
the frame of the statement or label being replayed when it was reported. The module imports
only the core: the interpreter calls it, and the report reads the data it produces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sgcheck.core.actions import Action, Activate, Attack, Move, Play, Summon, Teleport
from sgcheck.core.pieces import Color
from sgcheck.core.squares import ALL_SQUARES, name
from sgcheck.core.state import GameState

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

    frames: list[list[object]] = field(default_factory=list)
    marks: list[tuple[int, int]] = field(default_factory=list)
    ended: int | None = None  # the first frame at which the game is over
    _board: tuple[object, ...] = ()
    _gems: str = ""
    _cards: object = None

    def record(
        self,
        state: GameState,
        kind: int,
        line: int,
        squares: tuple[int, int] = _NO_SQUARES,
        explained: dict[str, object] | None = None,
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
        gem_field: object = gems if gems != self._gems else 0
        self._gems = gems
        cards_field: object = None
        if state.cards is not None:
            table = state.cards
            cards: list[object] = [
                [r.card for r in table.in_play if r.owner is Color.WHITE],
                [r.card for r in table.in_play if r.owner is Color.BLACK],
                list(table.discarded[Color.WHITE]),
                list(table.discarded[Color.BLACK]),
                len(table.hands[Color.WHITE]),
                len(table.hands[Color.BLACK]),
            ]
            cards_field = cards if cards != self._cards else 0
            self._cards = cards
        damage = [n for sq, amount in state.turn.damage for n in (int(sq), amount)]
        self.frames.append(
            [
                line,
                kind,
                state.turn_number,
                int(state.to_move),
                int(state.turn.phase) if kind != START else -1,
                changed,
                damage,
                [white.lp, white.sp, white.king_damage, black.lp, black.sp, black.king_damage],
                gem_field,
                cards_field,
                list(squares),
                explained,
            ]
        )

    def mark(self, diagnostic_index: int, frame_index: int) -> None:
        self.marks.append((diagnostic_index, frame_index))

    def data(
        self, state: GameState | None, source: str, header: Sequence[tuple[str, str]] = ()
    ) -> dict[str, object]:
        """The timeline as JSON-compatible data: the log's source name, the frames, the marks, the
        game's result (and the frame it ended at), the scenario's markers, the log's header tags
        (``header``: name and value, as written) and the explanations of the frames in order
        (field 11 of each frame that has one: ``sgcheck replay --format json --timeline``)."""
        result = None
        if state is not None and state.result is not None:
            result = {"score": state.result.score, "detail": state.result.detail}
        markers: list[dict[str, object]] = []
        if state is not None and state.scenario is not None:
            for m in state.scenario.scenario.markers:
                markers.append({"name": m.name, "squares": [int(sq) for sq in m.squares]})
        return {
            "source": source,
            "frames": self.frames,
            "marks": [list(mark) for mark in self.marks],
            "result": result,
            "ended": self.ended,
            "markers": markers,
            "header": [[tag, value] for tag, value in header],
            "explanations": [frame[11] for frame in self.frames if frame[11] is not None],
        }
