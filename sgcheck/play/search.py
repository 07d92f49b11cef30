"""The search policy: expectimax over the core engine, the dice as chance, a fixed budget per move.

**Why the greedy policy never converts a King.** A King falls at 20 damage (core §4.4) and each
point costs an attack: 2 × value + distance, hitting the King at 10 × value % (core §4.1, §4.4).
The cheapest damage is a Queen's, about 20 LP at 90%: some 22 LP a point, 450 LP a King. LP
comes from the Pass alone (+6 for a turn without action, core §2.5) and SP from captures and the
income of captured pieces (core §6). Thirty rounds of Passes give 200 LP: a conversion cannot be
paid for under a 30-round limit, and a policy that values the position one action ahead (every
action forfeits that turn's Pass) spends on nothing. The core sets no turn limit (§7: only a
scenario sets one), so a game between players who play to win is a race: save Passes, then
strike the King down in one turn (a Queen summoned in reach in the Upkeep, attacks in the Battle),
before the enemy can.

**The evaluation** (:func:`evaluate`) is that race, counted in turns. For each side: the LP a
strike on the enemy King still costs (its damage still to deal × :data:`PER_DAMAGE`, plus
:data:`SETUP` to bring a piece in reach; × :data:`MARGIN`, for dice that fall short), less the
side's funds (LP + SP, R05, and the Pass while the side to move has taken no action, R04). A side
that can pay for it, on its own turn with its Battle still ahead and a piece in reach (or its
Upkeep, to summon one), wins this turn: 0 turns; otherwise it needs its next turn (½ for the side
not moving, 1 for the side moving) and one more for each turn of income still missing (the Pass
and the SP income of captured enemy pieces while its Gem is whole, core §6). While a side strikes,
the piece in reach gives the real price of its attacks (2 × value + distance at 10 × value %); a
piece in reach counts for nothing else, since the King steps away for 1 LP.

**The price of a strike is the one the cards in play set** (:func:`price_per_damage`): the
core's card semantics say what each lasting effect adds to an attack on the King (to-hit within
its cap, damage per hit, reductions, cost modifiers: R20, R23), and :data:`PER_DAMAGE` is scaled
by the cheapest attacker's price with the cards over its price without. So a card that makes a
strike cheaper counts from the moment it is in play, and the search plays it as soon as the race
it shortens is worth the Pass it forfeits (War Banner: at once); a King that the cards make
immune (no hit can damage it) leaves the enemy only 1000 LP. A broken Gem adds the expected
price of its Repair (10 LP at 3d6 ≥ 10) to a strike that must summon (core §6, R12).

The alternative win, 1000 LP (core §7), is counted the same way and the nearer kept; a surplus
beyond a strike's price counts a little (:data:`SURPLUS`). A position is worth how many turns
sooner its side gets there than the enemy. Under a turn limit (a scenario's, or
``--turn-limit``) a race that cannot be won in the turns left gives way to the tiebreak (R18),
valued as the greedy policy values it; a won or lost game is worth :data:`WIN` either way. In a
position where the tiebreak decides, the search plays the lookahead's action
(:func:`sgcheck.play.policies.lookahead`): the tiebreak is the value the lookahead plays for,
judged through the rest of the turn and against the reply, which an expectimax of one or two
actions does not see (entering the Battle looks worth no more than the Pass).

**The search** (:func:`search`) is an expectimax over the mover's own actions of the turn:
each candidate (:func:`sgcheck.play.policies.candidates`, every attack, Break, Repair and
card, the best placements and moves) is applied with :func:`sgcheck.core.engine.apply`; an
attack, Break or Repair is a chance node of its two outcomes with the odds of the rules (R10,
core §6); each outcome is valued by the evaluation, and the best-valued candidates are searched
one action deeper (the best reply of the same turn in each outcome), as far as the budget goes.
The budget is a count of engine applications per move (:data:`BUDGET`), never a time, so a game
is the same on any machine, in any worker, for its seed.
"""

from __future__ import annotations

import math
import random

from sgcheck.core import caps, engine
from sgcheck.core.actions import Action, Activate, EndTurn, Play, Summon
from sgcheck.core.cards.model import CostKind
from sgcheck.core.cards.semantics import Situation, attack_cards, cost_shares
from sgcheck.core.cards.table import ply
from sgcheck.core.formulas import attack_cost, hit_threshold, income, placement_cost, with_card_costs
from sgcheck.core.geometry import GeometryError, attack_route
from sgcheck.core.legal import summons
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import KING, Color, Kind, Phase, piece
from sgcheck.core.squares import Square, file_of, rank_of
from sgcheck.core.state import GameState
from sgcheck.play import policies

