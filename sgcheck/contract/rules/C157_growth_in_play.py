"""A sequence of actions that, in a game the checker played, comes back to the same position in the
same turn (board, phase, the turn's counters, the cards in play) with more LP or SP and no less of
either: it can be repeated for ever, so the pack makes SP or LP unbounded.

Breaks: `on move: gain 2 SP` (a King steps out and back for 2 SP, gaining 2). Legal: `on move: gain
1 SP limit once per turn`; `on move: gain 1 SP` when every step costs more than it gives.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C157",
    name="growth-in-play",
    severity=Severity.ERROR,
    enforces="core §8: no infinite loops or unbounded SP/LP",
    rules=("core §8",),
    scope=Scope.PLAY,
)

#: The card and pack rules that read the same consequence from the cards themselves.
COVERED_BY = frozenset({"SG-C030", "SG-C110", "SG-C031", "SG-C101", "SG-C032", "SG-C033"})


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("growth",), COVERED_BY)
