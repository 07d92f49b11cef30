"""List the legal actions in a state (for generators, fuzzing and benchmarks).

Dice-bearing actions (Attack, Break, Repair) are yielded with ``roll=()``; the
caller rolls the dice (:func:`with_roll`).

In a game without cards every action is listed from small predicates (phase, geometry,
the once-per-turn flags, what the player can afford). In a game with cards the same
predicates list candidates, leaving out the one check cards make too intricate to repeat
here (what an action costs: card modifiers with conditions and use limits), and the engine
keeps the ones it accepts (:func:`accepted`). Cards reach the rules as data the engine
consults, so asking the engine is the one way the list can never disagree with ``apply``.
Card plays and Relic uses are listed the same way, each with no target and with every piece
on the board as the one it acts on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from sgcheck.core import caps
from sgcheck.core.actions import (
    Action,
    Activate,
    Attack,
    Break,
    Convert,
    EndTurn,
    EnterPhase,
    Move,
    Play,
    Repair,
    Summon,
    Teleport,
)
from sgcheck.core.cards.model import CardKind, ExtraKind, Mode
from sgcheck.core.engine import is_legal
from sgcheck.core.formulas import attack_cost, move_cost, placement_cost
from sgcheck.core.geometry import attack_targets, move_destinations
from sgcheck.core.pieces import NON_KING_KINDS, Kind, Phase, piece
from sgcheck.core.play.cards import extra_allowed
from sgcheck.core.squares import ALL_SQUARES, Square, in_camp
from sgcheck.core.state import GameState
from sgcheck.core.windows import ACTION_WINDOWS, EVERY_PHASE, card_window

_UPKEEP_ATTEMPTS = ACTION_WINDOWS[Break].phases  # Break and Repair share it (core §6)
_SUMMONS = ACTION_WINDOWS[Summon].phases
_MOVES = ACTION_WINDOWS[Move].phases
_CONVERTS = ACTION_WINDOWS[Convert].phases
_ATTACKS = ACTION_WINDOWS[Attack].phases
_TELEPORTS = ACTION_WINDOWS[Teleport].phases


def _affordable(state: GameState, cost: int) -> bool:
    """The core's cost fits the player's LP + SP; with cards any cost may change, so the engine decides."""
    return cost <= state.mover.lp + state.mover.sp or state.cards is not None


def _again(state: GameState, used: bool, kind: ExtraKind) -> bool:
    """A once-per-turn action not yet taken, or granted again by a card (R23)."""
    return not used or (state.cards is not None and extra_allowed(state, kind))


def legal_actions(state: GameState) -> Iterator[Action]:
    """Every legal action in ``state``, phase changes and ending the turn included."""
    if state.result is not None:
        return
    for category in CATEGORIES[state.turn.phase]:
        yield from accepted(state, category(state))


#: Dice that make a dice-bearing candidate checkable; legality never depends on the faces.
_PLACEHOLDER_DICE = {Attack: (0, 0), Break: (1, 1, 1), Repair: (1, 1, 1)}


def accepted(state: GameState, candidates: Iterator[Action]) -> Iterator[Action]:
    """The candidates the engine accepts, in a game with cards (all of them in a game without)."""
    if state.cards is None:
        yield from candidates
        return
    for action in candidates:
        dice = _PLACEHOLDER_DICE.get(type(action))
        if is_legal(state, action if dice is None else with_roll(action, dice)):
            yield action


def phase_changes(state: GameState) -> Iterator[Action]:
    """Entering any later phase, or ending the turn (R03)."""
    for later in Phase:
        if later > state.turn.phase:
            yield EnterPhase(later)
    yield EndTurn()


def gem_attempts(state: GameState) -> Iterator[Action]:
    """Break and Repair, before the Upkeep's Summon (R15)."""
    turn, me = state.turn, state.mover
    if turn.phase not in _UPKEEP_ATTEMPTS or turn.summoned:
        return
    can_break = not state.opponent.gem_broken and _affordable(state, caps.BREAK_COST)
    if can_break and _again(state, turn.broke, ExtraKind.BREAK):
        yield Break(roll=())
    if me.gem_broken and _affordable(state, caps.REPAIR_COST) and _again(state, turn.repaired, ExtraKind.REPAIR):
        yield Repair(roll=())


def summons(state: GameState) -> Iterator[Action]:
    """One Summon per Upkeep onto a free camp square, not with a broken Gem (R12)."""
    me = state.mover
    if state.turn.phase not in _SUMMONS or me.gem_broken:
        return
    if not _again(state, state.turn.summoned, ExtraKind.SUMMON):
        return
    camp = [s for s in ALL_SQUARES if in_camp(s, state.to_move) and state.board[s] is None]
    for kind in NON_KING_KINDS:
        if me.gem[piece(state.to_move, kind).index] == 0:
            continue
        for sq in camp:
            if _affordable(state, placement_cost(state.to_move, kind, sq, state.ruleset).value):
                yield Summon(kind, sq)


