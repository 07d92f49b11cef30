"""Policies that play to win: greedy, lookahead (greedy seen through the rest of the turn and the
opponent's reply), and random play as the baseline.

A policy picks the action; the dice come from the game's seeded random source, never from the
policy (an attack is valued by its odds, then rolled). Every candidate is tried with the core
engine (:func:`sgcheck.core.engine.apply`): what the engine refuses is not a candidate, and
what it accepts is valued by the position it leads to, so a policy can never play an action
the rules do not allow, with or without cards.

The value of a position, for one side, is the tiebreak score of core §7 (captured value,
value on the board, LP and SP) reshaped for winning the game rather than for the tiebreak
alone: King damage dealt and taken (20 converts the King, core §4.4; it also decides a game at
the turn limit first, R18), the SP income captured pieces bring (core §6), a broken Gem (no
income and no Summon), damage dealt this turn towards a capture (R11), and the reach of the
side's pieces on the enemy King. The weights are a designer's guess, not a solved game:
docs/simulate.md says what that means for the numbers.

**Why the lookahead is a step above greedy.** Entering the next phase changes nothing on the
board, so greedy values it at the position as it stands, below the Pass that ending the turn at
once brings (+6 LP, core §2.5): a greedy side with a Queen in reach of the enemy King ends its
turn in the Upkeep, and attacks only in a turn it has already spent on something else. The
lookahead counts a turn's phases as one ply (core §2): entering a phase is worth the best single
action of the phases still ahead, so from the Upkeep it sees an attack on the King in the Battle
and pays for it whenever the King damage it expects is worth more than the Pass, converting the
King at the pace its LP allows (a point of damage every five turns or so), long before a side
that only passes reaches 1000 LP. It then judges its best few actions again after the opponent's
best attack in reply. Both value positions with :func:`value`.

Cards are drafted and played like any action: keeping a card in the draft (R19) follows a
rating of what it does, and playing one is valued as what it costs plus a share of its worth,
so a policy plays the cards it holds when it can pay for them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from itertools import product

from sgcheck.core import caps, engine
from sgcheck.core.actions import (
    Action,
    Activate,
    Attack,
    Break,
    EndTurn,
    EnterPhase,
    Move,
    Play,
    Repair,
    Summon,
    Teleport,
)
from sgcheck.core.cards.model import Card, CardKind
from sgcheck.core.formulas import placement_cost
from sgcheck.core.geometry import attack_targets
from sgcheck.core.legal import attacks, card_plays, gem_attempts, moves_from, summons, teleports
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import PIECE_VALUES, Color, Kind, Phase
from sgcheck.core.play.victory import captured_value
from sgcheck.core.rolls import ACCURACY_ROLL, BREAK_ROLL, REPAIR_ROLL, SECOND_ROLL
from sgcheck.core.squares import Square, file_of, rank_of
from sgcheck.core.state import GameState
from sgcheck.play.roller import random_dice, random_faces
from sgcheck.play.styles import Style
from sgcheck.play.styles import choose as random_choice


class Policy(StrEnum):
    GREEDY = "greedy"  # the best position after one action
    LOOKAHEAD = "lookahead"  # greedy seen through the turn's phases, the best few judged after the reply
    RANDOM = "random"  # uniform over kinds of action: the baseline
    SEARCH = "search"  # expectimax over the engine, the dice as chance, a fixed budget (search.py)


#: A won game, in the units of :func:`value` (far beyond any position's worth).
WIN = 100_000.0
#: What one point of King damage is worth: a twentieth of a conversion, and the first tiebreak (R18).
KING_DAMAGE = 40.0
#: Each point of captured value: the tiebreak's 3, plus the income it pays (2 a turn, core §6).
CAPTURED = 8.0
#: Each point of value on the board (the tiebreak's 2).
ON_BOARD = 3.0
#: A broken Gem: no income, no Summon (core §6).
GEM_BROKEN = 20.0
#: LP + SP up to this count fully; more counts half (see :func:`_funds`).
RESERVE = 40
#: The enemy's LP and SP count for less than one's own: they are spent on the enemy's turn.
ENEMY_FUNDS = 0.5
#: A card played: what it cost, and this much more (a card in play is worth its price to its holder).
CARD_PLAYED = 4.0
#: Actions a policy takes in one turn at most before it ends the turn (keeps every game finite).
MAX_ACTIONS_PER_TURN = 12
#: Candidates of each kind kept for the engine to try, cheapest-first (bounds the time of a choice).
KEEP_SUMMONS = 3
KEEP_MOVES = 8
KEEP_TELEPORTS = 3
#: How many of its best actions the lookahead judges again after the opponent's reply.
LOOKAHEAD_WIDTH = 3

#: The chance a Break's or Repair's dice (core/rolls.py) total a number or more: Break needs 12+, Repair 10+ (core §6).
_AT_LEAST = {
    kind: {
        n: sum(1 for faces in product(range(kind.lowest, kind.highest + 1), repeat=kind.count) if sum(faces) >= n)
        / kind.sides**kind.count
        for n in range(kind.count * kind.lowest, kind.count * kind.highest + 1)
    }
    for kind in (BREAK_ROLL, REPAIR_ROLL)
}
#: The chance that a Repair succeeds (3d6 of 10 or more, core §6).
AT_LEAST_REPAIR = _AT_LEAST[REPAIR_ROLL][caps.REPAIR_THRESHOLD]


def _distance(a: int, b: int) -> int:
    return max(abs(file_of(Square(a)) - file_of(Square(b))), abs(rank_of(Square(a)) - rank_of(Square(b))))


def _funds(total: int) -> float:
    """LP and SP are a means: beyond :data:`RESERVE` each point counts half, so a rich side spends."""
    return float(total) if total <= RESERVE else RESERVE + 0.5 * (total - RESERVE)


def ended(state: GameState, me: Color, win: float = WIN) -> float | None:
    """An ended game's worth to ``me``: ``win``, ``-win`` or 0 for a draw; None while it goes on."""
    result = state.result
    if result is None:
        return None
    if result.winner is None:
        return 0.0
    return win if result.winner is me else -win


