"""A YAML card does not match the card schema (``sgcheck schema`` prints it): an unknown
key, a missing required key, a value of the wrong type or outside its list, an effect
with no action or two actions, a condition with more than one key. The position is the
YAML line:col of the offending value (or key); only that card is skipped.

Fails: ``- {name: X, kind: spel}``. Passes: ``- {name: X, kind: spell, cost: 1}``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.lang.cards.input_codes import SCHEMA_ERROR

META = RuleMeta(
    code=SCHEMA_ERROR.code,
    name="card-schema-error",
    severity=SCHEMA_ERROR.severity,
    enforces="schemas/card.schema.json (JSON Schema Draft 2020-12)",
    rules=(),
    scope=Scope.INPUT,
)
