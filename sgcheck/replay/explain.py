"""Why each replayed statement came out as it did: the numbers the core worked out, as data.

For every statement replay meets (legal or refused) and every end of a turn, :func:`explain_step`
turns what the core returned (:class:`~sgcheck.core.outcome.Effects`, or the violation that
refused the action) into an :class:`~sgcheck.results.Explanation`, a typed record (its JSON form,
``as_json``, is what the JSON report writes): the HTML report draws its panel from it
(field 11 of a frame, :mod:`sgcheck.replay.timeline`), ``sgcheck replay --explain`` prints it,
and ``--format json --timeline`` lists it. Nothing here works a rule out again: every number
is one the core computed (a cost and how it was worked, the threshold, the roll, each card's
share of a bonus and the cap of R20), or a total read from the states before and after.

An explanation, in its JSON form::

    {"line": 19, "turn": 4, "side": "white", "phase": "battle",
     "statement": "attack Ra3 Pa5 roll 3 4 ...", "legal": true, "kind": "statement",
     "facts": [{"key": "cost", "label": "Cost", "value": 12, "text": "12 = 2×Rook 5 + distance 2",
                "rules": ["core §4.1", "R08"], "parts": []}, ...],
     "after": {"white": {"lp": 3, "sp": 5, "king_damage": 0}, "black": {...}}}

``kind`` is ``statement``, or ``turn_end`` for the end of a turn (its ``statement`` the Pass
the log writes there, or ``end of turn``; its ``phase`` ``end``). The facts' ``key`` names what
they are, in the order they come: ``refused`` (the violation's code as value, its message as
text), ``cost``, ``paid`` (parts: SP and LP), ``threshold`` (parts: each card's to-hit share,
and the cap when they pass it), ``roll`` (parts: the dice), ``hit``, ``damage`` (parts: the
base, each card's damage share, the cap), ``reduction`` (parts: each card's), ``king_damage``,
``capture``, ``reward`` (a capture's SP), ``converted`` (the King converted), ``dice`` (parts:
the faces), ``success``, ``returned``, ``gain`` (one per resource: SP or LP gained), ``pass``
(the Pass bonus, or 0 with why not), ``income`` (the next player's Upkeep income, at the end of
a turn; an ``income`` statement's), ``trigger`` (totals the cards changed besides what the
action itself did, at an attack, a move, a Break… or an end of turn), ``effect`` (the same for
the card a ``play`` or ``activate`` statement played), ``result`` (the game ended). The module imports only the core
and the records it fills (:mod:`sgcheck.results`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sgcheck.core import caps
from sgcheck.core.actions import Action, Activate, Attack, Break, Convert, EndTurn, Play, Repair
from sgcheck.core.cards.semantics import AttackCards
from sgcheck.core.formulas import Worked
from sgcheck.core.outcome import Effects
from sgcheck.core.pieces import Color
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Diagnostic
from sgcheck.results import ExplainedFact, Explanation, FactPart, SideTotals, Totals

#: The ``statement`` of an end of turn whose log writes no Pass.
END_OF_TURN = "end of turn"
PHASE_KEYS = ("upkeep", "main1", "battle", "main2", "end")
_SIDES = {Color.WHITE: "white", Color.BLACK: "black"}

_TOTALS = ("core §0", "R05")
_DAMAGE = ("core §4.3", "R11")
_KING = ("core §4.4", "R11")
_GEM = ("core §6", "R15")
_CARDS = ("R20",)
_EFFECTS = ("R23",)


def _fact(
    key: str,
    label: str,
    value: bool | int | str,
    text: str,
    rules: Sequence[str] = (),
    parts: Sequence[tuple[str, int | str]] = (),
) -> ExplainedFact:
    return ExplainedFact(key, label, value, text, tuple(rules), tuple(FactPart(part, amount) for part, amount in parts))


def _worked(key: str, label: str, worked: Worked, parts: Sequence[tuple[str, int | str]] = ()) -> ExplainedFact:
    return _fact(key, label, worked.value, f"{worked.value} = {worked.detail}", worked.rules, parts)


def totals(state: GameState) -> Totals:
    """Each side's LP, SP and King damage in ``state`` (the ``after`` of an explanation)."""
    white, black = (SideTotals(p.lp, p.sp, p.king_damage) for p in state.players)
    return Totals(white, black)


