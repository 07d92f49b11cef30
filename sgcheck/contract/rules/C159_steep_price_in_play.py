"""An action the opponent's cards make dearer than the 20 LP a side starts with (core §1), on every
action of its kind: even the cheapest costs that much more.

Core §8 lets cards add cost modifiers; it also keeps the turn's phases. Where a price stops being a
modifier and empties a phase is a judgment call: the checker reads a surcharge on the cheapest
action of a kind larger than a side's starting LP as steep, and warns, with the numbers, so the
designer decides. A surcharge past what any player can hold is SG-C158, an error.

Warns: `opponent cost repair +40`. Clean: `opponent cost repair +4`, `opponent cost break +5`.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C159",
    name="steep-price-in-play",
    severity=Severity.WARNING,
    enforces="core §2 and core §8: a phase made costly by the opponent's prices (a judgment call)",
    rules=("core §1", "core §2", "core §8"),
    scope=Scope.PLAY,
)

#: No card or pack rule reads this consequence from the cards themselves.
COVERED_BY: frozenset[str] = frozenset()


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("steep-price",), COVERED_BY)
