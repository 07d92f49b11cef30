"""The syntax is fine but the card is not: a clause given twice (two ``cost`` clauses), a
spell declared passive or a relic declared instant, an unknown core parameter in a
``set`` effect, a number with more than 9 digits, a division by 0, a duration or use
limit of 0, or an effect with two triggers. Both card formats report these the same way.

Fails: ``spell "X" passive { cost 1 SP }``. Passes: ``relic "X" passive { cost 1 SP }``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.lang.cards.input_codes import CARD_STRUCTURE

META = RuleMeta(
    code=CARD_STRUCTURE.code,
    name="card-structure",
    severity=CARD_STRUCTURE.severity,
    enforces="the card model (docs/cards.md)",
    rules=(),
    scope=Scope.INPUT,
)
