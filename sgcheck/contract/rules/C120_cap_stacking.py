"""Cards that together can push one attack past a cap.

The per-attack caps of core §4.5 (+25 to-hit, +2 damage per hit, one reroll or
advantage source) bind all cards together. Runtime clamps the total (R20), so this is a
warning: the last card of the set adds nothing, it is dead weight in the pack. The
checker takes what one player can actually bring to one attack (every passive relic in
play plus 2 activated cards, R17, out of a hand of 3, R19), finds the attack scenario
with the largest reachable total, and reports the *smallest set of cards* that passes
the cap (largest contributions first; see docs/contract-rules.md for why that is
minimal). Cards that pass a cap on their own are SG-C010..SG-C012.

Fails: two passive relics with ``to_hit +15`` each. Passes: ``to_hit +15`` and ``to_hit +10``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.analysis.stacking import Stack
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts import ATTACK_CAPS, PackView, common_mask, describe_mask, scenario_mask
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.core.cards import model as A
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
_CATEGORIES: tuple[tuple[type, str, str], ...] = (
    (A.ToHitModifier, "to-hit bonus", "+{}"),
    (A.DamageModifier, "damage bonus per hit", "+{}"),
    (A.Reroll, "reroll/advantage sources", "{}"),
)


def describe(stack: Stack, unit: str) -> str:
    return ", ".join(f'"{c.card.name}" ({unit.format(c.value)})' for c in stack.minimal)


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    stacks = pack.facts.cap_stacks
    for category, what, unit in _CATEGORIES:
        stack, cap = stacks[category], ATTACK_CAPS[category]
        if stack is None:
            continue
        first = stack.minimal[0]
        where = describe_mask(common_mask(scenario_mask(c.effect, ctx) for c in stack.minimal), ctx)
        yield META.diagnostic(
            f"{what} can reach {unit.format(stack.reachable)} on one attack (cap {unit.format(cap)}); "
            f"{len(stack.minimal)} cards already pass the cap: {describe(stack, unit)}",
            first.effect.span,
            hint="the runtime clamps at the cap (R20), so the last of these cards adds nothing",
            fix=Fix("lower one of these bonuses, or make them exclusive (different piece conditions)"),
            label="part of a stack over the cap",
            context=(
                ("attack", where),
                ("reachable", unit.format(stack.reachable)),
                ("smallest set", describe(stack, unit)),
            ),
        )