#: A won game (far beyond any race's worth).
WIN = 100_000.0
#: LP per point of King damage, as the evaluation counts it before a strike: a Queen's attack at
#: distance 2 is 20 LP at 90% (22.2 LP a point), at distance 5, 23 LP (25.6), a Rook's 12 at 50%
#: (24): what a Queen summoned in reach pays at worst, so a strike counted as paid for is.
PER_DAMAGE = 26.0
#: What it costs to bring a piece in reach of the enemy King (a Queen summoned near it: 14, and
#: a few more to place it off its starting square, core §5).
SETUP = 20.0
#: A strike is paid for when the funds cover the expected cost of the damage still to deal this
#: many times over (the dice can fall short).
MARGIN = 1.1
#: How much a surplus beyond a strike's price still counts, per turn of income it stands for.
SURPLUS = 0.1
#: Funds and income that reach 1000 LP (core §7): LP counts fully, SP at the conversion rate (R16).
LP_WIN = 1000
#: What a Repair costs in expectation before a Summon: 10 at a time, 3d6 of 10 or more (core §6, R15).
REPAIR_PRICE = caps.REPAIR_COST / policies.AT_LEAST_REPAIR
#: How much the tiebreak's value (greedy's units) counts in turns when a turn limit decides (R18).
TIEBREAK_SCALE = 0.05
#: Engine applications per move: the search's whole budget.
BUDGET = 100
#: How many of the best first actions are searched one action deeper.
WIDTH = 4
#: Actions a turn at most (a burst of attacks on the King needs more than the greedy policy's 12).
MAX_ACTIONS = 40


def _could_reach(kind: Kind, frm: int, king: int) -> bool:
    """A cheap test before the geometry: can a piece of ``kind`` on ``frm`` reach ``king`` at all (R06-R08)?"""
    df = abs(file_of(Square(frm)) - file_of(Square(king)))
    dr = abs(rank_of(Square(frm)) - rank_of(Square(king)))
    if kind is Kind.QUEEN:
        return df == 0 or dr == 0 or df == dr
    if kind is Kind.ROOK:
        return df == 0 or dr == 0
    if kind is Kind.BISHOP:
        return df == dr
    if kind is Kind.KNIGHT:
        return max(df, dr) <= 4
    return df == 1 and dr == 1


def price_per_damage(state: GameState, color: Color, kind: Kind, distance: int, *, cards: bool = True) -> float:
    """The LP that one point of damage on the enemy King costs ``color`` by attacks of ``kind`` at
    ``distance``: the attack's cost over its chance to hit and the damage of a hit (core §4.1,
    §4.2, §4.4), with the cards in play as the core's card semantics price an attack (to-hit
    bonuses and their cap, damage bonuses and reductions, cost modifiers: R20, R23); infinite
    when a hit deals no damage (a King that cards make immune to it)."""
    rs = state.ruleset
    cost = attack_cost(kind, distance, rs)
    bonus, per_hit = 0, caps.DAMAGE_PER_HIT
    held = state.cards
    if cards and held is not None and held.lasting:
        at = Situation(color, kind, KING, distance)
        lasting = held.acting(color, ply(state.turn_number, color))
        on_attack = attack_cards(lasting, state, at, piece(color.other, KING))
        bonus, per_hit = on_attack.raw_to_hit, on_attack.hit_damage()
        cost = with_card_costs(cost, cost_shares(lasting, state, CostKind.ATTACK, at, cost.value))
    chance = hit_threshold(kind, KING, rs, bonus).value / 100
    if per_hit <= 0 or chance <= 0:
        return math.inf
    return max(cost.value, 1) / (chance * per_hit)


#: The attackers a strike is priced with before any piece is in reach: each kind at the distance
#: of a placement beside the King's line (a knight one jump away).
STRIKERS = ((Kind.QUEEN, 2), (Kind.ROOK, 2), (Kind.BISHOP, 2), (Kind.KNIGHT, 1), (Kind.PAWN, 1))


def _strike_scale(state: GameState, color: Color) -> float:
    """How much the cards in play change the price of ``color``'s strike, as a factor on
    :data:`PER_DAMAGE`: the cheapest attacker's price with the cards over its price without
    (1 without lasting effects; infinite when no attacker can damage the enemy King)."""
    held = state.cards
    if held is None or not held.lasting:
        return 1.0
    with_cards = min(price_per_damage(state, color, kind, d) for kind, d in STRIKERS)
    if math.isinf(with_cards):
        return math.inf
    core = min(price_per_damage(state, color, kind, d, cards=False) for kind, d in STRIKERS)
    return with_cards / core