def value(state: GameState, me: Color) -> float:
    """What ``state`` is worth to ``me`` (see the module's docstring)."""
    over = ended(state, me)
    if over is not None:
        return over
    other = me.other
    mine, theirs = state.player(me), state.player(other)
    worth = _funds(mine.lp + mine.sp) - ENEMY_FUNDS * _funds(theirs.lp + theirs.sp)
    worth += KING_DAMAGE * (theirs.king_damage - mine.king_damage)
    worth += CAPTURED * (captured_value(state, me) - captured_value(state, other))
    worth += GEM_BROKEN * (int(theirs.gem_broken) - int(mine.gem_broken))
    enemy_king = state.king_square(other)
    board = state.board
    for sq, p in enumerate(board):
        if p is None or p.kind is Kind.KING:
            continue
        v = PIECE_VALUES[p.kind]
        if p.color is me:
            worth += ON_BOARD * v
            if enemy_king is not None and v >= 3:
                worth += 0.4 * v * max(0, 7 - _distance(sq, enemy_king)) / 7
        else:
            worth -= ON_BOARD * v
    if state.to_move is me and enemy_king is not None:
        # the reach on the enemy King this turn: worth something while the Battle is still ahead
        if state.turn.phase <= Phase.BATTLE:
            for sq, p in enumerate(board):
                strong = p is not None and p.color is me and p.kind is not Kind.KING and PIECE_VALUES[p.kind] >= 3
                if p is not None and strong and any(to == enemy_king for to, _ in attack_targets(board, Square(sq), p)):
                    worth += 1.5 * PIECE_VALUES[p.kind]
        for sq, dealt in state.turn.damage:  # damage towards a capture this turn (R11)
            target = board[sq]
            if target is not None and target.color is other and target.kind is not Kind.KING:
                v = PIECE_VALUES[target.kind]
                worth += 0.6 * (CAPTURED + 5 + ON_BOARD) * v * min(dealt, v) / v
    return worth


