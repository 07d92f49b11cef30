"""A card file (``*.sgcard``, ``*.sgcard.yaml``) sits in the pack folder but the manifest
does not list it, so its cards are not part of the pack and are not checked with it.
List it, or move it out of the pack.

Fails: ``extra.sgcard`` next to a manifest that lists only ``cards.sgcard``. Passes: both listed.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C204",
    name="unlisted-card-file",
    severity=Severity.WARNING,
    enforces="every card file of a pack is listed in its manifest",
    rules=(),
    scope=Scope.PACKAGING,
)
