"""The manifest's ``ruleset`` is not a profile sgcheck understands. A profile is ``core``
optionally followed by table choices: ``core; king_value=3; income=all`` (R09, R14).

Fails: ``ruleset: chess960``. Passes: ``ruleset: core``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C205",
    name="bad-ruleset",
    severity=Severity.ERROR,
    enforces="a pack names a ruleset profile sgcheck knows",
    rules=(
        "core §8",
        "R09",
        "R14",
    ),
    scope=Scope.PACKAGING,
)
