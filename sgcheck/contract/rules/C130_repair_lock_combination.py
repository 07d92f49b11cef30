"""Cards that together deny repair on consecutive turns.

Each of these cards denies the opponent's Gem repair for a single turn, which is legal
on its own (SG-C040). Held together (a hand holds 3, R19) they let one player deny
repair on two turns in a row with their own effects, which core §8 says cards *must not*
do, and the runtime cannot clamp it. It is an error whatever the number of cards and
however each is worded (a spell, a once-per-game relic, a condition): two one-turn
denials in one pack are enough. The finding names the first two and counts the others;
keep one of them in the pack, or merge them into one card.

Two cards one player cannot hold together are kept apart: a draft that keeps a single card (R19,
a pack's `draft: {keep: 1}`) gives each player one of them at most, and cards are never drawn
again; a market's deck is judged on its own (SG-C130 counts its copies, see module_contract).

A denial that ends with its holder's own turn (``this turn``) refuses no Repair, since repairs
are made in the opponent's Upkeep, and is not counted.

Fails: two spells with ``effect deny repair for 1 turn``. Passes: one such spell.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C130",
    name="repair-lock-combination",
    severity=Severity.ERROR,
    enforces="core §8: no repair denial on consecutive turns by the same player's effects (also in combination)",
    rules=("core §6", "core §8", "R19"),
    scope=Scope.PACK,
)


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    deniers = pack.facts.repair_deniers
    if len(deniers) < 2 or ctx.held < 2:  # one player never holds two of the pack's cards
        return
    (first, _), (second, effect) = deniers[0], deniers[1]
    others = len(deniers) - 2
    more = f" (and {others} more card(s) like them)" if others else ""
    yield META.diagnostic(
        f"'{first.name}' and '{second.name}' can deny repair on consecutive turns when held together{more}",
        effect.span,
        hint="a one-turn denial on each of two turns in a row is a denial on consecutive turns, however many "
        "uses each card has left; one card that denies repair per pack keeps them apart",
        fix=Fix(f"merge '{first.name}' and '{second.name}' into one card"),
        label="second repair denial",
        context=(("first denial", f"'{first.name}' at {first.span}"), ("cards that deny repair", str(len(deniers)))),
    )
