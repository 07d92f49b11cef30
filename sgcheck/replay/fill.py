"""The claims sgcheck writes: the text of the right claim of each kind, given what an action did.

The scorekeeper writes the actions and the dice; the claims (what an action cost, what its dice
did, what the player's totals became) are what the core returned when the log was replayed.
:func:`right_claim` is the one place that turns what an action did (its
:class:`~sgcheck.core.outcome.Effects` and the actor's state after it) into a claim, written by
the formatter's own :func:`~sgcheck.lang.logs.writer.format_claim`. It serves both:

- the fix attached to every wrong claim replay reports (SG-R201-SG-R207, SG-R211) and to a
  wrong income (SG-R208): the claim's text, corrected (or taken away when there is nothing of
  its kind to claim: a ``capture`` with no capture, a ``king-damage`` after an attack on
  another piece);
- ``sgcheck fmt --fill-claims`` (:mod:`sgcheck.replay.fill_log`), which adds :func:`wanted`:
  every claim a statement can take that says something about what it did, in the order of
  :data:`~sgcheck.lang.logs.writer.CLAIM_ORDER`.
"""

from __future__ import annotations

from sgcheck.core.outcome import Effects
from sgcheck.core.state import PlayerState
from sgcheck.diagnostics import Fix, Span
from sgcheck.lang.logs.ast import (
    Claim,
    ClaimKind,
    IncomeStmt,
    Statement,
)
from sgcheck.lang.logs.vocab import APPLICABLE, KEYWORDS
from sgcheck.lang.logs.writer import CLAIM_ORDER, format_claim

__all__ = ["PAIRS", "claim_fix", "income_fix", "right_claim", "wanted"]

_K = ClaimKind
_NOWHERE = Span.point("<claim>")


#: Claims that say one thing two ways (``miss`` and ``hit``, ``fail`` and ``success``), each mapped to
#: the first of its pair: of the two, one is right.
PAIRS: dict[ClaimKind, ClaimKind] = {_K.MISS: _K.HIT, _K.FAIL: _K.SUCCESS}


def _valued(kind: ClaimKind, value: int | None) -> Claim | None:
    return None if value is None else Claim(kind, _NOWHERE, value)


def right_claim(kind: ClaimKind, effects: Effects, player: PlayerState) -> Claim | None:
    """The right claim of ``kind`` (or of its pair: ``miss`` for ``hit``, ``fail`` for ``success``)
    about an action that did ``effects`` and left its actor as ``player``; None when the action has
    nothing of that kind to claim (a ``capture`` with no capture, a ``threshold`` of a move).
    ``pay`` is what the player chose (R05), never a claim sgcheck writes: None."""
    fx = effects
    if kind is _K.COST:
        return _valued(kind, fx.cost)
    if kind is _K.LP:
        return _valued(kind, player.lp)
    if kind is _K.SP:
        return _valued(kind, player.sp)
    if kind is _K.THRESHOLD:
        return _valued(kind, fx.threshold)
    if kind is _K.HIT or kind is _K.MISS:
        return None if fx.hit is None else Claim(_K.HIT if fx.hit else _K.MISS, _NOWHERE)
    if kind is _K.DAMAGE:
        return _valued(kind, fx.damage)
    if kind is _K.KING_DAMAGE:
        return _valued(kind, fx.king_damage)
    if kind is _K.CAPTURE:
        return None if fx.captured is None else Claim(kind, _NOWHERE)
    if kind is _K.CONVERT_KING:
        return Claim(kind, _NOWHERE) if fx.king_converted else None
    if kind is _K.SUCCESS or kind is _K.FAIL:
        return None if fx.success is None else Claim(_K.SUCCESS if fx.success else _K.FAIL, _NOWHERE)
    if kind is _K.GAIN_SP:
        return Claim(kind, _NOWHERE, fx.sp_gained)
    if kind is _K.GAIN_LP:
        return Claim(kind, _NOWHERE, fx.lp_gained)
    return None  # PAY


def _says_something(claim: Claim, effects: Effects) -> bool:
    """Whether a claim fill adds is worth writing: no ``damage 0`` after a miss, no gain of 0."""
    if claim.kind is _K.DAMAGE:
        return effects.hit is not False
    if claim.kind is _K.GAIN_SP or claim.kind is _K.GAIN_LP:
        return bool(claim.value)
    return True


def wanted(stmt: Statement, effects: Effects, player: PlayerState) -> list[Claim]:
    """Every claim ``stmt`` can take (docs/log-format.md, the claims each action accepts) that says
    something about what it did, in :data:`CLAIM_ORDER`: the full score sheet of the action."""
    word = KEYWORDS.get(type(stmt))
    if word is None or word not in APPLICABLE:  # a reveal takes no claims
        return []
    accepted = APPLICABLE[word][1]
    claims: list[Claim] = []
    for kind in CLAIM_ORDER:
        if kind not in accepted or kind in PAIRS:
            continue
        claim = right_claim(kind, effects, player)
        if claim is not None and claim.kind in accepted and _says_something(claim, effects):
            claims.append(claim)
    return claims


def claim_fix(claim: Claim, effects: Effects, player: PlayerState) -> Fix:
    """The fix of a wrong claim: its text corrected, or taken away when there is nothing of its
    kind to claim. Safe: it writes what the core says the action did."""
    right = right_claim(claim.kind, effects, player)
    if right is None:
        return Fix("remove the claim: the action did nothing of its kind", "", claim.span, safe=True)
    return Fix("correct the claim to what the action did", format_claim(right), claim.span, safe=True)


def income_fix(stmt: IncomeStmt, income: int) -> Fix:
    """The fix of a wrong income note: the income of the Upkeep (core §6, R14)."""
    return Fix("write the income of this Upkeep", str(income), stmt.amount_span, safe=True)
