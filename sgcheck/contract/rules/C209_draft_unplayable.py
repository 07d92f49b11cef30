"""The manifest's draft keeps more cards than it draws. A player can keep only what was
drawn, so a hand holds at most the draw and never passes the hand limit that way (R19);
the draft as written cannot be played, which is a broken setting rather than a break of the
contract: whether it breaks R19 is a judgment call, reported as a warning. A draft whose
hand, the fewer of draw and keep, holds more than the hand limit is SG-C207.

Fails: ``draft: {draw: 2, keep: 3}``. Passes: ``draft: {draw: 5, keep: 3}``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C209",
    name="draft-unplayable",
    severity=Severity.WARNING,
    enforces="R19: a draft keeps no more cards than it draws",
    rules=("R19",),
    scope=Scope.PACKAGING,
)
