"""Compare what the log claims about an action with what the core says happened.

One small checker per claim kind, looked up by kind: replay checks millions of claims,
and almost all of them are right, so the common path is a lookup and a comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from sgcheck.codes import diagnostic
from sgcheck.core import caps
from sgcheck.core.formulas import Worked
from sgcheck.core.outcome import Effects
from sgcheck.core.pieces import Color
from sgcheck.core.state import GameState, PlayerState
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.logs.ast import Claim, ClaimKind
from sgcheck.lang.logs.reader import StepClaim

# (diagnostic, caret label, underline the whole statement?)
Finding = tuple[Diagnostic, str, bool]
#: (claim kind, claimed number, what the action did, the actor after it, the statement word)
Checker = Callable[[ClaimKind, "int | None", Effects, PlayerState, str], "Finding | None"]


def _claimed(value: int | None) -> str:
    return f"claimed {value}"


def _cite(*groups: tuple[str, ...]) -> tuple[str, ...]:
    """Rule references from several sources, each once: rulebook sections first, then rulings."""
    refs = dict.fromkeys(ref for group in groups for ref in group)
    return tuple(sorted(refs, key=lambda ref: (not ref.startswith("core"), ref)))


def _worked_rules(worked: Worked | None) -> tuple[str, ...]:
    return () if worked is None else worked.rules


#: What decides a player's totals besides paying (R05), by statement word (a cost claim cites the
#: rulings of the cost itself).
_TOTALS_RULES: dict[str, tuple[str, ...]] = {
    "Pass": ("core §2", "R04"),
    "conversion": ("core §2", "R16"),
    "income": ("core §6", "R14"),
}
_TOTALS = ("core §0", "R05")
_CAPTURE = ("core §4.3", "R11")


def _totals_rules(fx: Effects, what: str) -> tuple[str, ...]:
    return _cite(_TOTALS, _TOTALS_RULES.get(what, ()), _CAPTURE if fx.captured else ())


def _cost(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    if fx.cost is None or value == fx.cost:
        return None
    msg = f"wrong cost: the {what} costs {fx.cost} ({fx.cost_detail}), not {value}"
    found = diagnostic("SG-R201", msg, rules=_worked_rules(fx.cost_worked) or None, expected=fx.cost, claimed=value)
    return found, _claimed(value), False


def _lp(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    if value == p.lp:
        return None
    return (
        diagnostic(
            "SG-R203",
            f"wrong LP total: after this {what} LP is {p.lp}, not {value}",
            rules=_totals_rules(fx, what),
            expected=p.lp,
            claimed=value,
        ),
        _claimed(value),
        False,
    )


def _sp(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    if value == p.sp:
        return None
    return (
        diagnostic(
            "SG-R203",
            f"wrong SP total: after this {what} SP is {p.sp}, not {value}",
            rules=_totals_rules(fx, what),
            expected=p.sp,
            claimed=value,
        ),
        _claimed(value),
        False,
    )


def _threshold(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    if fx.threshold is None or value == fx.threshold:
        return None
    msg = f"wrong threshold: it is {fx.threshold} ({fx.threshold_detail}), not {value}"
    rules = _worked_rules(fx.threshold_worked) or None
    return diagnostic("SG-R202", msg, rules=rules, expected=fx.threshold, claimed=value), _claimed(value), False


def _hit_or_miss(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    said_hit = kind is ClaimKind.HIT
    if fx.hit is None or said_hit == fx.hit:
        return None
    # The attack itself is legal (the engine applied it); only the outcome written is wrong.
    outcome, sign = ("hits", "≤") if fx.hit else ("misses", ">")
    msg = (
        f"wrong claim: d100 roll {fx.d100} {outcome}, the log says {'hit' if said_hit else 'miss'} "
        f"({fx.d100} {sign} threshold {fx.threshold} = {fx.threshold_detail})"
    )
    rules = _worked_rules(fx.threshold_worked) or None
    found = diagnostic("SG-R204", msg, rules=rules, expected="hit" if fx.hit else "miss", claimed=kind.value)
    return found, "claimed a hit" if said_hit else "claimed a miss", True


def _damage(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    if fx.damage is None or value == fx.damage:
        return None
    return (
        diagnostic(
            "SG-R205",
            f"wrong damage: this attack dealt {fx.damage}, not {value}",
            rules=_CAPTURE,
            expected=fx.damage,
            claimed=value,
        ),
        _claimed(value),
        False,
    )


def _king_damage(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    """The defending King's damage total after any attack on it, hit or miss (core §4.4, R11)."""
    if value == fx.king_damage:
        return None
    if fx.king_damage is None:
        msg = f"wrong King damage: the target is not a King, so this attack has no King damage total (not {value})"
    else:
        msg = f"wrong King damage: after this attack the King's total is {fx.king_damage}/{caps.KING_HP}, not {value}"
    found = diagnostic("SG-R205", msg, rules=("core §4.4", "R11"), expected=fx.king_damage, claimed=value)
    return found, _claimed(value), False


