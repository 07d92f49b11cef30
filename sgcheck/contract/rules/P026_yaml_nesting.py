"""The YAML file nests collections more than 64 levels deep. Cards need five or six
levels; very deep nesting only comes from generated or hostile files and could exhaust
the stack of tools that walk it, so sgcheck refuses it while reading.

Fails: ``[[[[...]]]]`` 10,000 levels deep. Passes: any card file.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.lang.cards.input_codes import YAML_NESTING

META = RuleMeta(
    code=YAML_NESTING.code,
    name="yaml-too-deep",
    severity=YAML_NESTING.severity,
    enforces="bounded YAML nesting",
    rules=(),
    scope=Scope.INPUT,
)
