"""A character that cannot start any word of the card language.

Outside quoted text a card uses letters, digits, ``_ . -``, the operators
``< <= > >= = != + * /``, braces and a colon; comments start with ``#``. Accented letters
and other symbols belong inside quotes (names and ``text``).

Fails: ``effect to_hit +10 €``. Passes: ``text "costs 10 €"``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.lang.cards.input_codes import UNEXPECTED_CHARACTER

META = RuleMeta(
    code=UNEXPECTED_CHARACTER.code,
    name="card-unexpected-character",
    severity=UNEXPECTED_CHARACTER.severity,
    enforces="the .sgcard grammar (docs/cards.md)",
    rules=(),
    scope=Scope.INPUT,
)
