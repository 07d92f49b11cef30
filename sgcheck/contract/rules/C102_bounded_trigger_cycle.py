"""Cards whose triggers feed each other in a loop that only costs limit.

Like SG-C101, but at least one step is bounded: a spell is discarded after use, a step
has a use limit, or it pays LP/SP the loop does not give back (an activated relic's triggers
fire on every event, its 2 uses a turn, R17, bound only its uses). The loop is legal but it repeats as long
as the player can afford it, which is rarely what the designer meant; the finding shows
the chain and what bounds each step.

An unbounded loop whose firings only gain back exactly the price they pay (``on gain SP pay
1 SP: gain 1 SP``) is reported here too: it repeats without end, but no pool grows or shrinks,
so whether it breaks §8's ban on infinite loops is a judgment call (a loop that gains more
than it pays is SG-C030 or SG-C101).

Fails: "on capture: gain 1 SP" with "on gain SP pay 2 SP: extra attack in battle" (see
rules/cases/C102.yaml). Passes: cards whose triggers do not feed each other.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C102",
    name="bounded-trigger-cycle",
    severity=Severity.WARNING,
    enforces="core §8: loops must be bounded (this one is, by what its steps cost)",
    rules=("core §8", "R17"),
    scope=Scope.PACK,
)


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    for cycle in pack.facts.trigger_cycles:
        if cycle.break_even:
            yield META.diagnostic(
                f"trigger cycle {cycle.chain()} repeats without end, each firing gaining back exactly the price "
                "it pays: no pool grows, but the loop never stops (core §8 bans infinite loops)",
                cycle.steps[0].effect.span,
                hint="a judgment call: a use limit ('limit once per turn') makes the loop end",
                label="starts a trigger cycle that changes nothing",
                context=cycle.context(),
            )
            continue
        if cycle.infinite:
            continue
        bounds = "; ".join(f'"{s.card.name}" {s.why}' for s in cycle.steps if s.bounded)
        yield META.diagnostic(
            f"trigger cycle {cycle.chain()} repeats while its costs can be paid ({bounds})",
            cycle.steps[0].effect.span,
            hint="check that the loop is intended; one more limit ('limit once per turn') ends it after one round",
            label="starts a bounded trigger cycle",
            context=cycle.context(),
        )
