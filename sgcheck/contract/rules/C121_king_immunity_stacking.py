"""Cards that together make a King immune to every hit.

A hit deals at most 1 + 2 = 3 damage (core §4.3 plus the §4.5 cap). If the damage
reductions on a King that one player can have in play at once (every passive relic
plus 2 activated cards, R17) add up to 3 or more, no attack can ever damage that King
and the primary victory (core §7) becomes impossible. Each card alone may be modest, but
unlike bonuses passed only together (clamped at their caps in play, the R20 warning),
nothing clamps reductions: in a game where one player holds them the King is immune, so
the combination is an error. A single card that does it alone is SG-C090 (and SG-C156).

Fails: two passive relics with ``reduce damage by 2 on own King``. Passes: one of them.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.core.caps import DAMAGE_BONUS_CAP, DAMAGE_PER_HIT
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C121",
    name="king-immunity-stacking",
    severity=Severity.ERROR,
    enforces="the King can always be damaged by a fully boosted hit (core §4.4, §4.5, §7)",
    rules=("core §4.4", "core §4.5", "core §7", "R17"),
    scope=Scope.PACK,
)


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    stack = pack.facts.king_immunity_stack
    if stack is None:
        return
    names = ", ".join(f'"{c.card.name}" (-{c.value})' for c in stack.minimal)
    yield META.diagnostic(
        f"damage reductions on a King can reach -{stack.reachable}: with {names} in play "
        f"even a fully boosted hit ({DAMAGE_PER_HIT} + {DAMAGE_BONUS_CAP}) deals nothing",
        stack.minimal[0].effect.span,
        hint="keep the reductions one player can stack on a King below the damage of a boosted hit",
        fix=Fix("lower these reductions, or make them apply to pieces other than the King"),
        label="part of a King immunity stack",
        context=(("smallest set", names),),
    )
