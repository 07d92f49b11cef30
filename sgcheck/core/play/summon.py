"""Summon: one piece from your Gem onto your camp, Upkeep only (core §5, R12)."""

from __future__ import annotations

from sgcheck.core.actions import Part, Summon
from sgcheck.core.cards.model import CostKind, Event, ExtraKind
from sgcheck.core.cards.semantics import Situation
from sgcheck.core.outcome import Applied, Effects, Violation
from sgcheck.core.pieces import KING, piece
from sgcheck.core.play.cards import costs_counted, fire, take_extra
from sgcheck.core.play.predicates import charge, phase_window, placement, violation
from sgcheck.core.state import GameState
from sgcheck.core.windows import ACTION_WINDOWS

RULES = ("core §5", "R12")


def apply(state: GameState, action: Summon) -> Applied | Violation:
    if (v := phase_window(state, ACTION_WINDOWS[Summon])) is not None:
        return v
    if state.turn.summoned:
        extra = take_extra(state, ExtraKind.SUMMON)  # a card's extra Summon (R23)
        if isinstance(extra, str):
            return violation("SG-T104", f"only one Summon is allowed per Upkeep{extra}", rules=RULES)
        state = extra
    me = state.mover
    if me.gem_broken:
        return violation(
            "SG-R111", "cannot Summon while your own Gem is broken; Repair it first", rules=("core §6", "R12")
        )
    if action.kind is KING:
        return violation(
            "SG-R108", "the King is never in a Gem and cannot be summoned", Part.PIECE, ("core §5", "R09", "R12")
        )
    own = piece(state.to_move, action.kind)
    if me.gem[own.index] == 0:
        return violation(
            "SG-R109", f"no {own} is left in {state.to_move.title}'s Gem to summon", Part.PIECE, rules=RULES
        )
    placed = placement(state, action.kind, action.to, action.pay, "Summon", RULES)
    if isinstance(placed, Violation):
        return placed
    cost, paid = placed
    before = state
    state = charge(state, paid)
    mover = state.mover
    gem = list(mover.gem)
    gem[own.index] -= 1
    state = state.with_player(state.to_move, mover.with_gem(tuple(gem), mover.sp))
    board = list(state.board)
    board[action.to] = own
    state = state.with_play(tuple(board), state.players, state.turn.summoning())
    if state.cards is not None:
        at = Situation(state.to_move, action.kind, None, None, None, action.to)
        state = fire(costs_counted(before, state, CostKind.SUMMON, at), Event.SUMMON, state.to_move, at)
    return Applied(state, Effects.of_payment(cost, paid))