def _reach(state: GameState, color: Color, king: Square | None) -> float:
    """The cheapest LP per point of damage on the enemy King (on ``king``) among ``color``'s pieces
    that reach it now (core §4.1, §4.4, R08, with the cards in play: :func:`price_per_damage`);
    0 when none does (or none can damage it)."""
    if king is None:
        return 0.0
    board = state.board
    best = 0.0
    for sq, p in enumerate(board):
        if p is None or p.color is not color or p.kind is KING or not _could_reach(p.kind, sq, king):
            continue
        route = attack_route(board, Square(sq), king, p)
        if isinstance(route, GeometryError):
            continue
        cost = price_per_damage(state, color, p.kind, route.distance)
        if not math.isinf(cost) and (best == 0.0 or cost < best):
            best = cost
    return best


def _turns(state: GameState, color: Color, reach: float) -> float:
    """When ``color`` can win, in turns from now: 0 if it can strike the enemy King down this turn
    (its turn, the Battle still ahead, a piece in reach or the Upkeep to summon one, and the funds
    for the damage still to deal with :data:`MARGIN`), ½ if it can on its next turn while the enemy
    moves, and one more for each turn of income it still needs. Past the point where its funds
    pay for a conversion, a surplus still counts a little (a shorter strike, a margin for the dice).
    The nearer of conversion and 1000 LP (core §7) is kept."""
    me = state.player(color)
    enemy = state.player(color.other)
    moving = state.to_move is color
    funds = float(me.lp + me.sp)
    sp_income = 0 if me.gem_broken else income(me.gem, color, state.ruleset).value
    per_turn = float(caps.PASS_BONUS_LP + sp_income)
    left = caps.KING_HP - enemy.king_damage
    # a strike on a later turn: a piece to bring in reach, at the price the cards in play set
    later = MARGIN * left * PER_DAMAGE * _strike_scale(state, color) + SETUP
    if me.gem_broken:
        later += REPAIR_PRICE  # nothing is summoned from a broken Gem until it is repaired (core §6, R12, R15)
    can_summon = state.turn.phase is Phase.UPKEEP and not state.turn.summoned and not me.gem_broken  # R12
    window = moving and state.turn.phase <= Phase.BATTLE and (reach > 0 or can_summon)
    # a piece in reach counts only for a strike this turn: the King steps away for 1 LP a square,
    # and a strike is summoned and fought in one turn anyway
    now = MARGIN * left * reach if reach > 0 else later
    if window and now <= funds:
        return SURPLUS * (now - funds) / per_turn
    if moving and state.turn.actions == 0:
        funds += caps.PASS_BONUS_LP  # the Pass is still to be had this turn (R04); a strike forfeits it
    deficit = later - funds
    # income arrives at the next Upkeep (core §6), the Pass at the End of a turn without action
    convert = (1.0 if moving else 0.5) + max(0.0, deficit - sp_income) / per_turn
    if not math.isinf(deficit):
        convert += SURPLUS * min(0.0, deficit) / per_turn
    lp_need = LP_WIN - me.lp - min(me.sp, 2 * caps.CONVERSION_CAP_SP) / 2
    lp_turns = max(0.0, lp_need) / (caps.PASS_BONUS_LP + min(sp_income, caps.CONVERSION_CAP_SP) / 2)
    return min(convert, lp_turns + (0.0 if moving else 0.5))


def _race_turns(state: GameState, me: Color) -> tuple[float, float]:
    """When ``me`` and the enemy can win, in turns from now (:func:`_turns`)."""
    other = me.other
    mine = _turns(state, me, _reach(state, me, state.king_square(other)))
    theirs = _turns(state, other, _reach(state, other, state.king_square(me)))
    return mine, theirs


def _tiebreak_decides(state: GameState, mine: float, theirs: float) -> bool:
    """Under a turn limit, nobody wins the race in the turns left: the tiebreak decides (R18)."""
    limit = state.ruleset.turn_limit
    return limit is not None and min(mine, theirs) > limit - state.turn_number + 1


def evaluate(state: GameState, me: Color) -> float:
    """What ``state`` is worth to ``me``: turns ahead in the race to win (see the module's docstring)."""
    over = policies.ended(state, me, WIN)
    if over is not None:
        return over
    mine, theirs = _race_turns(state, me)
    race = theirs - mine
    if _tiebreak_decides(state, mine, theirs):
        return TIEBREAK_SCALE * policies.value(state, me) + 0.01 * race
    return race


