"""Soul Gem economy: Break, Repair (Upkeep, core §6, R15) and SP→LP conversion (Main 2, core §2, R16)."""

from __future__ import annotations

from sgcheck.core import caps
from sgcheck.core.actions import Break, Convert, Part, Repair
from sgcheck.core.cards.model import CostKind, ExtraKind
from sgcheck.core.cards.semantics import Situation
from sgcheck.core.formulas import Worked
from sgcheck.core.outcome import Applied, Effects, Violation
from sgcheck.core.pieces import NON_KING_KINDS, piece
from sgcheck.core.play.cards import costs_counted, repair_denied, take_extra
from sgcheck.core.play.predicates import card_cost, charge, dice_faces, phase_window, resolve_payment, violation
from sgcheck.core.play.victory import lp_victory
from sgcheck.core.rolls import BREAK_ROLL, REPAIR_ROLL
from sgcheck.core.state import GameState, Payment
from sgcheck.core.windows import ACTION_WINDOWS, Window

GEM_RULES = ("core §6", "R15")
BREAK_COST = Worked(caps.BREAK_COST, "Break costs {}", caps.BREAK_COST, rules=GEM_RULES)
REPAIR_COST = Worked(caps.REPAIR_COST, "Repair costs {}", caps.REPAIR_COST, rules=GEM_RULES)


def _upkeep_attempt(state: GameState, window: Window, kind: ExtraKind, done: bool) -> GameState | Violation:
    """One attempt of each per Upkeep, after income and before the Summon (R15); a card's
    extra attempt is counted on the state returned (R23)."""
    if (v := phase_window(state, window)) is not None:
        return v
    what = window.what
    if done:
        extra = take_extra(state, kind)
        if isinstance(extra, str):
            return violation("SG-T104", f"only one {what} attempt is allowed per Upkeep{extra}", rules=GEM_RULES)
        state = extra
    if state.turn.summoned:
        return violation("SG-T104", f"{what} must come before the Upkeep's Summon", rules=GEM_RULES)
    return state


def apply_break(state: GameState, action: Break) -> Applied | Violation:
    """Pay 20, roll 3d6; on 12+ the enemy Gem breaks and your pieces in it come home (core §6, R15)."""
    attempt = _upkeep_attempt(state, ACTION_WINDOWS[Break], ExtraKind.BREAK, state.turn.broke)
    if isinstance(attempt, Violation):
        return attempt
    state = attempt
    if state.opponent.gem_broken:
        return violation("SG-R112", f"{state.to_move.other.title}'s Gem is already broken", rules=GEM_RULES)
    if (v := dice_faces(action.roll, BREAK_ROLL)) is not None:
        return v
    cost = _with_cards(state, BREAK_COST, CostKind.BREAK)
    paid = resolve_payment(state, cost, action.pay, "Break")
    if isinstance(paid, Violation):
        return paid
    state = _charged(state, paid, CostKind.BREAK)
    state = state.with_turn(state.turn.replace(broke=True))
    total = sum(action.roll)
    success = total >= caps.BREAK_THRESHOLD
    effects = Effects(cost_worked=cost, paid=paid, dice_total=total, success=success)
    if not success:
        return Applied(state, effects)
    me, them = state.to_move, state.to_move.other
    mine, theirs = list(state.mover.gem), list(state.opponent.gem)
    returned = 0
    for kind in NON_KING_KINDS:
        idx = piece(me, kind).index
        returned += theirs[idx]
        mine[idx] += theirs[idx]
        theirs[idx] = 0
    state = state.with_player(me, state.mover.replace(gem=tuple(mine)))
    state = state.with_player(them, state.player(them).replace(gem=tuple(theirs), gem_broken=True))
    return Applied(state, effects.replace(returned_pieces=returned))


def apply_repair(state: GameState, action: Repair) -> Applied | Violation:
    """Pay 10, roll 3d6; on 10+ your broken Gem is whole again (core §6, R15)."""
    attempt = _upkeep_attempt(state, ACTION_WINDOWS[Repair], ExtraKind.REPAIR, state.turn.repaired)
    if isinstance(attempt, Violation):
        return attempt
    state = attempt
    if not state.mover.gem_broken:
        return violation(
            "SG-R112",
            f"{state.to_move.title}'s Gem is not broken; there is nothing to repair",
            rules=GEM_RULES,
        )
    if (denier := repair_denied(state)) is not None:
        return violation(
            "SG-R127",
            f"{state.to_move.other.title}'s {denier!r} denies Repair this turn",
            rules=("core §6", "R23"),
        )
    if (v := dice_faces(action.roll, REPAIR_ROLL)) is not None:
        return v
    cost = _with_cards(state, REPAIR_COST, CostKind.REPAIR)
    paid = resolve_payment(state, cost, action.pay, "Repair")
    if isinstance(paid, Violation):
        return paid
    state = _charged(state, paid, CostKind.REPAIR)
    state = state.with_turn(state.turn.replace(repaired=True))
    total = sum(action.roll)
    success = total >= caps.REPAIR_THRESHOLD
    if success:
        state = state.with_player(state.to_move, state.mover.replace(gem_broken=False))
    return Applied(state, Effects(cost_worked=cost, paid=paid, dice_total=total, success=success))


def _with_cards(state: GameState, cost: Worked, kind: CostKind) -> Worked:
    return cost if state.cards is None else card_cost(state, cost, kind, Situation(state.to_move))


def _charged(state: GameState, paid: Payment, kind: CostKind) -> GameState:
    """The payment made; with cards, one act counted of each limited cost modifier it used (R23)."""
    after = charge(state, paid)
    return after if state.cards is None else costs_counted(state, after, kind, Situation(state.to_move))


def apply_convert(state: GameState, action: Convert) -> Applied | Violation:
    """2 SP → 1 LP in Main 2, at most 20 SP a turn (core §2, R16)."""
    rules = ("core §2", "R16")
    if (v := phase_window(state, ACTION_WINDOWS[Convert])) is not None:
        return v
    rate, cap = caps.CONVERSION_SP_PER_LP, caps.CONVERSION_CAP_SP
    if action.sp <= 0 or action.sp % rate:
        return violation(
            "SG-R113",
            f"conversion goes in steps of {rate} SP → 1 LP; {action.sp} SP is not a positive even amount",
            Part.AMOUNT,
            rules,
        )
    left = cap - state.turn.converted_sp
    if action.sp > left:
        return violation(
            "SG-R113",
            f"at most {cap} SP may be converted per turn; {state.turn.converted_sp} already converted, "
            f"{left} left, {action.sp} asked",
            Part.AMOUNT,
            rules,
        )
    if action.sp > state.mover.sp:
        return violation("SG-R113", f"cannot convert {action.sp} SP with only {state.mover.sp} SP", Part.AMOUNT, rules)
    gained = action.sp // rate
    player = state.mover
    state = state.with_player(state.to_move, player.with_funds(player.lp + gained, player.sp - action.sp))
    state = state.with_turn(
        state.turn.replace(actions=state.turn.actions + 1, converted_sp=state.turn.converted_sp + action.sp)
    )
    state, result = lp_victory(state)
    return Applied(state, Effects(lp_gained=gained, result=result))
