"""Teleport: one of your non-King pieces to your camp, End only, once per End (core §5, R13)."""

from __future__ import annotations

from sgcheck.core.actions import Part, Teleport
from sgcheck.core.cards.model import CostKind, Event, ExtraKind
from sgcheck.core.cards.semantics import Situation
from sgcheck.core.outcome import Applied, Effects, Violation
from sgcheck.core.pieces import KING
from sgcheck.core.play.cards import costs_counted, fire, take_extra
from sgcheck.core.play.predicates import charge, own_piece, phase_window, placement, violation
from sgcheck.core.state import GameState
from sgcheck.core.windows import ACTION_WINDOWS

RULES = ("core §5", "R13")
PLACEMENT_RULES = ("core §5", "R12", "R13")  # where a piece may land and its cost: as for a Summon


def apply(state: GameState, action: Teleport) -> Applied | Violation:
    if (v := phase_window(state, ACTION_WINDOWS[Teleport])) is not None:
        return v
    if state.turn.teleported:
        extra = take_extra(state, ExtraKind.TELEPORT)  # a card's extra Teleport (R23)
        if isinstance(extra, str):
            return violation("SG-T104", f"only one Teleport is allowed per End phase{extra}", rules=RULES)
        state = extra
    mover = own_piece(state, action.frm, action.kind, Part.PIECE, "teleport", RULES)
    if isinstance(mover, Violation):
        return mover
    if mover.kind is KING:
        return violation("SG-R108", "the King cannot be teleported", Part.PIECE, rules=("core §5", "R09", "R13"))
    placed = placement(state, mover.kind, action.to, action.pay, "Teleport", PLACEMENT_RULES)
    if isinstance(placed, Violation):
        return placed
    cost, paid = placed
    before = state
    state = charge(state, paid)
    board = list(state.board)
    board[action.to], board[action.frm] = mover, None
    state = state.with_board(tuple(board)).with_turn(state.turn.replace(teleported=True))
    if state.cards is not None:
        at = Situation(state.to_move, mover.kind, None, None, action.frm, action.to)
        state = fire(costs_counted(before, state, CostKind.TELEPORT, at), Event.TELEPORT, state.to_move, at)
    return Applied(state, Effects.of_payment(cost, paid))
