"""The manifest lists a card file that does not exist (or is a folder). Check the
spelling and the path relative to the manifest.

Fails: ``cards: [missing.sgcard]``. Passes: a path to an existing file.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C203",
    name="missing-card-file",
    severity=Severity.ERROR,
    enforces="every card file listed by a manifest exists",
    rules=(),
    scope=Scope.PACKAGING,
)
