"""A card stops before it is complete.

Usually the closing ``}`` is missing, or an effect stops half-way (``effect to_hit``). The
position is where the card ends; the hint lists what could have come next. The file may
also have been cut off.

Fails: ``spell "Soul Drain" { cost 3 SP``. Passes: the same card closed with ``}``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.lang.cards.input_codes import UNEXPECTED_END

META = RuleMeta(
    code=UNEXPECTED_END.code,
    name="card-unexpected-end",
    severity=UNEXPECTED_END.severity,
    enforces="the .sgcard grammar (docs/cards.md)",
    rules=(),
    scope=Scope.INPUT,
)