def _own_squares(state: GameState) -> Iterator[tuple[int, Kind]]:
    for sq, p in enumerate(state.board):
        if p is not None and p.color is state.to_move:
            yield sq, p.kind


def moves(state: GameState) -> Iterator[Action]:
    """Every affordable Move of every own piece (Main 1 and Main 2)."""
    if state.turn.phase not in _MOVES:
        return
    for sq, _ in _own_squares(state):
        yield from moves_from(state, ALL_SQUARES[sq])


def moves_from(state: GameState, frm: Square) -> Iterator[Action]:
    """The affordable Moves of the mover's piece on ``frm``."""
    mover = state.board[frm]
    if state.turn.phase not in _MOVES or mover is None or mover.color is not state.to_move:
        return
    for to, route in move_destinations(state.board, frm, mover):
        if _affordable(state, move_cost(mover.kind, route.distance, state.ruleset).value):
            yield Move(frm, to, via=route.via if route.distance == 2 and mover.kind is Kind.KNIGHT else None)


def converts(state: GameState) -> Iterator[Action]:
    if state.turn.phase not in _CONVERTS:
        return
    left = min(caps.CONVERSION_CAP_SP - state.turn.converted_sp, state.mover.sp)
    for amount in range(caps.CONVERSION_SP_PER_LP, left + 1, caps.CONVERSION_SP_PER_LP):
        yield Convert(amount)


def attacks(state: GameState) -> Iterator[Action]:
    if state.turn.phase not in _ATTACKS:
        return
    for sq, kind in _own_squares(state):
        if kind is Kind.KING and state.ruleset.king_value is None:
            continue
        attacker = piece(state.to_move, kind)
        for to, route in attack_targets(state.board, ALL_SQUARES[sq], attacker):
            if _affordable(state, attack_cost(kind, route.distance, state.ruleset).value):
                yield Attack(ALL_SQUARES[sq], to, roll=())


def teleports(state: GameState) -> Iterator[Action]:
    if state.turn.phase not in _TELEPORTS or not _again(state, state.turn.teleported, ExtraKind.TELEPORT):
        return
    camp = [s for s in ALL_SQUARES if in_camp(s, state.to_move) and state.board[s] is None]
    for sq, kind in _own_squares(state):
        if kind is Kind.KING:
            continue
        for to in camp:
            if _affordable(state, placement_cost(state.to_move, kind, to, state.ruleset).value):
                yield Teleport(ALL_SQUARES[sq], to)


def card_plays(state: GameState) -> Iterator[Action]:
    """Candidates (see :func:`accepted`): cards played from hand and uses of activated Relics in
    play, with no target and with each piece on the board as the one it acts on (R22)."""
    cards = state.cards
    if cards is None or state.turn.activations >= caps.ACTIVATIONS_PER_TURN:
        return
    me, phase = state.to_move, state.turn.phase
    pieces = [(sq, p.kind) for sq, p in enumerate(state.board) if p is not None]
    for name in dict.fromkeys(cards.hand(me)):
        if phase in card_window(cards.by_name[name]):
            yield Play(name)
            for sq, kind in pieces:
                yield Play(name, Square(sq), kind)
    for relic in cards.in_play:
        card = cards.by_name[relic.card]
        usable = relic.owner is me and card.kind is CardKind.RELIC and card.mode is Mode.ACTIVATED
        if usable and phase in card_window(card):
            yield Activate(card.name)
            for sq, kind in pieces:
                yield Activate(card.name, target=Square(sq), target_kind=kind)


Category = Callable[[GameState], Iterator[Action]]

#: Each kind of action with the phases it is open in (R03, the windows of
#: :data:`~sgcheck.core.windows.ACTION_WINDOWS`), in the order legal_actions lists them; cards
#: are played in the phases they name (each card is asked), and a phase can always be left.
_OPEN: tuple[tuple[Category, tuple[Phase, ...]], ...] = (
    (gem_attempts, _UPKEEP_ATTEMPTS),
    (summons, _SUMMONS),
    (moves, _MOVES),
    (converts, _CONVERTS),
    (attacks, _ATTACKS),
    (teleports, _TELEPORTS),
    (card_plays, EVERY_PHASE),
    (phase_changes, EVERY_PHASE),
)

#: The kinds of action open in each phase (R03), in the order legal_actions lists them.
CATEGORIES: dict[Phase, tuple[Category, ...]] = {
    phase: tuple(category for category, phases in _OPEN if phase in phases) for phase in Phase
}


def with_roll(action: Action, roll: tuple[int, ...]) -> Action:
    """Fill the dice of a dice-bearing action from :func:`legal_actions`."""
    if isinstance(action, Attack | Break | Repair):
        return action.replace(roll=roll)
    return action