# --- dice: the policy chooses, the seeded source rolls -----------------------------------------


def roll(rng: random.Random, action: Action, state: GameState) -> Action:
    """The action with its dice rolled from ``rng``; a second accuracy roll where a card grants one (R20)."""
    if isinstance(action, Attack):
        rolled = action.replace(roll=random_faces(rng, ACCURACY_ROLL))
        if state.cards is not None and state.cards.lasting:
            second = random_faces(rng, SECOND_ROLL)
            for advantage in (True, False):
                again = rolled.replace(second=second, advantage=advantage)
                if engine.is_legal(state, again):
                    return again
        return rolled
    return random_dice(rng, action)  # a Break's or Repair's, as core/rolls.py says


def outcomes(state: GameState, action: Action) -> list[tuple[float, GameState]] | None:
    """The positions ``action`` may lead to with their chances; None when the engine refuses it."""
    if isinstance(action, Attack):
        hit = engine.apply(state, action.replace(roll=(0, 1)))  # d100 1: hits any threshold (5-95, R10)
        if not isinstance(hit, Applied):
            return None
        threshold = hit.effects.threshold_worked.value if hit.effects.threshold_worked is not None else 50
        chance = max(0, min(100, threshold)) / 100
        miss = engine.apply(state, action.replace(roll=(0, 0)))  # d100 100: misses any threshold
        if not isinstance(miss, Applied):
            return None
        return [(chance, hit.state), (1 - chance, miss.state)]
    if isinstance(action, Break | Repair):
        need = caps.BREAK_THRESHOLD if isinstance(action, Break) else caps.REPAIR_THRESHOLD
        kind = BREAK_ROLL if isinstance(action, Break) else REPAIR_ROLL
        good = engine.apply(state, action.replace(roll=(kind.highest,) * kind.count))
        bad = engine.apply(state, action.replace(roll=(kind.lowest,) * kind.count))
        if not isinstance(good, Applied) or not isinstance(bad, Applied):
            return None
        chance = _AT_LEAST[kind][need]
        return [(chance, good.state), (1 - chance, bad.state)]
    step = engine.apply(state, action)
    return [(1.0, step.state)] if isinstance(step, Applied) else None


def _worth(state: GameState, action: Action, me: Color) -> float | None:
    """The expected value of ``action`` for ``me``; None when the engine refuses it."""
    if isinstance(action, EndTurn):
        # judged before the hand-over (the enemy's income is due whatever is done first);
        # the Pass bonus is for a turn without action (R04)
        bonus = caps.PASS_BONUS_LP if state.turn.actions == 0 else 0
        return value(state, me) + bonus - 0.01
    found = outcomes(state, action)
    if found is None:
        return None
    worth = sum(chance * value(after, me) for chance, after in found)
    if isinstance(action, Play | Activate):
        before = state.player(me)
        after = found[0][1].player(me)
        paid = max(0, (before.lp + before.sp) - (after.lp + after.sp))
        worth += paid + CARD_PLAYED
    if isinstance(action, EnterPhase):
        worth -= 0.005  # on equal terms, act before leaving a phase
    else:
        worth -= 0.02  # and leave rather than act for nothing
    return worth


# --- candidates: what the engine is asked about --------------------------------------------------


def _cheapest(state: GameState, found: Iterator[Action], keep: int) -> list[Action]:
    """Per kind of piece, the ``keep`` placements that cost least and stand nearest the enemy King."""
    by_kind: dict[Kind, list[tuple[float, Action]]] = {}
    me = state.to_move
    king = state.king_square(me.other)
    for action in found:
        assert isinstance(action, Summon | Teleport)
        kind = action.kind if isinstance(action, Summon) else _kind_at(state, action.frm)
        if kind is None:
            continue
        cost = placement_cost(me, kind, action.to, state.ruleset).value
        near = 0 if king is None else _distance(action.to, king)
        by_kind.setdefault(kind, []).append((cost + 0.5 * near, action))
    kept: list[Action] = []
    for ranked in by_kind.values():
        ranked.sort(key=lambda pair: pair[0])
        kept.extend(action for _, action in ranked[:keep])
    return kept


