"""A card damages, captures or converts a King directly.

Relic Spells cannot capture the King directly; they may only change the conditions of
attacks on it, within the caps (guide draft rules, R19). A ``deal ... damage``,
``capture`` or ``convert`` effect whose target includes a King (``enemy King``, or
``enemy pieces``, which covers the King) is reported. Bonuses to attacks against the
King (``damage +1 when target is King``) are fine: they stay inside core §4.5.

On-hit damage confined to hits on the King (``on hit: deal 1 damage to enemy King when
target is King``) is not direct: it adds to the hit on the King and never acts outside an
attack on it (R23), so it counts toward the +2 damage per hit (SG-C011, SG-C120, SG-C152),
which judge it there. Without that condition (``on hit: deal 1 damage to enemy King``), a
hit on any piece damages the King, outside any attack on it: reported here.

Fails: ``effect deal 2 damage to enemy King``. Passes: ``effect deal 1 damage to enemy Pawn``;
``effect on hit: deal 1 damage to enemy King when target is King``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import part_of_hit
from sgcheck.core.pieces import Kind
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C060",
    name="king-direct-damage",
    severity=Severity.ERROR,
    enforces="R19: no card effect may damage, capture or convert the King directly",
    rules=("core §4.4", "R19"),
    scope=Scope.CARD,
)


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect in card.effects:
        action = effect.action
        if not isinstance(action, (A.DealDamage, A.CapturePiece, A.ConvertPiece)):
            continue
        if not action.target.includes_king or part_of_hit(effect):
            continue  # on-hit damage is part of the attack it comes with (R23): the damage cap judges it
        verb = {A.DealDamage: "damages", A.CapturePiece: "captures", A.ConvertPiece: "converts"}[type(action)]
        covers = "" if action.target.kinds == {Kind.KING} else f" ('{action.target.word}' includes the King)"
        yield META.diagnostic(
            f"'{card.name}' {verb} a King directly{covers}",
            effect.span,
            hint="a card may only change attacks on the King, within the caps (e.g. 'damage +1 when target is King')",
            fix=Fix("target a piece other than the King, or turn it into an attack bonus"),
            label="direct King damage",
            context=card_context(card),
        )
