"""A player who, in a game the checker played, cannot attempt a Repair in two consecutive Upkeeps
because of the opponent's effects.

The checker breaks one side's Gem and plays the other side's cards over three turns of each
player; at each Upkeep it asks the engine whether the Repair would be taken. A denial in force,
or a Repair priced by the opponent's cards past what the player holds (while the core's 10 was
payable), counts; so does any road to it: an activated Relic used again each turn, a passive
`limit 1 per game` that never runs out, a price nobody can pay.

Breaks: `relic "Lock" activated { ... effect deny repair for 1 turn }`; `opponent cost repair +200`.
Legal: one Spell with `deny repair for 1 turn` (it is spent after one turn).
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C154",
    name="repair-denied-in-play",
    severity=Severity.ERROR,
    enforces="core §6 and core §8: no repair denial on consecutive turns by one player's effects",
    rules=("core §6", "core §8"),
    scope=Scope.PLAY,
)

#: The card and pack rules that read the same consequence from the cards themselves.
COVERED_BY = frozenset({"SG-C130", "SG-C040"})


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("repair-denied",), COVERED_BY)
