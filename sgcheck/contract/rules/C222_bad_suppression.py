"""A comment starting with ``sgcheck:`` cannot be understood: it is neither
``ignore CODE[, CODE] -- reason`` nor ``ignore-file CODE -- reason``, names no code, or
names a code that does not exist or cannot be suppressed (syntax errors and the
suppression findings themselves).

Fails: ``# sgcheck: ignore SG-C999 -- typo``. Passes: ``# sgcheck: ignore SG-C120 -- ...``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C222",
    name="malformed-suppression",
    severity=Severity.WARNING,
    enforces="suppressions name codes that exist",
    rules=(),
    scope=Scope.PACKAGING,
)
