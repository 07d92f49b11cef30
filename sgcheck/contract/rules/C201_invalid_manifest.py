"""The pack manifest (``sgpack.yaml``) does not match the pack schema: a missing name,
version or card list, a key sgcheck does not know, a value of the wrong type. Without a
valid manifest the pack's cards cannot be located, so nothing else of the pack is
checked.

Fails: a manifest without ``cards``. Passes: ``{name: demo, version: 1.0.0, cards: [cards.sgcard]}``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C201",
    name="invalid-manifest",
    severity=Severity.ERROR,
    enforces="schemas/pack.schema.json",
    rules=(),
    scope=Scope.PACKAGING,
)
