"""The manifest's draft settings keep more cards than a hand may hold. R19: draw 5, keep
3, hold at most 3. The guide's Double Draft (keep 4) is allowed only when the pack
raises ``hand_limit`` explicitly. A hand holds the fewer of the cards drawn and kept: a
keep larger than the draw puts no more than the draw in a hand, and is SG-C209 (a warning)
unless the draw itself passes the limit.

Fails: ``draft: {draw: 8, keep: 4}``. Passes: ``draft: {draw: 8, keep: 4, hand_limit: 4}``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C207",
    name="draft-conflict",
    severity=Severity.ERROR,
    enforces="R19: draft keep count within the hand limit",
    rules=("R19",),
    scope=Scope.PACKAGING,
)
