"""Move: Main 1 or Main 2, cost = value + distance (core §3, R06, R07, R09)."""

from __future__ import annotations

from sgcheck.core.actions import Move, Part
from sgcheck.core.cards.model import CostKind, Event
from sgcheck.core.cards.semantics import Situation
from sgcheck.core.formulas import move_cost
from sgcheck.core.geometry import GeometryError, move_route
from sgcheck.core.outcome import Applied, Effects, Violation
from sgcheck.core.play.cards import costs_counted, fire
from sgcheck.core.play.predicates import card_cost, charge, own_piece, phase_window, resolve_payment, violation
from sgcheck.core.state import GameState
from sgcheck.core.windows import ACTION_WINDOWS

_WINDOW = ACTION_WINDOWS[Move]
_PHASES = _WINDOW.phases  # checked before anything else, on every move


def apply(state: GameState, action: Move) -> Applied | Violation:
    if state.turn.phase not in _PHASES and (v := phase_window(state, _WINDOW)) is not None:
        return v
    mover = own_piece(state, action.frm, action.kind, Part.PIECE, "move", ("core §3",))
    if isinstance(mover, Violation):
        return mover
    route = move_route(state.board, action.frm, action.to, mover, action.via)
    if isinstance(route, GeometryError):
        return violation(route.code, f"illegal move: {route.message}", route.part, route.rules)
    cost = move_cost(mover.kind, route.distance, state.ruleset)
    cards = state.cards
    at = None  # the move as cards see it, when a card in play may change its cost or wait for it
    if cards is not None and (cards.lasting_index.costs or Event.MOVE in cards.lasting_index.events):
        at = Situation(state.to_move, mover.kind, None, route.distance, action.frm, action.to)
        cost = card_cost(state, cost, CostKind.MOVE, at)
    paid = resolve_payment(state, cost, action.pay, "move")
    if isinstance(paid, Violation):
        return paid
    board = list(state.board)
    board[action.to], board[action.frm] = mover, None
    after = charge(state, paid, tuple(board))
    if at is not None:
        after = fire(costs_counted(state, after, CostKind.MOVE, at), Event.MOVE, state.to_move, at)
    return Applied(after, Effects.of_payment(cost, paid))
