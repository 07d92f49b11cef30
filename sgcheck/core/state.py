"""Immutable game state (core §1-§7).

Every transition returns a new :class:`GameState`; nothing is mutated. Gems are
tuples of 12 counts indexed by :attr:`Piece.index`, the board a tuple of 64 cells.

The records are immutable native classes (:class:`sgcheck.core.record.Record`): ``Final``
fields set once in ``__init__``, compared and hashed by value. Change one with its ``with_*``
methods (the changes the rules make on every action, built by the constructor) or, for the
rarer ones, ``record.replace(field=value)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, final

from sgcheck.core import caps
from sgcheck.core.pieces import BLACK, KING, PIECES, SET_COUNTS, WHITE, Color, Outcome, Phase, Piece, piece
from sgcheck.core.record import Record
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.squares import Square

if TYPE_CHECKING:
    from sgcheck.core.cards.table import CardsState
    from sgcheck.core.scenario import Scenario, ScenarioPlay

Board = tuple[Piece | None, ...]
Gem = tuple[int, ...]

EMPTY_GEM: Gem = (0,) * 12


@final
class Payment(Record):
    """How a cost was paid (R05)."""

    __match_args__: ClassVar[tuple[str, ...]] = ("sp", "lp")
    __slots__ = __match_args__

    sp: Final[int]
    lp: Final[int]

    def __init__(self, sp: int, lp: int) -> None:
        self.sp = sp
        self.lp = lp

    @property
    def total(self) -> int:
        return self.sp + self.lp

    def __str__(self) -> str:
        return f"{self.sp} SP + {self.lp} LP"


@final
class PlayerState(Record):
    __match_args__: ClassVar[tuple[str, ...]] = ("lp", "sp", "gem", "gem_broken", "king_damage", "turns_started")
    __slots__ = __match_args__

    lp: Final[int]
    sp: Final[int]
    gem: Final[Gem]
    gem_broken: Final[bool]
    king_damage: Final[int]  # damage this player's King has taken (never clears, R11)
    turns_started: Final[int]

    def __init__(
        self, lp: int, sp: int, gem: Gem, gem_broken: bool = False, king_damage: int = 0, turns_started: int = 0
    ) -> None:
        self.lp = lp
        self.sp = sp
        self.gem = gem
        self.gem_broken = gem_broken
        self.king_damage = king_damage
        self.turns_started = turns_started

    def with_funds(self, lp: int, sp: int) -> PlayerState:
        """The most common change: LP and SP."""
        return PlayerState(lp, sp, self.gem, self.gem_broken, self.king_damage, self.turns_started)

    def with_gem(self, gem: Gem, sp: int) -> PlayerState:
        """A capture: the Gem and SP change together."""
        return PlayerState(self.lp, sp, gem, self.gem_broken, self.king_damage, self.turns_started)

    def starting_turn(self, income: int) -> PlayerState:
        """Upkeep: one more turn started, and the SP income gained."""
        return PlayerState(
            self.lp, self.sp + income, self.gem, self.gem_broken, self.king_damage, self.turns_started + 1
        )


@final
class TurnState(Record):
    """What has happened so far in the current turn (the per-turn limits of core §2, §5, §6)."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "phase",
        "actions",
        "activations",
        "summoned",
        "broke",
        "repaired",
        "teleported",
        "converted_sp",
        "income",
        "damage",
    )
    __slots__ = __match_args__

    phase: Final[Phase]
    actions: Final[int]  # R04: anything but income and clean-up
    activations: Final[int]  # R17
    summoned: Final[bool]  # R12
    broke: Final[bool]  # R15
    repaired: Final[bool]  # R15
    teleported: Final[bool]  # R13
    converted_sp: Final[int]  # R16
    income: Final[int]  # SP gained at this Upkeep (R14)
    damage: Final[tuple[tuple[Square, int], ...]]  # partial damage dealt this turn (R11)

    def __init__(
        self,
        phase: Phase = Phase.UPKEEP,
        actions: int = 0,
        activations: int = 0,
        summoned: bool = False,
        broke: bool = False,
        repaired: bool = False,
        teleported: bool = False,
        converted_sp: int = 0,
        income: int = 0,
        damage: tuple[tuple[Square, int], ...] = (),
    ) -> None:
        self.phase = phase
        self.actions = actions
        self.activations = activations
        self.summoned = summoned
        self.broke = broke
        self.repaired = repaired
        self.teleported = teleported
        self.converted_sp = converted_sp
        self.income = income
        self.damage = damage

    def with_phase(self, phase: Phase) -> TurnState:
        return TurnState(
            phase,
            self.actions,
            self.activations,
            self.summoned,
            self.broke,
            self.repaired,
            self.teleported,
            self.converted_sp,
            self.income,
            self.damage,
        )

    def counted(self) -> TurnState:
        """One more action this turn (R04)."""
        return TurnState(
            self.phase,
            self.actions + 1,
            self.activations,
            self.summoned,
            self.broke,
            self.repaired,
            self.teleported,
            self.converted_sp,
            self.income,
            self.damage,
        )

    def summoning(self) -> TurnState:
        """This turn's Summon is made (R12)."""
        return TurnState(
            self.phase,
            self.actions,
            self.activations,
            True,
            self.broke,
            self.repaired,
            self.teleported,
            self.converted_sp,
            self.income,
            self.damage,
        )

    def with_damage(self, damage: tuple[tuple[Square, int], ...]) -> TurnState:
        return TurnState(
            self.phase,
            self.actions,
            self.activations,
            self.summoned,
            self.broke,
            self.repaired,
            self.teleported,
            self.converted_sp,
            self.income,
            damage,
        )

    def damage_on(self, sq: Square) -> int:
        for s, d in self.damage:
            if s == sq:
                return d
        return 0


