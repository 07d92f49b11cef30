"""Core actions written back as log statements: the game-log language seen from the engine.

Whoever plays a game with :func:`sgcheck.core.engine.apply` and wants its log (the random-game
generator, :mod:`sgcheck.replay.generate`; the contract's proofs, :mod:`sgcheck.contract.proof`)
turns each applied action into its statement with the claims the engine's effects justify, and
collects a turn's statements into phase blocks with :class:`TurnWriter`. The nodes carry the dummy
span :data:`NOWHERE`; :mod:`sgcheck.lang.logs.writer` gives them their text.
"""

from __future__ import annotations

import random
from enum import StrEnum

from sgcheck.core.actions import (
    Action,
    Activate,
    Attack,
    Break,
    Convert,
    Move,
    Play,
    Repair,
    Summon,
    Teleport,
)
from sgcheck.core.outcome import Effects
from sgcheck.core.pieces import Color, Phase
from sgcheck.core.squares import Square
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Span
from sgcheck.lang.logs.ast import (
    ActivateStmt,
    AttackStmt,
    BreakStmt,
    CardName,
    Claim,
    ClaimKind,
    ConvertStmt,
    Dice,
    MoveStmt,
    PassStmt,
    PhaseBlock,
    PieceRef,
    PlayStmt,
    RepairStmt,
    SecondRoll,
    SquareRef,
    Statement,
    SummonStmt,
    TeleportStmt,
    Turn,
)

__all__ = ["NOWHERE", "Claims", "TurnWriter", "claims_for", "statement_for"]

#: The span of every node written from actions: they have no source text.
NOWHERE = Span("<generated>", 1, 1, 1, 1)


class Claims(StrEnum):
    """How many claims to write after each statement: none, a random few, or all of them."""

    NONE = "none"
    SOME = "some"
    ALL = "all"


class TurnWriter:
    """Collects one turn's statements into phase blocks, then a Turn node."""

    def __init__(self, number: int, color: Color) -> None:
        self.number, self.color = number, color
        self.blocks: list[tuple[Phase, list[Statement]]] = [(Phase.UPKEEP, [])]

    def enter(self, phase: Phase) -> None:
        self.blocks.append((phase, []))

    def add(self, stmt: Statement) -> None:
        self.blocks[-1][1].append(stmt)

    def finish(self, passed: bool, claims: tuple[Claim, ...]) -> Turn:
        if passed:
            if self.blocks[-1][0] is not Phase.END:
                self.enter(Phase.END)
            self.add(PassStmt(claims, NOWHERE))
        blocks = [(p, s) for p, s in self.blocks if s]  # empty phases change nothing; leave them out
        phases = tuple(PhaseBlock(p, NOWHERE, tuple(s), NOWHERE) for p, s in blocks)
        return Turn(self.number, self.color, NOWHERE, (), phases, NOWHERE)


def _c(kind: ClaimKind, value: int | None = None) -> Claim:
    return Claim(kind, NOWHERE, value)


