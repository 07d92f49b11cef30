"""Two cards share a name.

Game logs and drafts name cards (``draft white "Soul Ward" ...``), so a pack whose cards
share a name (compared without regard to case or spacing) is ambiguous: replay cannot
tell which card was played. Every card after the first with a given name is reported,
pointing back at the first.

Fails: two cards called "Soul Ward". Passes: "Soul Ward" and "Soul Ward II".
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.core.cards.model import Card
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C140",
    name="duplicate-card-name",
    severity=Severity.ERROR,
    enforces="degenerate design: every card of a pack has its own name (R19 drafts and logs name cards)",
    rules=("R19",),
    scope=Scope.PACK,
)


def name_key(name: str) -> str:
    return " ".join(name.casefold().split())


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    first_seen: dict[str, Card] = {}
    for card in pack.cards:
        key = name_key(card.name)
        original = first_seen.setdefault(key, card)
        if original is card:
            continue
        yield META.diagnostic(
            f"card name '{card.name}' is already used by the card at {original.name_span}",
            card.name_span,
            fix=Fix("rename one of the cards"),
            label="duplicate name",
            context=(("first card", f"{original.name_span}"),),
        )
