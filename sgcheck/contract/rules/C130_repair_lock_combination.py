"""Cards that together deny repair on consecutive turns.

Each of these cards denies the opponent's Gem repair for a single turn, which is legal
on its own (SG-C040). Held together (a hand holds 3, R19) they let one player deny
repair on two turns in a row with their own effects, which core §8 forbids, and the
runtime cannot clamp it. Reported as a warning naming the pair; make one of them
unusable right after the other (a use limit per game on both, or merge them).

Fails: two spells with ``effect deny repair this turn``. Passes: one such spell.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C130",
    name="repair-lock-combination",
    severity=Severity.WARNING,
    enforces="core §8: no repair denial on consecutive turns by the same player's effects (also in combination)",
    rules=("core §6", "core §8", "R19"),
    scope=Scope.PACK,
)


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    deniers = pack.facts.repair_deniers
    if len(deniers) < 2:
        return
    (first, _), (second, effect) = deniers[0], deniers[1]
    others = len(deniers) - 2
    more = f" (and {others} more card(s) like them)" if others else ""
    yield META.diagnostic(
        f"'{first.name}' and '{second.name}' can deny repair on consecutive turns when held together{more}",
        effect.span,
        hint="one denial per player per two turns: limit these cards per game, or keep only one in the pack",
        fix=Fix(f"merge '{first.name}' and '{second.name}' into one card"),
        label="second repair denial",
        context=(("first denial", f"'{first.name}' at {first.span}"), ("cards that deny repair", str(len(deniers)))),
    )
