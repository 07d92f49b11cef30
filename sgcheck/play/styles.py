"""The generator's policies: random legal play in three styles, for tests, fuzzing and benchmarks.

A style picks among :func:`sgcheck.core.legal.legal_actions`: ``random`` tries each kind of
action by a weight of its phase (every rule exercised), ``aggressive`` heads for the enemy King
(games end by conversion), ``endless`` never ends the game (long benchmark logs). The dice of the
chosen action are thrown as :mod:`sgcheck.core.rolls` says, from the seeded random source or from
the verifiable-dice protocol (:class:`~sgcheck.play.dice_source.DerivedDice`). The simulator's
random policy is this module's ``random`` style (:mod:`sgcheck.play.policies`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import TYPE_CHECKING

from sgcheck.core import caps, engine
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
from sgcheck.core.dice import action_purpose
from sgcheck.core.legal import (
    CATEGORIES,
    Category,
    accepted,
    attacks,
    card_plays,
    converts,
    gem_attempts,
    legal_actions,
    moves,
    moves_from,
    phase_changes,
    summons,
    teleports,
    with_roll,
)
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.rolls import SECOND_ROLL, roll_of
from sgcheck.core.squares import Square, file_of, rank_of
from sgcheck.core.state import GameState
from sgcheck.play.roller import random_faces

if TYPE_CHECKING:
    from sgcheck.play.dice_source import DerivedDice


class Style(StrEnum):
    RANDOM = "random"  # uniform over action kinds: exercises every rule
    AGGRESSIVE = "aggressive"  # heads for the enemy King: games end by conversion
    ENDLESS = "endless"  # never ends the game: for long benchmark logs


def _roll(rng: random.Random, action: Action, state: GameState, dice: DerivedDice | None = None) -> Action:
    """``action`` with its dice (:mod:`sgcheck.core.rolls`) from ``rng`` or the protocol's ``dice``;
    an attack sometimes tries a second roll where cards may grant one."""
    kind = roll_of(action)
    if kind is None or not isinstance(action, Attack | Break | Repair):
        return action
    if dice is None:
        rolled = with_roll(action, random_faces(rng, kind))
    else:
        rolled = with_roll(action, dice.roll(kind, action_purpose(action, state.to_move)))
    if isinstance(rolled, Attack) and state.cards is not None and state.cards.lasting and rng.random() < 0.6:
        return _second_roll(rng, rolled, state, dice)
    return rolled


def _second_roll(rng: random.Random, action: Attack, state: GameState, dice: DerivedDice | None = None) -> Attack:
    """A reroll or advantage where a card grants one (R20): the engine says which word it takes.
    Derived dice are used up only when the second roll is written."""
    drawn = random_faces(rng, SECOND_ROLL) if dice is None else ()
    for advantage in rng.sample((False, True), 2):
        aim = action_purpose(action.replace(advantage=advantage), state.to_move, second=True)
        second = drawn if dice is None else dice.peek(SECOND_ROLL, aim)
        again = action.replace(second=second, advantage=advantage)
        if engine.is_legal(state, again):
            if dice is not None:
                dice.roll(SECOND_ROLL, aim)
            return again
    return action


def _king_distance(state: GameState, sq: Square, color: Color) -> int:
    king = state.king_square(color.other)
    if king is None:
        return 0
    return max(abs(file_of(sq) - file_of(king)), abs(rank_of(sq) - rank_of(king)))


def _aggressive_score(state: GameState, action: Action, rng: random.Random) -> float:
    """Head for the enemy King with a few strong pieces; keep enough LP to act next turn."""
    noise = rng.random()
    me = state.to_move
    funds = state.mover.lp + state.mover.sp
    if isinstance(action, Attack):
        target = state.board[action.to]
        if target is not None and target.kind is Kind.KING:
            return 9 + noise
        return 6 + noise if funds > 20 or (target is not None and target.kind is Kind.PAWN) else noise
    if isinstance(action, Summon):
        army = sum(1 for p in state.board if p is not None and p.color is me)
        if army >= 7 or funds < 12:
            return -1
        preference = {Kind.PAWN: 2.5, Kind.KNIGHT: 3.2, Kind.BISHOP: 2.0, Kind.ROOK: 3.5, Kind.QUEEN: 4.5}
        return preference[action.kind] + noise
    if isinstance(action, Move):
        mover = state.board[action.frm]
        if mover is None or mover.kind is Kind.KING:
            return -1
        gain = _king_distance(state, action.frm, me) - _king_distance(state, action.to, me)
        return gain * 2 + noise - 2.5 if funds > 15 else -1
    if isinstance(action, Convert):
        best = min(caps.CONVERSION_CAP_SP - state.turn.converted_sp, state.mover.sp) // 2 * 2
        return 3 + noise if state.mover.lp < 25 and action.sp == best else -1
    if isinstance(action, Break):
        return 4 + noise if funds > 40 else -1
    if isinstance(action, Repair):
        return 8 + noise
    if isinstance(action, Teleport):
        gain = _king_distance(state, action.frm, me) - _king_distance(state, action.to, me)
        return gain + noise - 3 if funds > 30 else -1
    if isinstance(action, Play | Activate):
        return 5 + noise if funds > 12 else -1
    if isinstance(action, EnterPhase):
        return 0.5 * noise
    return 0.4 * noise


#: How likely each kind of action is tried in the sampling styles, by phase.
_WEIGHTS: dict[Phase, tuple[tuple[Category, float], ...]] = {
    Phase.UPKEEP: ((gem_attempts, 0.08), (summons, 0.45), (card_plays, 0.2), (phase_changes, 0.6)),
    Phase.MAIN1: ((moves, 0.7), (card_plays, 0.4), (phase_changes, 0.4)),
    Phase.BATTLE: ((attacks, 0.7), (card_plays, 0.4), (phase_changes, 0.4)),
    Phase.MAIN2: ((moves, 0.5), (converts, 0.15), (card_plays, 0.3), (phase_changes, 0.5)),
    Phase.END: ((teleports, 0.06), (card_plays, 0.1), (phase_changes, 0.94)),
}


def _random_moves(state: GameState, rng: random.Random) -> list[Action]:
    """The moves of one random piece (cheaper than listing every move of every piece)."""
    own = [sq for sq, p in enumerate(state.board) if p is not None and p.color is state.to_move]
    rng.shuffle(own)
    for sq in own:
        found = list(accepted(state, moves_from(state, Square(sq))))
        if found:
            return found
    return []


def _random_summons(state: GameState, rng: random.Random) -> list[Action]:
    """The summons of one kind still in the Gem (kinds with more free squares are picked more often)."""
    every = [a for a in summons(state) if isinstance(a, Summon)]  # candidates: see _pick
    if not every:
        return []
    kind = rng.choice(every).kind
    return [a for a in every if a.kind is kind]


_FAST: dict[Category, Callable[[GameState, random.Random], list[Action]]] = {
    moves: _random_moves,
    summons: _random_summons,
}


def _endless_ok(state: GameState, action: Action) -> bool:
    """Keep the game going: no final blow on a King, no 1000 LP (for long benchmark logs)."""
    if isinstance(action, Attack):
        target = state.board[action.to]
        return not (target is not None and target.kind is Kind.KING and state.opponent.king_damage >= caps.KING_HP - 2)
    if isinstance(action, Convert):
        return state.mover.lp + action.sp < caps.LP_VICTORY - 100
    if isinstance(action, EndTurn):
        return state.turn.actions > 0 or state.mover.lp + caps.PASS_BONUS_LP < caps.LP_VICTORY - 100
    if isinstance(action, Play | Activate):
        return state.mover.lp < caps.LP_VICTORY - 200
    return True


def _weighted_index(weights: list[float], rng: random.Random) -> int:
    pick = rng.random() * sum(weights)
    for index, weight in enumerate(weights):
        pick -= weight
        if pick <= 0:
            return index
    return len(weights) - 1


def _sample(state: GameState, style: Style, rng: random.Random) -> Action | None:
    """Pick a kind of action by weight, then one action of that kind uniformly."""
    options = list(_WEIGHTS[state.turn.phase])
    while options:
        index = _weighted_index([w for _, w in options], rng)
        category = options[index][0]
        fast = _FAST.get(category)
        candidates = fast(state, rng) if fast is not None else list(category(state))
        if style is Style.ENDLESS:
            candidates = [a for a in candidates if _endless_ok(state, a)]
        if category is phase_changes and candidates:
            # mostly step to the next phase; sometimes skip ahead
            return candidates[0] if rng.random() < 0.8 else rng.choice(candidates)
        picked = _pick(state, candidates, rng)
        if picked is not None:
            return picked
        del options[index]
    return None


def _candidates(state: GameState) -> Iterator[Action]:
    for category in CATEGORIES[state.turn.phase]:
        yield from category(state)


def _pick(state: GameState, candidates: list[Action], rng: random.Random) -> Action | None:
    """One of the candidates uniformly. With cards they are only candidates (see
    :func:`sgcheck.core.legal.accepted`): try them in a random order until the engine accepts one,
    which costs far fewer checks than filtering them all first."""
    if not candidates:
        return None
    if state.cards is None:
        return rng.choice(candidates)
    return next(accepted(state, iter(rng.sample(candidates, len(candidates)))), None)


def choose(state: GameState, style: Style, rng: random.Random, dice: DerivedDice | None = None) -> Action | None:
    """The policy's next action, dice included; None when nothing is legal (the game is over)."""
    if state.result is not None:
        return None
    action: Action | None
    if style is Style.AGGRESSIVE and state.cards is None:
        action = max(legal_actions(state), key=lambda a: _aggressive_score(state, a, rng), default=None)
    elif style is Style.AGGRESSIVE:
        # the best-scored candidate the engine accepts (see _pick): the same choice, fewer checks
        scored = sorted(_candidates(state), key=lambda a: _aggressive_score(state, a, rng), reverse=True)
        action = next(accepted(state, iter(scored)), None)
    else:
        action = _sample(state, style, rng)
    if action is None and style is Style.ENDLESS:
        # all that is left would end the game (a Pass reaching 1000 LP): step a piece, or end the turn
        action = next(moves(state), None) or EndTurn()
    return None if action is None else _roll(rng, action, state, dice)