def claims_for(
    action: Action, fx: Effects, after: GameState, actor: Color, mode: Claims, rng: random.Random
) -> tuple[Claim, ...]:
    """The claims a careful scorekeeper would write for this action (``rng`` picks them for
    :attr:`Claims.SOME`)."""
    if mode is Claims.NONE:
        return ()
    out: list[Claim] = []
    if fx.cost is not None:
        out.append(_c(ClaimKind.COST, fx.cost))
    if fx.threshold is not None:
        out.append(_c(ClaimKind.THRESHOLD, fx.threshold))
    if fx.hit is not None:
        out.append(_c(ClaimKind.HIT if fx.hit else ClaimKind.MISS))
        if fx.hit:
            out.append(_c(ClaimKind.DAMAGE, fx.damage))
    if fx.king_damage is not None:
        out.append(_c(ClaimKind.KING_DAMAGE, fx.king_damage))
    if fx.captured is not None:
        out.append(_c(ClaimKind.CAPTURE))
        out.append(_c(ClaimKind.GAIN_SP, fx.sp_gained))
    if fx.king_converted:
        out.append(_c(ClaimKind.CONVERT_KING))
    if fx.success is not None:
        out.append(_c(ClaimKind.SUCCESS if fx.success else ClaimKind.FAIL))
    if isinstance(action, Convert):
        out.append(_c(ClaimKind.GAIN_LP, fx.lp_gained))
    if isinstance(action, Play | Activate):
        if fx.damage is not None and fx.hit is None:
            out.append(_c(ClaimKind.DAMAGE, fx.damage))
        if fx.sp_gained and fx.captured is None:
            out.append(_c(ClaimKind.GAIN_SP, fx.sp_gained))
        if fx.lp_gained:
            out.append(_c(ClaimKind.GAIN_LP, fx.lp_gained))
    player = after.player(actor)
    out.append(_c(ClaimKind.LP, player.lp))
    out.append(_c(ClaimKind.SP, player.sp))
    if mode is Claims.SOME:
        out = [c for c in out if rng.random() < 0.4]
    return tuple(out)


def _with_payment(action: Action, claims: tuple[Claim, ...]) -> tuple[Claim, ...]:
    """The claims with the action's stated payment (R05) among them: a ``pay`` claim is how a log
    states the LP/SP split, so it is part of the action, not a note. Written after the cost."""
    paying = Summon | Move | Attack | Teleport | Break | Repair | Activate | Play
    pay = action.pay if isinstance(action, paying) else None
    if pay is None or any(c.kind is ClaimKind.PAY for c in claims):
        return claims
    stated = Claim(ClaimKind.PAY, NOWHERE, None, pay.sp, pay.lp)
    at = next((i + 1 for i, c in enumerate(claims) if c.kind is ClaimKind.COST), 0)
    return (*claims[:at], stated, *claims[at:])


def statement_for(state: GameState, action: Action, claims: tuple[Claim, ...]) -> Statement:
    """The log statement for a (non-phase) action taken in ``state``; an action that states how
    it is paid (``pay``) gets its ``pay`` claim, whatever ``claims`` holds."""

    def ref(sq: Square) -> PieceRef:
        p = state.board[sq]
        return PieceRef(p.kind if p is not None else None, sq, NOWHERE)

    def at(sq: Square) -> SquareRef:
        return SquareRef(sq, NOWHERE)

    def on(sq: Square | None) -> PieceRef | None:
        return None if sq is None else ref(sq)

    claims = _with_payment(action, claims)
    match action:
        case Summon():
            return SummonStmt(action.kind, NOWHERE, at(action.to), claims, NOWHERE)
        case Move():
            via = at(action.via) if action.via is not None else None
            return MoveStmt(ref(action.frm), at(action.to), via, claims, NOWHERE)
        case Attack():
            second = SecondRoll(action.advantage, Dice(action.second, NOWHERE), NOWHERE) if action.second else None
            dice = Dice(action.roll, NOWHERE)
            return AttackStmt(ref(action.frm), ref(action.to), dice, claims, NOWHERE, second)
        case Convert():
            return ConvertStmt(action.sp, NOWHERE, claims, NOWHERE)
        case Teleport():
            return TeleportStmt(ref(action.frm), at(action.to), claims, NOWHERE)
        case Break():
            return BreakStmt(Dice(action.roll, NOWHERE), claims, NOWHERE)
        case Repair():
            return RepairStmt(Dice(action.roll, NOWHERE), claims, NOWHERE)
        case Play():
            return PlayStmt(CardName(action.card, NOWHERE), on(action.target), claims, NOWHERE)
        case Activate():
            return ActivateStmt(CardName(action.card, NOWHERE), claims, NOWHERE, on(action.target))
    raise TypeError(f"no statement for {action!r}")
