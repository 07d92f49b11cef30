"""Attack: Battle only; cost, accuracy, damage, capture and King conversion (core §4, R08, R10, R11)."""

from __future__ import annotations

from sgcheck.core import caps
from sgcheck.core.actions import Attack, Part
from sgcheck.core.cards.model import CostKind, Event
from sgcheck.core.cards.semantics import AttackCards, Situation, attack_cards, cost_shares, parts_on_attack
from sgcheck.core.cards.table import Lasting, ply
from sgcheck.core.formulas import Worked, attack_cost, counted_roll, d100, hit_threshold, is_hit, value_of
from sgcheck.core.geometry import GeometryError, attack_route
from sgcheck.core.outcome import Applied, Effects, Violation
from sgcheck.core.pieces import KING, Outcome, Piece
from sgcheck.core.play.cards import count_acts, end_of_attack, fire
from sgcheck.core.play.predicates import (
    card_cost,
    charge,
    dice_faces,
    own_piece,
    phase_window,
    resolve_payment,
    violation,
)
from sgcheck.core.play.victory import core_victory
from sgcheck.core.rolls import ACCURACY_ROLL, SECOND_ROLL
from sgcheck.core.squares import name
from sgcheck.core.state import GameResult, GameState, Payment
from sgcheck.core.windows import ACTION_WINDOWS

_WINDOW = ACTION_WINDOWS[Attack]
_PHASES = _WINDOW.phases  # checked before anything else, on every attack
_REACH = ("core §4.1", "R08")  # who may attack whom, and how far


def _target(state: GameState, action: Attack) -> Piece | Violation:
    """The enemy piece on the target square, matching the letter the log wrote (R08)."""
    target = state.board[action.to]
    enemy = state.to_move.other
    if target is None:
        message = f"there is no piece on {name(action.to)} to attack"
        if action.target_kind is not None and not any(
            p is not None and p.color is enemy and p.kind is action.target_kind for p in state.board
        ):
            message += f"; {enemy.title} has no {action.target_kind.title} on the board at all"
        return violation("SG-R101", message, Part.TARGET, rules=_REACH)
    if action.target_kind is not None and target.kind is not action.target_kind:
        return violation(
            "SG-R101",
            f"{name(action.to)} holds a {target}, not a {action.target_kind.title}",
            Part.TARGET,
            rules=_REACH,
        )
    if target.color is state.to_move:
        return violation(
            "SG-R102",
            f"friendly pieces cannot be attacked ({target} on {name(action.to)})",
            Part.TARGET,
            rules=_REACH,
        )
    return target


def apply(state: GameState, action: Attack) -> Applied | Violation:
    if state.turn.phase not in _PHASES and (v := phase_window(state, _WINDOW)) is not None:
        return v
    attacker = own_piece(state, action.frm, action.kind, Part.PIECE, "attack", _REACH)
    if isinstance(attacker, Violation):
        return attacker
    if attacker.kind is KING and state.ruleset.king_value is None:
        return violation(
            "SG-R108",
            "the King has no piece value under the core and cannot attack",
            Part.PIECE,
            ("core §4.4", "R09"),
            hint="a group that lets Kings fight can set the house rule king_value (ruleset profile, R09)",
        )
    target = _target(state, action)
    if isinstance(target, Violation):
        return target
    route = attack_route(state.board, action.frm, action.to, attacker)
    if isinstance(route, GeometryError):
        return violation(route.code, f"{name(action.to)} is out of reach: {route.message}", route.part, route.rules)
    if (v := dice_faces(action.roll, ACCURACY_ROLL)) is not None:
        return v
    if state.cards is not None:
        return _attack_with_cards(state, action, attacker, target, route.distance)
    if action.second:
        return violation(
            "SG-R125",
            "a second accuracy roll needs a card that grants a reroll, and this game plays no cards",
            Part.REROLL,
            ("core §4.5", "R20"),
        )
    cost = attack_cost(attacker.kind, route.distance, state.ruleset)
    paid = resolve_payment(state, cost, action.pay, "attack")
    if isinstance(paid, Violation):
        return paid
    state = charge(state, paid)
    threshold = hit_threshold(attacker.kind, target.kind, state.ruleset)
    effects = _rolled(cost, paid, threshold, d100(action.roll[0], action.roll[1]), caps.DAMAGE_PER_HIT)
    return _resolve(state, action, target, effects)


def _rolled(
    cost: Worked, paid: Payment, threshold: Worked, roll: int, per_hit: int, cards: AttackCards | None = None
) -> Effects:
    """What the roll did: a hit at or under the threshold deals ``per_hit`` (core §4.2, §4.3)."""
    hit = is_hit(roll, threshold.value)
    return Effects(
        cost_worked=cost,
        paid=paid,
        threshold_worked=threshold,
        d100=roll,
        hit=hit,
        damage=per_hit if hit else 0,
        cards=cards,
    )


def _resolve(state: GameState, action: Attack, target: Piece, effects: Effects) -> Applied:
    if target.kind is KING:
        return _attack_king(state, effects)
    if not effects.hit:
        return Applied(state, effects)
    return _hit_piece(state, action, target, effects)


