"""Cards whose triggers feed each other in a loop that never ends.

One card's effect causes the event another card waits for, whose effect causes the
event the first waits for... When no step of the loop costs anything (passive relics
without a use limit or a price the loop does not pay back), the loop repeats forever:
core §8 forbids effects that create infinite loops. The finding shows the chain as a
counter-example, step by step, and says why each step is free. Chains run through
either player's hand: a capture by you fires your opponent's ``on captured`` card.
A loop inside a single card is SG-C030; a loop with a costly step is SG-C102.

Fails: a passive "on capture: gain 1 SP" with a passive "on gain SP: extra attack in
battle" fed back by ... (see rules/cases/C101.yaml). Passes: the same cards where one step
has ``limit once per turn``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.card_edits import bounded_fix
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C101",
    name="trigger-cycle",
    severity=Severity.ERROR,
    enforces="core §8: cards must not create infinite loops (also in combination)",
    rules=("core §8",),
    scope=Scope.PACK,
)


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    for cycle in pack.facts.trigger_cycles:
        if not cycle.infinite or cycle.break_even or len(cycle.cards) < 2:
            continue
        first = cycle.steps[0]
        yield META.diagnostic(
            f"trigger cycle {cycle.chain()} never ends: {cycle.unbounded_because}",
            first.effect.span,
            hint="give at least one step a limit ('limit once per turn'), a price, or make that card a spell",
            fix=bounded_fix(first.effect, f"add 'limit once per turn' to the effect of \"{first.card.name}\""),
            label="starts an infinite trigger cycle",
            context=cycle.context(),
        )