def _kind_at(state: GameState, sq: Square) -> Kind | None:
    p = state.board[sq]
    return None if p is None else p.kind


def _moves(state: GameState) -> list[Action]:
    """The moves most likely to help: towards the enemy King, cheapest first."""
    king = state.king_square(state.to_move.other)

    def away(sq: int) -> int:
        return 0 if king is None else _distance(sq, king)

    ranked: list[tuple[float, Action]] = []
    for sq, p in enumerate(state.board):
        if p is None or p.color is not state.to_move:
            continue
        here = away(sq)
        for action in moves_from(state, Square(sq)):
            assert isinstance(action, Move)
            gain = here - away(action.to)
            ranked.append((-gain * PIECE_VALUES.get(p.kind, 1) + 0.1 * _distance(sq, action.to), action))
    ranked.sort(key=lambda pair: pair[0])
    return [action for _, action in ranked[:KEEP_MOVES]]


def candidates(
    state: GameState, max_actions: int = MAX_ACTIONS_PER_TURN, keep_summons: int = KEEP_SUMMONS
) -> list[Action]:
    """What a policy asks the engine about in this phase: every attack, Break, Repair and card;
    the best few summons, moves and teleports; the next phase and the end of the turn."""
    phase = state.turn.phase
    found: list[Action] = []
    if state.turn.actions < max_actions:
        if phase is Phase.UPKEEP:
            found.extend(gem_attempts(state))
            if keep_summons:
                found.extend(_cheapest(state, summons(state), keep_summons))
        elif phase in (Phase.MAIN1, Phase.MAIN2):
            found.extend(_moves(state))
        elif phase is Phase.BATTLE:
            found.extend(attacks(state))
        elif phase is Phase.END:
            found.extend(_cheapest(state, teleports(state), KEEP_TELEPORTS))
        found.extend(_card_plays(state))
    if phase is not Phase.END:
        found.append(EnterPhase(Phase(phase + 1)))
    found.append(EndTurn())
    return found


def _card_plays(state: GameState) -> Iterator[Action]:
    """Card plays and Relic uses: without a target, and on each King and piece of either side."""
    cards = state.cards
    if cards is None:
        return
    for action in card_plays(state):
        target = action.target if isinstance(action, Play | Activate) else None
        if target is None or state.board[target] is not None:
            yield action


# --- choosing --------------------------------------------------------------------------------


def _ranked(
    state: GameState, judge: Callable[[GameState, Action, Color], float | None] = _worth
) -> list[tuple[float, Action]]:
    """The candidates the engine accepts, best first by ``judge`` (ties: the earlier candidate)."""
    me = state.to_move
    scored: list[tuple[float, int, Action]] = []
    for index, action in enumerate(candidates(state)):
        worth = judge(state, action, me)
        if worth is not None:
            scored.append((worth, -index, action))
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [(worth, action) for worth, _, action in scored]


def greedy(state: GameState) -> Action:
    """The action whose expected position is worth most to the player to move."""
    ranked = _ranked(state)
    return ranked[0][1] if ranked else EndTurn()


def _through(state: GameState, action: Action, me: Color) -> float | None:
    """The lookahead's worth of ``action`` for ``me``: the greedy worth, except that entering the
    next phase is worth the best the mover can do in the phases still ahead of its turn (a turn's
    phases are one ply: the Battle's attacks are seen from the Upkeep, core §2)."""
    if not isinstance(action, EnterPhase):
        return _worth(state, action, me)
    step = engine.apply(state, action)
    if not isinstance(step, Applied):
        return None
    return _rest_of_turn(step.state, me) - 0.005


