"""The pack lists no card files, or every listed file holds no cards. There is nothing
to check.

Fails: ``cards: []``. Passes: a manifest listing a file with cards.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C208",
    name="empty-pack",
    severity=Severity.WARNING,
    enforces="a pack holds cards",
    rules=(),
    scope=Scope.PACKAGING,
)