def explain_step(
    line: int,
    before: GameState,
    after: GameState,
    statement: str,
    action: Action | None,
    effects: Effects | None,
    refused: Diagnostic | None = None,
) -> Explanation:
    """A statement (or an end of turn, ``action`` :class:`EndTurn`) explained: ``before`` is the
    state it was replayed from, ``after`` the state it left, ``effects`` what the core returned
    (None when the core did not apply it), ``refused`` the finding that refused it."""
    turn_end = isinstance(action, EndTurn)
    facts: list[ExplainedFact] = []
    if refused is not None:
        facts.append(_fact("refused", "Refused", refused.code, refused.message, refused.rules))
    elif effects is not None:
        facts.extend(_effects(before, after, action, effects))
    return Explanation(
        line=line,
        turn=before.turn_number,
        side=_SIDES[before.to_move],
        phase="end" if turn_end else PHASE_KEYS[before.turn.phase],
        statement=statement,
        legal=refused is None,
        kind="turn_end" if turn_end else "statement",
        facts=tuple(facts),
        after=totals(after),
    )


def explain_income(line: int, state: GameState, statement: str, refused: Diagnostic | None) -> Explanation:
    """An ``income`` statement: the income the core gave this Upkeep (core §6, R14)."""
    explained = explain_step(line, state, state, statement, None, None, refused)
    if refused is None:
        gained = state.turn.income
        who = state.to_move.title
        text = f"{who} gains {gained} SP at Upkeep"
        explained = replace(explained, facts=(_fact("income", "Income", gained, text, ("core §6", "R14")),))
    return explained


def _effects(before: GameState, after: GameState, action: Action | None, fx: Effects) -> list[ExplainedFact]:
    facts: list[ExplainedFact] = []
    actor = before.to_move
    if fx.cost_worked is not None:
        cost = fx.cost_worked
        floor = [("before the floor of 0", cost.raw)] if cost.raw != cost.value else []
        facts.append(_worked("cost", "Cost", cost, floor))
    if fx.paid is not None:
        paid = fx.paid
        parts = (("SP", paid.sp), ("LP", paid.lp))
        facts.append(_fact("paid", "Paid", paid.total, f"{paid.sp} SP + {paid.lp} LP", _TOTALS, parts))
    if fx.threshold_worked is not None:
        facts.append(_worked("threshold", "Threshold", fx.threshold_worked, _to_hit_parts(fx.cards)))
    if fx.d100 is not None and isinstance(action, Attack):
        facts.append(_roll(action, fx.d100))
    if fx.hit is not None and fx.d100 is not None and fx.threshold is not None:
        sign, word = ("≤", "hit") if fx.hit else (">", "miss")
        rules = fx.threshold_worked.rules if fx.threshold_worked is not None else ()
        facts.append(_fact("hit", "Hit", fx.hit, f"{fx.d100} {sign} {fx.threshold}: {word}", rules))
    if fx.damage is not None and isinstance(action, Attack):
        facts.extend(_damage(fx))
    if fx.king_damage is not None:
        text = f"{fx.king_damage}/{caps.KING_HP} after this attack"
        facts.append(_fact("king_damage", "King damage", fx.king_damage, text, _KING))
    if fx.captured is not None:
        owner = actor.title
        text = f"the {fx.captured} is captured and goes to {owner}'s Gem"
        facts.append(_fact("capture", "Capture", str(fx.captured), text, _DAMAGE))
    if fx.king_converted:
        facts.append(_fact("converted", "King converted", True, f"the {actor.other.title} King is converted", _KING))
    if fx.dice_total is not None and isinstance(action, Break | Repair):
        faces = " + ".join(map(str, action.roll))
        faced = [(f"d6 #{i}", face) for i, face in enumerate(action.roll, 1)]
        facts.append(_fact("dice", "3d6", fx.dice_total, f"{faces} = {fx.dice_total}", _GEM, faced))
    if fx.success is not None and fx.dice_total is not None and isinstance(action, Break | Repair):
        what, need = ("Break", caps.BREAK_THRESHOLD) if isinstance(action, Break) else ("Repair", caps.REPAIR_THRESHOLD)
        word = "success" if fx.success else "failure"
        sign = "≥" if fx.success else "<"
        text = f"{fx.dice_total} {sign} {need}: the {what} {'succeeds' if fx.success else 'fails'}"
        facts.append(_fact("success", "Success", fx.success, text, _GEM, (("needs", need), ("outcome", word))))
    if fx.returned_pieces:
        text = f"{fx.returned_pieces} of {actor.title}'s pieces come back from the broken Gem"
        facts.append(_fact("returned", "Returned", fx.returned_pieces, text, _GEM))
    facts.extend(_gains(before, action, fx))
    if isinstance(action, EndTurn):
        facts.extend(_turn_end(before, fx))
    facts.extend(_residue(before, after, action, fx))
    if fx.result is not None:
        facts.append(_fact("result", "Result", fx.result.score, fx.result.detail))
    return facts