def _rest_of_turn(state: GameState, me: Color) -> float:
    """The best single action of the rest of the turn, each judged by its expected position."""
    best: float | None = None
    for action in candidates(state):
        worth = _through(state, action, me)
        if worth is not None and (best is None or worth > best):
            best = worth
    return value(state, me) if best is None else best


def _threat(state: GameState) -> float:
    """What the opponent's best greedy attack of its next Battle takes from the player who just
    handed over (its Upkeep income taken, nothing summoned): zero or less."""
    them = state.to_move
    me = them.other
    step = engine.apply(state, EnterPhase(Phase.BATTLE))
    if not isinstance(step, Applied):
        return 0.0
    battle = step.state
    best = value(battle, them)
    before = after = value(battle, me)
    for action in attacks(battle):
        found = outcomes(battle, action)
        if found is None:
            continue
        theirs = sum(chance * value(s, them) for chance, s in found)
        if theirs > best:
            best = theirs
            after = sum(chance * value(s, me) for chance, s in found)
    return min(0.0, after - before)


def lookahead(state: GameState) -> Action:
    """One ply more than greedy: every candidate is judged by its expected position, entering the
    next phase by the best of the rest of the turn (:func:`_rest_of_turn`); the best few (and
    ending the turn) are then judged again after the opponent's best greedy attack in reply."""
    ranked = _ranked(state, _through)
    if not ranked:
        return EndTurn()
    shortlist = ranked[:LOOKAHEAD_WIDTH]
    if not any(isinstance(a, EndTurn) for _, a in shortlist):
        shortlist += [(w, a) for w, a in ranked if isinstance(a, EndTurn)]
    best: tuple[float, Action] | None = None
    for worth, action in shortlist:
        found = [(1.0, state)] if isinstance(action, EndTurn) else outcomes(state, action)
        if found is None:
            continue
        threat = 0.0
        for chance, after in found:
            if after.result is not None or chance == 0:
                continue
            ended = engine.apply(after, EndTurn())
            if isinstance(ended, Applied) and ended.state.result is None:
                threat += chance * _threat(ended.state)
        if best is None or worth + threat > best[0]:
            best = (worth + threat, action)
    return best[1] if best is not None else ranked[0][1]


def choose(state: GameState, policy: Policy, rng: random.Random) -> Action:
    """The policy's next action in ``state`` (a game not over), dice rolled from ``rng``."""
    if policy is Policy.RANDOM:
        action = random_choice(state, Style.RANDOM, rng)
        return action if action is not None else EndTurn()
    if policy is Policy.SEARCH:
        raise ValueError("the search policy chooses in sgcheck.play.search (it builds on this module)")
    picked = greedy(state) if policy is Policy.GREEDY else lookahead(state)
    return roll(rng, picked, state)


# --- the draft (R19) -----------------------------------------------------------------------------


def rating(card: Card) -> float:
    """How much a policy wants a card in its hand: Relics last, effects add, cost takes away."""
    cost = sum(item.amount for item in card.cost.items) if card.cost is not None else 0
    return (3.0 if card.kind is CardKind.RELIC else 0.0) + 2.0 * len(card.effects) - cost / 3


def draft(
    names: Sequence[str], cards: dict[str, Card], draw: int, keep: int, policy: Policy, rng: random.Random
) -> tuple[str, ...]:
    """Draw ``draw`` of the pack's cards and keep ``keep`` (R19): the best rated, or at random."""
    drawn = rng.sample(list(names), min(draw, len(names)))
    if policy is Policy.RANDOM:
        return tuple(rng.sample(drawn, min(keep, len(drawn))))
    drawn.sort(key=lambda name: (-rating(cards[name]), name))
    return tuple(drawn[:keep])


__all__ = [
    "Policy",
    "candidates",
    "choose",
    "draft",
    "ended",
    "greedy",
    "lookahead",
    "outcomes",
    "rating",
    "roll",
    "value",
]
