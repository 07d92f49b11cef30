"""A suppression comment silences nothing: its code is not reported for the card (or
file) it covers. The finding was fixed or never happened; delete the comment so it
cannot hide a future finding.

Fails: ``# sgcheck: ignore SG-C010 -- ...`` above a card within the caps. Passes: a
suppression whose finding is reported.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C221",
    name="unused-suppression",
    severity=Severity.WARNING,
    enforces="suppressions are removed when their finding is gone",
    rules=(),
    scope=Scope.PACKAGING,
)
