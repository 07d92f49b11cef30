"""Small named predicates shared by the action rules."""

from __future__ import annotations

from sgcheck.codes import diagnostic
from sgcheck.core.actions import Part
from sgcheck.core.cards.model import CostKind
from sgcheck.core.cards.semantics import Situation, cost_shares
from sgcheck.core.cards.table import ply
from sgcheck.core.formulas import Worked, placement_cost, with_card_costs
from sgcheck.core.outcome import Violation
from sgcheck.core.pieces import WHITE, Kind, Piece
from sgcheck.core.rolls import Roll
from sgcheck.core.squares import Square, in_camp, name
from sgcheck.core.state import Board, GameState, Payment
from sgcheck.core.windows import Window


def violation(
    code: str,
    message: str,
    part: Part = Part.ACTION,
    rules: tuple[str, ...] | None = None,
    hint: str | None = None,
) -> Violation:
    return Violation(diagnostic(code, message, rules=rules, hint=hint), part)


def phase_window(state: GameState, window: Window) -> Violation | None:
    """Each action has phases it may be taken in (core §2, R03): its ``window`` in
    :data:`~sgcheck.core.windows.ACTION_WINDOWS`."""
    if state.turn.phase in window.phases:
        return None
    where = " or ".join(p.title for p in window.phases)
    return violation(
        "SG-T103",
        f"{window.what} is only allowed in {where}, not in {state.turn.phase.title}",
        rules=("core §2", window.section, "R03"),
    )


def own_piece(
    state: GameState, sq: Square, claimed: Kind | None, part: Part, verb: str, rules: tuple[str, ...]
) -> Piece | Violation:
    """The mover's piece on ``sq``, matching the letter the log wrote (if any).

    ``rules`` are those of the action: a Move (core §3), an attack (core §4.1, R08), a
    Teleport of a piece already on the board (core §5, R13)."""
    occupant = state.board[sq]
    if occupant is None:
        return violation("SG-R101", f"cannot {verb}: there is no piece on {name(sq)}", part, rules)
    if claimed is not None and occupant.kind is not claimed:
        return violation(
            "SG-R101",
            f"cannot {verb}: {name(sq)} holds a {occupant}, not a {claimed.title}",
            part,
            rules,
        )
    if occupant.color is not state.to_move:
        return violation("SG-R102", f"cannot {verb}: the {occupant} on {name(sq)} belongs to the opponent", part, rules)
    return occupant


def resolve_payment(state: GameState, cost: Worked, pay: Payment | None, what: str) -> Payment | Violation:
    """Split ``cost`` between SP and LP (R05): as stated, else SP first, then LP."""
    player = state.players[state.to_move]
    if pay is not None:
        if pay.sp < 0 or pay.lp < 0:
            return violation("SG-R115", f"a payment cannot be negative ({pay})", Part.PAY)
        if pay.total != cost.value:
            wrong = violation(
                "SG-R115",
                f"the payment {pay} adds up to {pay.total}, but the {what} costs {cost.value} ({cost.detail})",
                Part.PAY,
            )
            return Violation(wrong.diagnostic.contrasted(cost.value, pay.total), Part.PAY)
        if pay.sp > player.sp or pay.lp > player.lp:
            return violation(
                "SG-R115",
                f"the payment {pay} is more than the player has (LP {player.lp}, SP {player.sp})",
                Part.PAY,
            )
        return pay
    if cost.value > player.lp + player.sp:
        return violation(
            "SG-R106",
            f"the {what} costs {cost.value} ({cost.detail}) but the player has only "
            f"LP {player.lp} + SP {player.sp} = {player.lp + player.sp}",
        )
    sp = min(player.sp, cost.value)
    return Payment(sp, cost.value - sp)


def charge(state: GameState, payment: Payment, board: Board | None = None) -> GameState:
    """Deduct a payment from the mover and count the action (R04); optionally with a new board.

    Built as one new state: this runs for nearly every action of every replayed game.
    """
    me = state.to_move
    player = state.players[me]
    paid = player.with_funds(player.lp - payment.lp, player.sp - payment.sp)
    players = (paid, state.players[1]) if me is WHITE else (state.players[0], paid)
    return state.with_play(state.board if board is None else board, players, state.turn.counted())


def dice_faces(roll: tuple[int, ...], kind: Roll) -> Violation | None:
    """Dice must be exactly what was rolled: as many dice as ``kind`` throws, each showing one of
    its faces (:mod:`sgcheck.core.rolls`: 0-9 on a d10, 1-6 on a d6), or SG-R114 citing its rules."""
    count, sides, low, high = kind.count, kind.sides, kind.lowest, kind.highest
    if len(roll) != count:
        return violation(
            "SG-R114",
            f"{kind.what} needs {count} dice (d{sides}), but {len(roll)} {'was' if len(roll) == 1 else 'were'} given",
            Part.ROLL,
            kind.rules,
        )
    bad = [f for f in roll if not low <= f <= high]
    if bad:
        return violation(
            "SG-R114", f"a d{sides} shows {low} to {high}; {bad[0]} is not a possible face", Part.ROLL, kind.rules
        )
    return None


def placement(
    state: GameState, kind: Kind, to: Square, pay: Payment | None, what: str, rules: tuple[str, ...]
) -> tuple[Worked, Payment] | Violation:
    """Where Summon and Teleport may put a piece, and what it costs (core §5, R12, R13).

    A free square of the mover's own camp; value + 5 + the smallest distance from a starting
    square of that kind, paid as stated or SP first (R05).
    """
    if not in_camp(to, state.to_move):
        ranks = "1-4" if state.to_move is WHITE else "5-8"
        return violation(
            "SG-R110", f"{name(to)} is outside {state.to_move.title}'s camp (ranks {ranks})", Part.TARGET, rules
        )
    occupant = state.board[to]
    if occupant is not None:
        return violation("SG-R105", f"{name(to)} is occupied by a {occupant}", Part.TARGET, rules)
    cost = placement_cost(state.to_move, kind, to, state.ruleset, rules)
    if state.cards is not None:
        costed = CostKind.SUMMON if what == "Summon" else CostKind.TELEPORT
        cost = card_cost(state, cost, costed, Situation(state.to_move, kind, None, None, None, to))
    paid = resolve_payment(state, cost, pay, what)
    if isinstance(paid, Violation):
        return paid
    return cost, paid


def card_cost(state: GameState, cost: Worked, kind: CostKind, at: Situation) -> Worked:
    """What an action of the mover costs with the cards in play (R23): the core's cost changed by
    each cost modifier that applies now (a limited one only while its limit lets it)."""
    cards = state.cards
    if cards is None or not cards.lasting_index.costs:
        return cost
    lasting = cards.acting(state.to_move, ply(state.turn_number, state.to_move))
    return with_card_costs(cost, cost_shares(lasting, state, kind, at, cost.value))