def _roll(action: Attack, counted: int) -> ExplainedFact:
    parts: list[tuple[str, int | str]] = [("tens", action.roll[0]), ("ones", action.roll[1])]
    text = f"d100 {counted}"
    rules: tuple[str, ...] = ("core §4.2", "R10")
    if action.second:
        parts += [("second tens", action.second[0]), ("second ones", action.second[1])]
        how = "the better of two (advantage)" if action.advantage else "the second roll (a reroll)"
        text += f", {how}"
        rules = (*rules, "core §4.5", "R20")
    return _fact("roll", "Roll", counted, text, rules, parts)


def _to_hit_parts(cards: AttackCards | None) -> list[tuple[str, int | str]]:
    """Each card's share of the to-hit bonus, and the cap of R20 when they pass it."""
    if cards is None or not cards.to_hit:
        return []
    parts: list[tuple[str, int | str]] = [(share.card, share.amount) for share in cards.to_hit]
    if cards.raw_to_hit > caps.TO_HIT_BONUS_CAP:
        parts.append(("cap (R20)", caps.TO_HIT_BONUS_CAP))
    return parts


def _damage(fx: Effects) -> list[ExplainedFact]:
    assert fx.damage is not None
    cards = fx.cards
    if cards is None or not (cards.damage or cards.reduction):
        text = f"{fx.damage} per hit" if fx.hit else "0: the attack missed"
        return [_fact("damage", "Damage", fx.damage, text, _DAMAGE)]
    parts: list[tuple[str, int | str]] = [("base", caps.DAMAGE_PER_HIT)]
    parts += [(share.card, share.amount) for share in cards.damage]
    if cards.raw_damage > caps.DAMAGE_BONUS_CAP:
        parts.append(("cap (R20)", caps.DAMAGE_BONUS_CAP))
    text = f"{fx.damage} per hit: {cards.damage_text()}" if fx.hit else "0: the attack missed"
    facts = [_fact("damage", "Damage", fx.damage, text, (*_DAMAGE, *_CARDS), parts)]
    if cards.reduction:
        shares = [(share.card, -share.amount) for share in cards.reduction]
        named = ", ".join(f"{share.card} −{share.amount}" for share in cards.reduction)
        facts.append(_fact("reduction", "Reduction", cards.reduced, f"− {cards.reduced} ({named})", _EFFECTS, shares))
    return facts