@final
class GameResult(Record):
    __match_args__: ClassVar[tuple[str, ...]] = ("winner", "outcome", "turn_number", "detail")
    __slots__ = __match_args__

    winner: Final[Color | None]  # None: a draw
    outcome: Final[Outcome]
    turn_number: Final[int]
    detail: Final[str]

    def __init__(self, winner: Color | None, outcome: Outcome, turn_number: int, detail: str) -> None:
        self.winner = winner
        self.outcome = outcome
        self.turn_number = turn_number
        self.detail = detail

    @property
    def score(self) -> str:
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is WHITE else "0-1"


@final
class GameState(Record):
    __match_args__: ClassVar[tuple[str, ...]] = (
        "board",
        "players",
        "to_move",
        "turn_number",
        "turn",
        "ruleset",
        "result",
        "cards",
        "scenario",
    )
    __slots__ = __match_args__

    board: Final[Board]
    players: Final[tuple[PlayerState, PlayerState]]
    to_move: Final[Color]
    turn_number: Final[int]
    turn: Final[TurnState]
    ruleset: Final[Ruleset]
    result: Final[GameResult | None]
    # The game's Relic & Spell cards (hands, cards in play, lasting effects); None in a game
    # played without a pack, which keeps every rule on its card-free path.
    cards: Final[CardsState | None]
    # The game's scenario and what its win conditions remember (R24); None in a game played
    # from the core's setup, whose rules then never look at scenarios.
    scenario: Final[ScenarioPlay | None]

    def __init__(
        self,
        board: Board,
        players: tuple[PlayerState, PlayerState],
        to_move: Color,
        turn_number: int,
        turn: TurnState,
        ruleset: Ruleset = CORE,
        result: GameResult | None = None,
        cards: CardsState | None = None,
        scenario: ScenarioPlay | None = None,
    ) -> None:
        self.board = board
        self.players = players
        self.to_move = to_move
        self.turn_number = turn_number
        self.turn = turn
        self.ruleset = ruleset
        self.result = result
        self.cards = cards
        self.scenario = scenario

    def player(self, color: Color) -> PlayerState:
        return self.players[color]

    @property
    def mover(self) -> PlayerState:
        return self.players[self.to_move]

    @property
    def opponent(self) -> PlayerState:
        return self.players[self.to_move.other]

    def with_player(self, color: Color, player: PlayerState) -> GameState:
        players = (player, self.players[1]) if color is WHITE else (self.players[0], player)
        return self.with_play(self.board, players, self.turn)

    def with_turn(self, turn: TurnState) -> GameState:
        return self.with_play(self.board, self.players, turn)

    def with_board(self, board: Board) -> GameState:
        return self.with_play(board, self.players, self.turn)

    def with_play(self, board: Board, players: tuple[PlayerState, PlayerState], turn: TurnState) -> GameState:
        """Board, players and turn at once: the change nearly every action makes."""
        return GameState(
            board,
            players,
            self.to_move,
            self.turn_number,
            turn,
            self.ruleset,
            self.result,
            self.cards,
            self.scenario,
        )

    def handed_over(
        self, players: tuple[PlayerState, PlayerState], to_move: Color, number: int, turn: TurnState
    ) -> GameState:
        """The next player's turn begins."""
        return GameState(
            self.board, players, to_move, number, turn, self.ruleset, self.result, self.cards, self.scenario
        )

    def with_cards(self, cards: CardsState | None) -> GameState:
        return GameState(
            self.board,
            self.players,
            self.to_move,
            self.turn_number,
            self.turn,
            self.ruleset,
            self.result,
            cards,
            self.scenario,
        )

    def king_square(self, color: Color) -> Square | None:
        king = piece(color, KING)
        for i, p in enumerate(self.board):
            if p is king:
                return Square(i)
        return None


