"""The YAML file cannot be read: a syntax error, a key given twice in one mapping, a
second document, a collection used as a key, or a tag that would construct a Python
object (``!!python/...``); sgcheck only ever loads plain data. The position is where the
YAML parser stopped.

Fails: ``cards: [ {name: X``. Passes: ``cards: []``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.lang.cards.input_codes import YAML_SYNTAX

META = RuleMeta(
    code=YAML_SYNTAX.code,
    name="yaml-syntax-error",
    severity=YAML_SYNTAX.severity,
    enforces="YAML 1.2, loaded safely",
    rules=(),
    scope=Scope.INPUT,
)
