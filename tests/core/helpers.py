"""Small builders for core tests: arbitrary positions, asserting on ``apply``, random games.

Positions are written FEN-style, one piece per word: ``"Ke1 Ra1 ke8 pa7"`` (upper case is
White, lower case Black). Gems are filled so that every piece of both full sets exists
exactly once somewhere (on the board or in a Gem), as in a real game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from hypothesis import note
from hypothesis import strategies as st

from sgcheck.core.actions import Action, Attack, Break, EndTurn, EnterPhase, Part, Repair
from sgcheck.core.cards.table import CardsByName, CardsState
from sgcheck.core.engine import apply
from sgcheck.core.legal import CATEGORIES, accepted, with_roll
from sgcheck.core.outcome import Applied, Rejected, Violation
from sgcheck.core.pieces import PIECES, SET_COUNTS, Color, Kind, Phase, Piece, piece
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.squares import ALL_SQUARES, Square, parse_square
from sgcheck.core.state import GameState, PlayerState, TurnState, initial_state
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.logs.from_actions import statement_for
from sgcheck.lang.logs.writer import format_statement
from sgcheck.replay.generate import Style, choose

W, B = Color.WHITE, Color.BLACK

#: d100 = 1: hits whatever the threshold (thresholds are never below 5, core §4.2).
HIT = (0, 1)
#: "0 0" reads 100: misses whatever the threshold (thresholds never exceed 95, core §4.2).
MISS = (0, 0)
#: 3d6 totals.
ROLL_18 = (6, 6, 6)
ROLL_3 = (1, 1, 1)


def sq(text: str) -> Square:
    return parse_square(text)


def parse_pieces(spec: str) -> dict[Square, Piece]:
    """``"Ke1 pa7"`` -> {e1: White King, a7: Black Pawn}."""
    out: dict[Square, Piece] = {}
    for word in spec.split():
        letter, where = word[0], word[1:]
        color = W if letter.isupper() else B
        square = sq(where)
        assert square not in out, f"{where} given twice"
        out[square] = piece(color, Kind.from_letter(letter))
    return out


def _pair(value: int | tuple[int, int]) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else value


def position(
    spec: str,
    *,
    to_move: Color = W,
    phase: Phase = Phase.MAIN1,
    lp: int | tuple[int, int] = 20,
    sp: int | tuple[int, int] = 0,
    captured: Mapping[Color, Mapping[Kind, int]] | None = None,
    gem_broken: tuple[bool, bool] = (False, False),
    king_damage: tuple[int, int] = (0, 0),
    turn_number: int = 3,
    turns_started: tuple[int, int] | None = None,
    ruleset: Ruleset = CORE,
    turn: TurnState | None = None,
) -> GameState:
    """A position mid-game (not anyone's first turn unless ``turns_started`` says so).

    ``captured[c]`` are the enemy pieces held in ``c``'s Gem; ``king_damage[c]`` is the damage
    ``c``'s own King has taken. Own pieces not on the board and not captured are in their Gem.
    """
    board_pieces = parse_pieces(spec)
    captured = captured or {}
    cells: list[Piece | None] = [None] * 64
    for square, p in board_pieces.items():
        cells[square] = p
    players = []
    lps, sps = _pair(lp), _pair(sp)
    for color in Color:
        gem = [0] * 12
        for kind, total in SET_COUNTS.items():
            if kind is Kind.KING:
                continue
            on_board = sum(1 for p in board_pieces.values() if p == piece(color, kind))
            taken = captured.get(color.other, {}).get(kind, 0)
            left = total - on_board - taken
            assert left >= 0, f"too many {color.title} {kind.title}s"
            gem[piece(color, kind).index] += left
        for kind, n in captured.get(color, {}).items():
            gem[piece(color.other, kind).index] += n
        players.append(PlayerState(lps[color], sps[color], tuple(gem), gem_broken[color], king_damage[color]))
    if turns_started is None:
        turns_started = (turn_number, turn_number - (1 if to_move is W else 0))
    players = [p.replace(turns_started=n) for p, n in zip(players, turns_started, strict=True)]
    return GameState(
        board=tuple(cells),
        players=(players[0], players[1]),
        to_move=to_move,
        turn_number=turn_number,
        turn=turn if turn is not None else TurnState(phase=phase),
        ruleset=ruleset,
    )


def ok(state: GameState, action: Action) -> Applied:
    """``action`` must be legal; returns the step."""
    step = apply(state, action)
    if isinstance(step, Rejected):
        d = step.first.diagnostic
        raise AssertionError(f"{action!r} was rejected: {d.code} {d.message}")
    return step


def rejected(state: GameState, action: Action, code: str, *fragments: str, part: Part | None = None) -> Violation:
    """``action`` must be illegal with ``code``; the message must contain every fragment."""
    step = apply(state, action)
    assert isinstance(step, Rejected), f"{action!r} was accepted, expected {code}"
    v = step.first
    d = v.diagnostic
    assert d.code == code, f"expected {code}, got {d.code}: {d.message}"
    for fragment in fragments:
        assert fragment in d.message, f"{fragment!r} not in {d.message!r}"
    if part is not None:
        assert v.part is part, f"expected part {part}, got {v.part}"
    return v


def play(state: GameState, *actions: Action) -> GameState:
    """Apply every action (each must be legal) and return the final state."""
    for action in actions:
        state = ok(state, action).state
    return state


def enter(state: GameState, phase: Phase) -> GameState:
    return ok(state, EnterPhase(phase)).state


def end_turn(state: GameState) -> GameState:
    return ok(state, EndTurn()).state


def funds(state: GameState, color: Color) -> tuple[int, int]:
    """(LP, SP) of ``color``."""
    p = state.player(color)
    return p.lp, p.sp


def full_census() -> dict[Piece, int]:
    """A full chess set for both colours: 8P 2N 2B 2R 1Q 1K each."""
    return {p: SET_COUNTS[p.kind] for p in PIECES}


def roll_for(rng: random.Random, action: Action) -> Action:
    """Fill the dice of a dice-bearing action from :func:`legal_actions` with random faces."""
    if isinstance(action, Attack):
        return with_roll(action, (rng.randrange(10), rng.randrange(10)))
    if isinstance(action, Break | Repair):
        return with_roll(action, tuple(rng.randint(1, 6) for _ in range(3)))
    return action


def random_start(rng: random.Random, ruleset: Ruleset = CORE) -> GameState:
    """Two Kings anywhere in their camps (core §1)."""
    return initial_state(ALL_SQUARES[rng.randrange(32)], ALL_SQUARES[rng.randrange(32, 64)], ruleset)


def pick_legal(state: GameState, rng: random.Random) -> Action | None:
    """A random legal action: a random non-empty category of the phase, then uniformly in it."""
    categories = list(CATEGORIES[state.turn.phase])
    rng.shuffle(categories)
    for category in categories:
        options = list(accepted(state, category(state)))
        if options:
            return roll_for(rng, rng.choice(options))
    return None


Policy = Callable[[GameState, random.Random], Action | None]


def style_policy(style: Style) -> Policy:
    """The generator's own policy for ``style`` (it picks among ``legal_actions`` and rolls dice)."""
    return lambda state, rng: choose(state, style, rng)


def walk(
    rng: int | random.Random,
    *,
    steps: int = 300,
    ruleset: Ruleset = CORE,
    rich: bool = False,
    policy: Policy = pick_legal,
    cards: CardsState | None = None,
) -> Iterator[tuple[GameState, Action, Applied]]:
    """Play random legal actions from a random start; yield (state before, action, step).

    ``rng`` drives every choice: a seed (a fixed corpus of games), or a ``random.Random`` such as
    one drawn from :func:`game_rngs` in a hypothesis test. ``rich`` starts both players with
    200 LP (and 60 SP in a game with cards) so that every kind of action is affordable.
    ``cards``: the hands both sides start with (a game with a pack, R19).
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    state = random_start(rng, ruleset).replace(cards=cards)
    if rich:
        sp = 0 if cards is None else 60  # cards cost SP: a game with cards starts with some
        state = state.replace(players=(state.players[0].with_funds(200, sp), state.players[1].with_funds(200, sp)))
    for _ in range(steps):
        if state.result is not None:
            return
        action = policy(state, rng)
        assert action is not None, "a live game always has EndTurn"
        step = ok(state, action)
        yield state, action, step
        state = step.state


# --- random games in hypothesis tests -------------------------------------------------------------

#: How many calls of a game's random source are hypothesis choices (see :class:`RecordedRandom`).
RECORDED_CALLS = 200


class RecordedRandom(random.Random):
    """A game's random source for hypothesis: its first ``budget`` calls are choices of
    ``recorded``, a ``st.randoms(use_true_random=False)``; the rest come from ``seed``.

    Every decision of a random game (a category, an action among the legal ones, a die, the
    generator's weights and noise) goes through :meth:`random` or :meth:`_randbelow`: ``choice``,
    ``shuffle``, ``randrange``, ``randint`` and ``sample`` are built on them. Recorded decisions
    shrink to the first option, the lowest die and zero noise, so a failing game shrinks to the
    fewest and simplest moves that still fail. A 400-step game makes up to 14,000 calls (the
    aggressive style draws noise for every legal action): more than hypothesis records for one
    example (8 KiB of choices), and each recorded call costs some 30 microseconds. So only the
    opening is recorded, and the seed, itself drawn and shrunk, plays the rest.
    """

    def __init__(self, recorded: random.Random, seed: int, budget: int = RECORDED_CALLS) -> None:
        super().__init__(seed)
        self._recorded = recorded
        self._tail = random.Random(seed)
        self._seed = seed
        self._budget = budget
        self._left = budget

    def __repr__(self) -> str:
        return f"RecordedRandom(first {self._budget} calls recorded, then seed={self._seed})"

    def random(self) -> float:
        if self._left > 0:
            self._left -= 1
            # 53 recorded bits, as Random.random() itself uses: an integer choice is cheaper to
            # record than a float and shrinks to 0.0 just the same.
            return self._recorded.getrandbits(53) * 2.0**-53
        return self._tail.random()

    def _randbelow(self, n: int) -> int:
        if self._left > 0:
            self._left -= 1
            return self._recorded.randrange(n)
        return self._tail.randrange(n)


def game_rngs(budget: int = RECORDED_CALLS) -> st.SearchStrategy[random.Random]:
    """The random source of one game in a hypothesis test (see :class:`RecordedRandom`)."""
    return st.builds(RecordedRandom, st.randoms(use_true_random=False), st.integers(0, 2**32 - 1), st.just(budget))


def action_text(state: GameState, action: Action) -> str:
    """``action`` taken in ``state``, as a game log writes it: ``3... move Nb8 c6``."""
    turn = f"{state.turn_number}{'.' if state.to_move is W else '...'}"
    if isinstance(action, EnterPhase):
        return f"{turn} {action.phase.name.lower()}:"
    if isinstance(action, EndTurn):
        return f"{turn} end turn"
    try:
        return f"{turn} {format_statement(statement_for(state, action, ()))}"
    except TypeError:  # not a log statement (Activate)
        return f"{turn} {action!r}"


@contextmanager
def noting_actions(played: list[tuple[GameState, Action]]) -> Iterator[None]:
    """If the block fails, note the actions ``played`` so far (each with the state it was taken
    in) in hypothesis' report: the shrunk counterexample is then a readable game, move by move."""
    try:
        yield
    except Exception:
        lines = [action_text(state, action) for state, action in played]
        note(f"{len(lines)} actions played:\n" + "\n".join(lines))
        raise


def cards_by_name(source: str, name: str = "cards.sgcard") -> CardsByName:
    """The cards of ``source`` (card language), which must read without a finding."""
    parsed = parse_cards(source, name)
    assert not parsed.diagnostics, parsed.diagnostics
    return CardsByName(parsed.cards)
