"""A break of a cap or a floor that copies accumulating over the game can reach, by the checker's
reasoning, but that no game it played reached: a warning that says so and shows the reasoning.

An effect whose lasting copies never end (a trigger's or an activated Relic's, `permanently`)
keeps adding them as long as its event recurs, up to its `limit` per game. The checker decides,
over the whole game, whether any number of copies crosses a bound of core §8 (a cap of core §4.5,
a cost below 0, a price past what a side holds), and then plays the game on to show it. When the
game it plays on does not reach the copies needed (the event is hard to make happen that often),
it cannot prove the break: it reports what its reasoning found, the copies needed and the game
it played, as a warning, never an error (every error comes with a game that replays to it). The
same goes for copies for a while that several events of one turn could make overlap.

Warns: `on captured: to_hit +10 permanently when distance >= 5` (three captures of the holder's
pieces from five squares away give +30), when no game played, the witness search's included, makes
them. Clean: `on captured: to_hit +10 permanently limit 2 per game` (+20 at most).
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C162",
    name="possible-break-in-play",
    severity=Severity.WARNING,
    enforces="core §4.5 and core §8: caps and floors over the whole game, where no game shows the break",
    rules=("core §4.5", "core §8", "R20", "R23"),
    scope=Scope.PLAY,
)

#: The card rules that read the copies of one card from its wording (SG-C005 for costs, the caps).
COVERED_BY = frozenset({"SG-C005", "SG-C010", "SG-C011", "SG-C012"})


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, None, COVERED_BY, projected=True)
