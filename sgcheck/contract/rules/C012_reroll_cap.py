"""A card gives more than one reroll or advantage source to one accuracy roll.

Core §4.5 allows at most one advantage or reroll source on a single accuracy roll and
core §8 forbids bypassing that. A card that rerolls twice (``reroll accuracy 2 times``),
or carries two reroll/advantage effects that can apply to the same roll, or rewrites
``cap.reroll``, is reported; so is one that each use of an activated Relic or each firing of a
trigger starts again while the earlier copy still acts (``reroll accuracy permanently`` on an
activated Relic: two sources at the second use, R17). Two cards that each give one source are
SG-C120.

Fails: ``effect reroll accuracy 2 times``. Passes: ``effect advantage this attack``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import cap_findings
from sgcheck.core.caps import REROLL_SOURCES_CAP
from sgcheck.core.cards.attack_parts import AttackKind
from sgcheck.core.cards.model import Card
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C012",
    name="reroll-cap",
    severity=Severity.ERROR,
    enforces=f"core §4.5 cap: at most {REROLL_SOURCES_CAP} reroll or advantage source per accuracy roll",
    rules=("core §4.5", "core §8"),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from cap_findings(card, AttackKind.REROLL, REROLL_SOURCES_CAP, META, "cap.reroll", ctx)