def _capture(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    if fx.captured is not None:
        return None
    why = "the attack missed" if fx.hit is False else "the damage dealt this turn is still below the piece's value"
    found = diagnostic("SG-R206", f"no capture: {why}", rules=_CAPTURE, expected="no capture", claimed="capture")
    return found, "claimed a capture", False


def _converts(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    if fx.king_converted:
        return None
    msg = f"the King is not converted: it has not taken {caps.KING_HP} damage"
    found = diagnostic("SG-R206", msg, rules=("core §4.4", "R11"), expected="not converted", claimed="converts")
    return found, "claimed a conversion", False


def _success_or_fail(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    said_success = kind is ClaimKind.SUCCESS
    if fx.success is None or said_success == fx.success:
        return None
    need = caps.BREAK_THRESHOLD if what == "Break" else caps.REPAIR_THRESHOLD
    outcome = "succeeds" if fx.success else "fails"
    msg = f"the 3d6 total {fx.dice_total} {outcome} (a {what} needs {need}+)"
    found = diagnostic("SG-R207", msg, expected="success" if fx.success else "fail", claimed=kind.value)
    return found, "claimed success" if said_success else "claimed failure", False


def _gain_sp(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    if value == fx.sp_gained:
        return None
    if fx.captured is not None and p.gem_broken:  # the piece goes to the Gem, but no SP (core §6)
        msg = f"wrong gain: this {what} gains {fx.sp_gained} SP (a broken Gem gains no SP), not {value}"
        rules = _cite(_CAPTURE, ("core §6", "R15"))
    else:
        msg, rules = f"wrong gain: this {what} gains {fx.sp_gained} SP, not {value}", _CAPTURE
    return (
        diagnostic("SG-R211", msg, rules=rules, expected=fx.sp_gained, claimed=value),
        _claimed(value),
        False,
    )


def _gain_lp(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    if value == fx.lp_gained:
        return None
    return (
        diagnostic(
            "SG-R211",
            f"wrong gain: this {what} gains {fx.lp_gained} LP, not {value}",
            rules=_TOTALS_RULES.get(what) or None,
            expected=fx.lp_gained,
            claimed=value,
        ),
        _claimed(value),
        False,
    )


def _input_only(kind: ClaimKind, value: int | None, fx: Effects, p: PlayerState, what: str) -> Finding | None:
    """``pay`` is an input to the engine (R05), checked there, not a claim about the result."""
    return None


CHECKERS: dict[ClaimKind, Checker] = {
    ClaimKind.COST: _cost,
    ClaimKind.PAY: _input_only,
    ClaimKind.LP: _lp,
    ClaimKind.SP: _sp,
    ClaimKind.THRESHOLD: _threshold,
    ClaimKind.HIT: _hit_or_miss,
    ClaimKind.MISS: _hit_or_miss,
    ClaimKind.DAMAGE: _damage,
    ClaimKind.KING_DAMAGE: _king_damage,
    ClaimKind.CAPTURE: _capture,
    ClaimKind.CONVERT_KING: _converts,
    ClaimKind.SUCCESS: _success_or_fail,
    ClaimKind.FAIL: _success_or_fail,
    ClaimKind.GAIN_SP: _gain_sp,
    ClaimKind.GAIN_LP: _gain_lp,
}


def check_claims(
    claims: tuple[Claim, ...],
    effects: Effects,
    after: GameState,
    actor: Color,
    action_span: Span,
    what: str,
) -> Iterator[Diagnostic]:
    """Yield a diagnostic for every claim that contradicts ``effects`` or the actor's totals in
    ``after``, with the fix that writes the claim right (:func:`sgcheck.replay.fill.claim_fix`)."""
    from sgcheck.replay.fill import claim_fix

    player = after.players[actor]
    for claim in claims:
        found = CHECKERS[claim.kind](claim.kind, claim.value, effects, player, what)
        if found is not None:
            diag, label, whole = found
            placed = diag.at(action_span if whole else claim.span, label)
            yield replace(placed, fix=claim_fix(claim, effects, player))


def claims_hold(claims: tuple[StepClaim, ...], effects: Effects, player: PlayerState, what: str) -> bool:
    """Whether every ``(kind, value)`` claim agrees with ``effects`` and the actor's totals: the turn loop's
    check of a statement's claims before it asks for the statement's node (to report what does not)."""
    for kind, value in claims:  # noqa: SIM110 - a plain loop: this runs for most replayed actions
        if CHECKERS[kind](kind, value, effects, player, what) is not None:
            return False
    return True