def _summons(state: GameState) -> list[Action]:
    """Per kind, the cheapest placements, and the nearest that reach the enemy King (core §5)."""
    me = state.to_move
    king = state.king_square(me.other)
    by_kind: dict[Kind, list[tuple[int, int, Action]]] = {}
    for action in summons(state):
        assert isinstance(action, Summon)
        cost = placement_cost(me, action.kind, action.to, state.ruleset).value
        reaches = 0  # the attack's distance when the placement reaches the enemy King
        if king is not None and state.board[action.to] is None and _could_reach(action.kind, action.to, king):
            placed = piece(me, action.kind)
            board = list(state.board)
            board[action.to] = placed
            route = attack_route(tuple(board), action.to, king, placed)
            reaches = 0 if isinstance(route, GeometryError) else route.distance
        by_kind.setdefault(action.kind, []).append((cost, reaches, action))
    kept: list[Action] = []
    for found in by_kind.values():
        found.sort(key=lambda item: item[0])
        kept.extend(action for _, _, action in found[:2])
        # every point of a strike pays the distance again: nearest first, then cheapest
        reaching = sorted((item for item in found if item[1]), key=lambda item: (item[1], item[0]))
        kept.extend(action for _, _, action in reaching[:2])
    return list(dict.fromkeys(kept))


def _candidates(state: GameState) -> list[Action]:
    found: list[Action] = list(policies.candidates(state, MAX_ACTIONS, keep_summons=0))
    if state.turn.phase is Phase.UPKEEP and state.turn.actions < MAX_ACTIONS:
        found += _summons(state)
    return found


class _Budget:
    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


Outcomes = list[tuple[float, GameState]]


def _expected(state: GameState, action: Action, me: Color, budget: _Budget) -> tuple[float, Outcomes] | None:
    """The action's outcomes with their chances, and their expected value; None when refused."""
    if isinstance(action, EndTurn):
        budget.left -= 1
        step = engine.apply(state, action)
        if not isinstance(step, Applied):
            return None
        return evaluate(step.state, me), [(1.0, step.state)]
    outcomes = policies.outcomes(state, action)
    budget.left -= 2 if outcomes is not None and len(outcomes) == 2 else 1
    if outcomes is None:
        return None
    worth = sum(chance * evaluate(after, me) for chance, after in outcomes)
    if isinstance(action, Play | Activate):
        # what a card does is in the positions the engine returns (a hit it makes likelier, more
        # damage); what it may do later is not, so a card played is worth its price and a little
        # more, as the greedy policy counts it, in turns of Passes
        before, after = state.player(me), outcomes[0][1].player(me)
        paid = max(0, (before.lp + before.sp) - (after.lp + after.sp))
        worth += (paid + policies.CARD_PLAYED) / caps.PASS_BONUS_LP
    return worth, outcomes


def search(state: GameState, budget: int = BUDGET) -> Action:
    """The action with the best expected value, searched one action deeper for the best few as
    far as ``budget`` engine applications go (see the module's docstring); where the tiebreak
    decides, the lookahead's action."""
    me = state.to_move
    if _tiebreak_decides(state, *_race_turns(state, me)):
        return policies.lookahead(state)
    left = _Budget(budget)
    scored: list[tuple[float, int, Action, list[tuple[float, GameState]]]] = []
    for index, action in enumerate(_candidates(state)):
        found = _expected(state, action, me, left)
        if found is not None:
            scored.append((found[0], -index, action, found[1]))
    if not scored:
        return EndTurn()
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    best_value, best_key, best = scored[0][0], scored[0][1], scored[0][2]
    for _, key, action, outcomes in scored[:WIDTH]:
        if isinstance(action, EndTurn) or left.left <= 0:
            continue
        deeper = 0.0
        for chance, after in outcomes:
            value_after = evaluate(after, me)
            if after.result is None and after.to_move is me and left.left > 0:
                for reply in _candidates(after):
                    if left.left <= 0:
                        break
                    found = _expected(after, reply, me, left)
                    if found is not None and found[0] > value_after:
                        value_after = found[0]
            deeper += chance * value_after
        if (deeper, key) > (best_value, best_key):
            best_value, best_key, best = deeper, key, action
    return best


def choose(state: GameState, rng: random.Random, budget: int = BUDGET) -> Action:
    """The search's action, its dice rolled from ``rng`` (the policy never chooses a roll)."""
    return policies.roll(rng, search(state, budget), state)


__all__ = ["BUDGET", "PER_DAMAGE", "SETUP", "choose", "evaluate", "search"]
