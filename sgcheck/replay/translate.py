"""Turn log statements into core actions, and point back at the text a violation is about."""

from __future__ import annotations

from sgcheck.core.actions import (
    Action,
    Activate,
    Attack,
    Break,
    Convert,
    Move,
    Part,
    Play,
    Repair,
    Reveal,
    Summon,
    Teleport,
)
from sgcheck.core.state import Payment
from sgcheck.diagnostics import Span
from sgcheck.lang.logs.ast import (
    ActivateStmt,
    AttackStmt,
    BreakStmt,
    Claim,
    ClaimKind,
    ConvertStmt,
    MoveStmt,
    PlayStmt,
    RepairStmt,
    RevealStmt,
    Statement,
    SummonStmt,
    TeleportStmt,
)


def stated_payment(claims: tuple[Claim, ...]) -> Payment | None:
    """The LP/SP split the log states (R05), if any."""
    for claim in claims:
        if claim.kind is ClaimKind.PAY:
            return Payment(sp=claim.sp, lp=claim.lp)
    return None


def translate(stmt: Statement) -> Action | None:
    """The core action a statement stands for; None for pure claims (``pass``, ``income``)."""
    pay = stated_payment(stmt.claims) if stmt.claims else None
    match stmt:
        case MoveStmt():
            via = stmt.via.square if stmt.via is not None else None
            return Move(stmt.piece.square, stmt.to.square, via, stmt.piece.kind, pay)
        case AttackStmt():
            second = stmt.second
            return Attack(
                stmt.attacker.square,
                stmt.target.square,
                stmt.roll.faces,
                stmt.attacker.kind,
                stmt.target.kind,
                pay,
                second.dice.faces if second is not None else (),
                second is not None and second.advantage,
            )
        case SummonStmt():
            return Summon(stmt.kind, stmt.to.square, pay)
        case ConvertStmt():
            return Convert(stmt.amount)
        case TeleportStmt():
            return Teleport(stmt.piece.square, stmt.to.square, stmt.piece.kind, pay)
        case BreakStmt():
            return Break(stmt.roll.faces, pay)
        case RepairStmt():
            return Repair(stmt.roll.faces, pay)
        case ActivateStmt():
            target = stmt.target
            if target is None:
                return Activate(stmt.card.name, pay)
            return Activate(stmt.card.name, pay, target.square, target.kind)
        case PlayStmt():
            target = stmt.target
            if target is None:
                return Play(stmt.card.name, None, None, pay)
            return Play(stmt.card.name, target.square, target.kind, pay)
        case RevealStmt():
            return Reveal(stmt.card.name, stmt.to)
    return None


def span_of(stmt: Statement, part: Part) -> Span:
    """The text a violation about ``part`` of ``stmt`` should point at (the whole statement by default)."""
    if part is Part.PAY:
        return next((c.span for c in stmt.claims if c.kind is ClaimKind.PAY), stmt.span)
    match stmt:
        case MoveStmt() | TeleportStmt():
            if part is Part.PIECE:
                return stmt.piece.span
            if part is Part.TARGET:
                return stmt.to.span
            if part is Part.VIA and isinstance(stmt, MoveStmt) and stmt.via is not None:
                return stmt.via.span
        case AttackStmt():
            spans = {Part.PIECE: stmt.attacker.span, Part.TARGET: stmt.target.span, Part.ROLL: stmt.roll.span}
            if stmt.second is not None:
                spans[Part.REROLL] = stmt.second.span
            return spans.get(part, stmt.span)
        case ActivateStmt() | PlayStmt():
            if part is Part.TARGET:  # a card written without its target: point at the card
                return stmt.target.span if stmt.target is not None else stmt.card.span
        case SummonStmt():
            if part is Part.PIECE:
                return stmt.kind_span
            if part is Part.TARGET:
                return stmt.to.span
        case BreakStmt() | RepairStmt():
            if part is Part.ROLL:
                return stmt.roll.span
        case ConvertStmt():
            if part is Part.AMOUNT:
                return stmt.amount_span
    return stmt.span
