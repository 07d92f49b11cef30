"""SP turned into LP, in a game the checker played, better than 2 SP for 1 LP or past 20 SP in a turn.

The checker plays the pack with the core engine and accounts every action by source, as replay
does (SG-R130): what the action itself costs, what the core gives (income, the capture reward, the
Pass bonus), and what the cards and the conversion move. An action that brings its player LP
while SP goes out (the action's own price in SP included: R05 lets any cost be paid in SP) is an
exchange; SP that the cards take in one phase waits until the end of the player's next Upkeep for
LP they give for nothing in another phase. The core's own conversion counts toward the 20 SP, so
a card that trades at 2:1 on top of a full conversion breaks the cap too.

Breaks: `relic "Stride" passive { cost 2 SP phase main effect on move: gain 1 LP }` (a King step
paid with 1 SP brings 1 LP); `at main1: lose 6 SP` with `at main2: gain 6 LP`. Legal: `at upkeep:
gain 1 LP` (LP for nothing, no SP given), `convert 2 SP to 1 LP` within the 20.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C150",
    name="exchange-in-play",
    severity=Severity.ERROR,
    enforces="core §2 and core §8: the SP→LP conversion keeps its 2:1 rate and its 20 SP a turn, by every route",
    rules=("core §2", "core §8", "R05", "R16"),
    scope=Scope.PLAY,
)

#: The card and pack rules that read the same consequence from the cards themselves.
COVERED_BY = frozenset({"SG-C022", "SG-C020"})


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("exchange",), COVERED_BY)
