"""The file holds no cards: it is empty, only comments, or ``cards: []``. Nothing is
checked, which in CI usually means a wrong path or an unsaved file.

Fails: an empty ``.sgcard`` file. Passes: a file with one card.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.lang.cards.input_codes import NO_CARDS

META = RuleMeta(
    code=NO_CARDS.code,
    name="no-cards",
    severity=NO_CARDS.severity,
    enforces="a card file contains cards",
    rules=(),
    scope=Scope.INPUT,
)
