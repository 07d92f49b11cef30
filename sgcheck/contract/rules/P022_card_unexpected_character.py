"""A character that cannot start any word of the card language.

Outside quoted text a card uses letters, digits, ``_ . -``, the operators
``< <= > >= = != + * /``, braces and a colon; comments start with ``#``. Accented letters
and other symbols belong inside quotes (names and ``text``). Keywords, piece names and SP/LP are
ASCII letters: a look-alike such as ``ſ`` (U+017F) or a Cyrillic ``а`` is named with its code
point and the ASCII letter it imitates.

Fails: ``effect to_hit +10 €``, ``effect gain 2 ſP``. Passes: ``text "costs 10 €"``.
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
