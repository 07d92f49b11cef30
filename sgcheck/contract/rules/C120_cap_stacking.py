"""Cards that together can push one attack past a cap.

The per-attack caps of core §4.5 (+25 to-hit, +2 damage per hit, one reroll or
advantage source) bind all cards together. Runtime clamps the total (R20), so this is a
warning: the last card of the set adds nothing, it is dead weight in the pack. The
checker takes what one player can actually bring to one attack (every passive relic in
play plus 2 activated cards, R17, out of a hand of 3, R19), finds the matchup (attacker
kind x defender kind) with the largest reachable total, and reports the *smallest set of cards* that passes
the cap (largest contributions first; see docs/contract-rules.md for why that is
minimal). The attacked player's cards count too, with their effects on enemy attacks (``to_hit
+10 on enemy attacks`` helps the other player's attacks): for an attack by one player, the
attacker's cards on their own attacks and the attacked player's cards on enemy attacks meet on
one roll, and the finding names which player holds each card. Cards that pass a cap on their own
are SG-C010..SG-C012. On-hit damage to the attacked piece counts toward the damage cap, as in play
(R23).

Fails: two passive relics with ``to_hit +15`` each. Passes: ``to_hit +15`` and ``to_hit +10``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.analysis.stacking import Contribution, Stack
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.bonuses import ATTACK_CAPS, attack_bonuses
from sgcheck.contract.facts.matchups import common_mask, describe_mask, matchup_mask
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import AttackKind
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C120",
    name="cap-stacking",
    severity=Severity.WARNING,
    enforces="core §4.5 caps across cards: +25 to-hit, +2 damage per hit, one reroll source per roll",
    rules=("core §4.5", "R17", "R19", "R20"),
    scope=Scope.PACK,
)

#: Each capped bonus category (its cap is ``ATTACK_CAPS[category]``), in words and as a unit.
_CATEGORIES: tuple[tuple[AttackKind, str, str], ...] = (
    (AttackKind.TO_HIT, "to-hit bonus", "+{}"),
    (AttackKind.DAMAGE, "damage bonus per hit", "+{}"),
    (AttackKind.REROLL, "reroll/advantage sources", "{}"),
)


#: Who holds a card of the set, said when the attacked player's cards are part of it: the attacker,
#: or the attacked player, whose card acts on enemy attacks.
_HELD: dict[A.Side, str] = {A.Side.OWN: ", held by the attacker", A.Side.ENEMY: ", held by the attacked player"}


def _amount(c: Contribution, stack: Stack, category: AttackKind, unit: str, ctx: CheckContext) -> tuple[str, bool]:
    """A card's contribution in words, naming its on-hit damage (``on hit +2``, ``+3: +1, on hit +2``)."""
    text = unit.format(c.value)
    if category is not AttackKind.DAMAGE:
        return text, False
    bit = 1 << stack.matchup
    parts = [b for b in attack_bonuses(c.card, category, ctx) if b.scope is c.holder and b.mask & bit]
    if not any(b.on_hit or b.doubles for b in parts):
        return text, False
    labels = ", ".join(b.part.label for b in parts)
    return (labels if len(parts) == 1 else f"{text}: {labels}"), any(b.on_hit for b in parts)


def describe(stack: Stack, category: AttackKind, unit: str, ctx: CheckContext) -> tuple[str, bool]:
    """The smallest set in words, and whether on-hit damage is part of it."""
    amounts = [_amount(c, stack, category, unit, ctx) for c in stack.minimal]
    mixed = any(c.holder is not A.Side.OWN for c in stack.minimal)
    text = ", ".join(
        f'"{c.card.name}" ({amount}{_HELD[c.holder] if mixed else ""})'
        for c, (amount, _) in zip(stack.minimal, amounts, strict=True)
    )
    return text, any(on_hit for _, on_hit in amounts)


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    stacks = pack.facts.cap_stacks
    for category, what, unit in _CATEGORIES:
        stack, cap = stacks[category], ATTACK_CAPS[category]
        if stack is None:
            continue
        first = stack.minimal[0]
        where = describe_mask(common_mask(matchup_mask(c.effect, ctx) for c in stack.minimal), ctx)
        cards, on_hit = describe(stack, category, unit, ctx)
        counted = "; on-hit damage to the attacked piece counts toward the damage cap (R23)" if on_hit else ""
        yield META.diagnostic(
            f"{what} can reach {unit.format(stack.reachable)} on one attack (cap {unit.format(cap)}); "
            f"{len(stack.minimal)} cards already pass the cap: {cards}",
            first.effect.span,
            rules=(*META.rules, "R23") if on_hit else META.rules,
            hint=f"the runtime clamps at the cap (R20), so the last of these cards adds nothing{counted}",
            fix=Fix("lower one of these bonuses, or make them exclusive (different piece conditions)"),
            label="part of a stack over the cap",
            context=(
                ("attack", where),
                ("reachable", unit.format(stack.reachable)),
                ("smallest set", cards),
            ),
        )