def _gains(before: GameState, action: Action | None, fx: Effects) -> list[ExplainedFact]:
    facts: list[ExplainedFact] = []
    if isinstance(action, Attack):
        if fx.captured is not None:
            broken = before.mover.gem_broken
            text = f"+{fx.sp_gained} SP" + (" (a broken Gem gains no SP)" if broken else "")
            cited = (*_DAMAGE, "core §6", "R15") if broken else _DAMAGE
            facts.append(_fact("reward", "Capture reward", fx.sp_gained, text, cited))
        return facts
    if isinstance(action, EndTurn):
        return facts  # the Pass bonus is its own fact
    rules: tuple[str, ...] = ("core §2", "R16") if isinstance(action, Convert) else ()
    if fx.sp_gained:
        facts.append(_fact("gain", "SP gained", fx.sp_gained, f"+{fx.sp_gained} SP", rules))
    if fx.lp_gained:
        text = f"+{fx.lp_gained} LP"
        if isinstance(action, Convert):
            text += f" for {action.sp} SP"
        facts.append(_fact("gain", "LP gained", fx.lp_gained, text, rules))
    return facts


def _turn_end(before: GameState, fx: Effects) -> list[ExplainedFact]:
    """The Pass bonus (core §2, R04) and the next player's Upkeep income (core §6, R14)."""
    facts: list[ExplainedFact] = []
    me = before.to_move
    if fx.passed:
        text = f"{me.title} took no action this turn: +{fx.lp_gained} LP"
        facts.append(_fact("pass", "Pass", fx.lp_gained, text, ("core §2", "R04")))
    if fx.income is not None:
        text = f"{me.other.title} gains {fx.income} SP at the next Upkeep"
        facts.append(_fact("income", "Income", fx.income, text, ("core §6", "R14")))
    return facts


def not_a_pass(before: GameState) -> ExplainedFact:
    """A Pass the log writes for a turn that took actions: no bonus (core §2, R04)."""
    n = before.turn.actions
    text = f"no Pass bonus: {before.to_move.title} took {n} action{'s' if n != 1 else ''} this turn"
    return _fact("pass", "Pass", 0, text, ("core §2", "R04"))


def _residue(before: GameState, after: GameState, action: Action | None, fx: Effects) -> list[ExplainedFact]:
    """The totals the cards changed besides what the action itself did (a trigger that fired, a
    card's effect on the other side): each side's LP and SP after, less before, less what the
    effects account for. Only in a game with cards."""
    if before.cards is None or fx.result is not None:
        return []
    actor = before.to_move
    own: dict[Color, list[int]] = {c: [0, 0] for c in Color}  # [LP, SP] the action accounts for
    if fx.paid is not None:
        own[actor][0] -= fx.paid.lp
        own[actor][1] -= fx.paid.sp
    own[actor][0] += fx.lp_gained
    own[actor][1] += fx.sp_gained
    if isinstance(action, Convert):
        own[actor][1] -= action.sp
    if isinstance(action, EndTurn) and fx.income is not None:
        own[actor.other][1] += fx.income
    changes: list[tuple[str, int | str]] = []
    for c in Color:
        was, now = before.players[c], after.players[c]
        for resource, delta in (("LP", now.lp - was.lp - own[c][0]), ("SP", now.sp - was.sp - own[c][1])):
            if delta:
                changes.append((f"{c.title} {resource}", delta))
    if not changes:
        return []
    shown = ", ".join(f"{label} {delta:+d}" for label, delta in changes)
    if isinstance(action, Play | Activate):  # a card's own gains are its ``gain``; the rest is here
        return [_fact("effect", "Card effect", shown, f"the card also changes {shown}", _EFFECTS, changes)]
    return [_fact("trigger", "Card triggers", shown, f"cards in play change {shown}", _EFFECTS, changes)]
