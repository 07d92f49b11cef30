"""Cards whose amounts scale with each other's results: unbounded growth.

"Gain LP equal to your SP" on one card and "gain SP equal to your LP" on another form
a feedback loop: every round multiplies both. Core §8 forbids effects that create
unbounded SP or LP, including in combination. The finding names the cards and which
resource feeds which. A single card that feeds itself is SG-C031.

Fails: the two cards above (rules/cases/C110.yaml). Passes: either card alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C110",
    name="unbounded-growth",
    severity=Severity.ERROR,
    enforces="core §8: cards must not create unbounded SP/LP (also in combination)",
    rules=("core §8",),
    scope=Scope.PACK,
)


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    for loop in pack.facts.growth_loops:
        names = list(dict.fromkeys(link.card.name for link in loop))
        if len(names) < 2:
            continue  # one card feeding itself: SG-C031
        yield META.diagnostic(
            f"{' and '.join(repr(n) for n in names)} feed each other without bound",
            loop[0].effect.span,
            hint="use fixed amounts on at least one of them",
            fix=Fix(f'give "{names[0]}" a fixed amount'),
            label="starts a feedback loop",
            context=tuple((f"link {i + 1}", link.describe()) for i, link in enumerate(loop)),
        )