def _attack_with_cards(
    state: GameState, action: Attack, attacker: Piece, target: Piece, distance: int
) -> Applied | Violation:
    """The same attack with the cards in play: costs, to-hit, damage, rerolls, triggers (R20, R23)."""
    cards = state.cards
    assert cards is not None
    me = state.to_move
    at = Situation(me, attacker.kind, target.kind, distance, action.frm, action.to)
    lasting = cards.acting(me, ply(state.turn_number, me))  # a limited modifier only while its limit lets it
    cost = card_cost(state, attack_cost(attacker.kind, distance, state.ruleset), CostKind.ATTACK, at)
    if cards.lasting_index.limited:
        on_attack = attack_cards(lasting, state, at, target)
    else:  # every effect may act: the pairs kept with the cards in play say what each adds
        on_attack = parts_on_attack(cards.lasting_index.attacking[me], state, at, target)
    roll = d100(action.roll[0], action.roll[1])
    if action.second:
        counted = _second_roll(action, on_attack.rerolls, roll)
        if isinstance(counted, Violation):
            return counted
        roll = counted
    paid = resolve_payment(state, cost, action.pay, "attack")
    if isinstance(paid, Violation):
        return paid
    before = state
    state = charge(state, paid)
    why = on_attack.to_hit_text() if on_attack.to_hit else ""
    threshold = hit_threshold(attacker.kind, target.kind, state.ruleset, on_attack.raw_to_hit, why)
    effects = _rolled(cost, paid, threshold, roll, on_attack.hit_damage(), on_attack)
    hit = bool(effects.hit)
    applied = _resolve(state, action, target, effects)
    state = applied.state
    index = cards.lasting_index
    if index.limited:
        used = _limited_acts(lasting, before, action, at, target, hit)
        state = count_acts(state, used) if used else state
    if index.attack_only:
        state = end_of_attack(state)
    if state.result is None and index.events:
        state = fire(state, Event.HIT if hit else Event.MISS, me, at)
        state = fire(state, Event.ATTACKED, me.other, at)
        if applied.effects.captured is not None:
            state = fire(state, Event.CAPTURE, me, at)
            state = fire(state, Event.CAPTURED, me.other, at)
    return Applied(state, applied.effects)


def _limited_acts(
    lasting: tuple[Lasting, ...], before: GameState, action: Attack, at: Situation, target: Piece, hit: bool
) -> list[Lasting]:
    """The card effects with a ``limit`` that acted on this attack, each to count once (R23).

    A cost or to-hit modifier acts on every attack it applies to; a damage bonus or reduction
    (on-hit damage included) only on a hit; a reroll or advantage only when the attack took its
    second roll, and then only the first card, in the order of R23, that grants that kind.
    """
    used: list[Lasting] = []
    reroll_taken = not action.second
    for item in lasting:
        if item.effect.limit is None and reroll_taken:
            continue
        mine = attack_cards((item,), before, at, target)
        if not reroll_taken and any(advantage == action.advantage for _, advantage in mine.rerolls):
            reroll_taken = True
            if item.effect.limit is not None:
                used.append(item)
            continue
        if item.effect.limit is None:
            continue
        acted = mine.to_hit or (hit and (mine.damage or mine.reduction))
        if acted or cost_shares((item,), before, CostKind.ATTACK, at):
            used.append(item)
    return used


def _second_roll(action: Attack, sources: tuple[tuple[str, bool], ...], first: int) -> int | Violation:
    """A reroll counts the second roll, advantage the better (lower) one; one source at most (R20)."""
    word = "advantage" if action.advantage else "a reroll"
    granting = tuple(card for card, grants_advantage in sources if grants_advantage == action.advantage)
    if not granting:
        other = (
            " (the cards in play grant a reroll)"
            if action.advantage and sources
            else (" (the cards in play grant advantage)" if sources else "")
        )
        return violation(
            "SG-R125",
            f"no card in play grants this attack {word}{other}",
            Part.REROLL,
            ("core §4.5", "R20", "R23"),
        )
    if (v := dice_faces(action.second, SECOND_ROLL)) is not None:
        return Violation(v.diagnostic, Part.REROLL)
    second = d100(action.second[0], action.second[1])
    return counted_roll(first, second, action.advantage)


def _attack_king(state: GameState, effects: Effects) -> Applied:
    """King damage never clears; at 20 the King is converted and the game ends (core §4.4, R11).

    The effects give the King's damage total after every attack on it, a miss included (the
    ``king-damage`` claim states that total)."""
    defender = state.opponent
    if not effects.damage:
        return Applied(state, effects.replace(king_damage=defender.king_damage))
    total = defender.king_damage + effects.damage
    state = state.with_player(state.to_move.other, defender.replace(king_damage=total))
    if total < caps.KING_HP or not core_victory(state):  # a scenario may replace the core's wins (R24)
        return Applied(state, effects.replace(king_damage=total))
    result = GameResult(
        state.to_move,
        Outcome.KING_CONVERSION,
        state.turn_number,
        f"{state.to_move.title} wins by King conversion on {state.to_move.title}'s turn {state.turn_number}",
    )
    state = state.replace(result=result)
    return Applied(state, effects.replace(king_damage=total, king_converted=True, result=result))


def _hit_piece(state: GameState, action: Attack, target: Piece, effects: Effects) -> Applied:
    """Damage this turn ≥ value captures: to the attacker's Gem, +5×value SP (core §4.3, R11).

    A broken Gem still takes the piece (R15) but its owner gains no SP at all (core §6).
    """
    turn = state.turn
    dealt = turn.damage_on(action.to) + (effects.damage or 0)
    value = value_of(target.kind, state.ruleset)
    others = tuple((s, d) for s, d in turn.damage if s != action.to) if turn.damage else ()
    if dealt < value:
        return Applied(state.with_turn(turn.with_damage((*others, (action.to, dealt)))), effects)
    mover = state.mover
    reward = 0 if mover.gem_broken else caps.CAPTURE_SP_PER_VALUE * value
    board = list(state.board)
    board[action.to] = None
    gem = list(mover.gem)
    gem[target.index] += 1
    state = state.with_player(state.to_move, mover.with_gem(tuple(gem), mover.sp + reward))
    state = state.with_board(tuple(board)).with_turn(turn.with_damage(others))
    return Applied(state, effects.replace(captured=target, sp_gained=reward))