def full_gem(color: Color) -> Gem:
    """A Gem holding all 15 non-King pieces of ``color`` (core §1)."""
    return _FULL_GEMS[color]


def _full_gem(color: Color) -> Gem:
    counts = [0] * 12
    for kind, count in SET_COUNTS.items():
        if kind is not KING:
            counts[piece(color, kind).index] = count
    return tuple(counts)


_FULL_GEMS: Final[dict[Color, Gem]] = {color: _full_gem(color) for color in Color}


def initial_state(
    white_king: Square, black_king: Square, ruleset: Ruleset = CORE, scenario: Scenario | None = None
) -> GameState:
    """The position after setup: two Kings on an otherwise empty board, White to play turn 1 (R01, R02).

    With a ``scenario`` (R24), its pieces stand on the board too, each side starts with its LP,
    SP and Gem, and its first player plays turn 1 (Black's first turn is ``1...``, and White's
    first turn is then ``2.``, so turns keep their order). The Kings are placed where the
    scenario puts them, else on ``white_king`` and ``black_king``. Placement legality is
    checked by :mod:`sgcheck.core.setup` and the scenario loader; this only builds the state.
    """
    cells: list[Piece | None] = [None] * 64
    if scenario is not None:  # a King the scenario places stands where it says
        placed = scenario.side(WHITE).king, scenario.side(BLACK).king
        white_king = white_king if placed[0] is None else placed[0]
        black_king = black_king if placed[1] is None else placed[1]
    cells[white_king] = piece(WHITE, KING)
    cells[black_king] = piece(BLACK, KING)
    if scenario is None:
        players = tuple(
            PlayerState(lp=caps.START_LP, sp=caps.START_SP, gem=full_gem(c), turns_started=0) for c in Color
        )
    else:
        for color in Color:
            for sq, kind in scenario.side(color).pieces:
                cells[sq] = piece(color, kind)
        players = tuple(
            PlayerState(lp=scenario.side(c).lp, sp=scenario.side(c).sp, gem=scenario.gem(c), turns_started=0)
            for c in Color
        )
    white, black = players
    first = WHITE if scenario is None else scenario.first
    state = GameState(
        board=tuple(cells),
        players=(white, black),
        to_move=first,
        turn_number=1,
        turn=TurnState(),
        ruleset=ruleset,
    )
    if scenario is not None:
        from sgcheck.core.scenario import ScenarioPlay

        state = state.replace(scenario=ScenarioPlay(scenario))
    return state.with_player(first, state.player(first).replace(turns_started=1))


def piece_census(state: GameState) -> dict[Piece, int]:
    """How many of each piece exist on the board and in both Gems (pieces are never created or lost)."""
    counts = {p: 0 for p in PIECES}
    for cell in state.board:
        if cell is not None:
            counts[cell] += 1
    for player in state.players:
        for p in PIECES:
            counts[p] += player.gem[p.index]
    return counts
