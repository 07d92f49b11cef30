"""The pack's ruleset switches on a table choice (a house rule). Games with it are no
longer core-compatible; the finding names the core §8 item it breaks: a King value
(R09) changes piece values, counting every piece for Gem income (R14) gives unbounded
early SP.

Fails: ``ruleset: core; king_value=3``. Passes: ``ruleset: core``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C206",
    name="house-rule",
    severity=Severity.WARNING,
    enforces="core §8: a pack's ruleset stays core-compatible",
    rules=(
        "core §8",
        "R09",
        "R14",
    ),
    scope=Scope.PACKAGING,
)
