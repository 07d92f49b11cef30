"""A suppression comment gives no reason. Write it as
``# sgcheck: ignore SG-C092 -- why this card may be free``: the text after ``--`` is the
reason reviewers read. A suppression without a reason is not applied.

Fails: ``# sgcheck: ignore SG-C092``. Passes: ``# sgcheck: ignore SG-C092 -- starter card``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C220",
    name="suppression-without-reason",
    severity=Severity.WARNING,
    enforces="every suppression explains itself",
    rules=(),
    scope=Scope.PACKAGING,
)
