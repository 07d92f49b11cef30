"""The YAML file nests collections more than 64 levels deep. Cards need five or six
levels; very deep nesting only comes from generated or hostile files and could exhaust
the stack of tools that walk it, so sgcheck refuses it while reading.

Fails: ``[[[[...]]]]`` 10,000 levels deep. Passes: any card file.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-P026",
    name="yaml-too-deep",
    severity=Severity.ERROR,
    enforces="bounded YAML nesting",
    rules=(),
    scope=Scope.INPUT,
)
