"""The card text does not follow the card language at this point.

The message names what was found and what could come next; for common mistakes it
says what is wrong in plain words (a name without quotes, a trigger without its colon,
a modifier without a number). Only the card holding the error is skipped: every other
card of the file is still checked. The grammar is ``grammar/sgcard.lark`` and the
language reference is docs/cards.md.

Fails: ``relic Soul Ward { cost 3 SP }``. Passes: ``relic "Soul Ward" { cost 3 SP }``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.lang.cards.input_codes import SYNTAX_ERROR

META = RuleMeta(
    code=SYNTAX_ERROR.code,
    name="card-syntax-error",
    severity=SYNTAX_ERROR.severity,
    enforces="the .sgcard grammar (docs/cards.md)",
    rules=(),
    scope=Scope.INPUT,
)
