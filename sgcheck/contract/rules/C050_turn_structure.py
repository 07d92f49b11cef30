"""A card changes the turn structure.

A turn runs Upkeep, Main 1, Battle, Main 2, End, in that order, and each action has its
window: Summon, Break and Repair in Upkeep, moves in the Main phases, attacks in
Battle, Teleport at End (core §2, §5, R03). Core §8 forbids changing that structure.
Reported: an extra phase ("take an extra Movement Phase") or a whole extra turn, skipping
or swapping phases, and an extra action granted in a phase where that action is not allowed
(an attack in Main 1 moves attacks out of Battle). Extra actions *inside* their own phase
(an extra attack in Battle) are allowed: they do not change the structure (RULINGS note on §8).

The back door is reported too: an extra action granted, for this turn only, into a phase that
is already over whenever the effect fires, since phases come strictly in order and a passed
phase cannot be re-entered (R03). The checker works out when each effect fires: a Spell when
it is played, in the phase it names; an activated Relic's effect at each use, in its phase
(Main 1 or Main 2 when it names none, R22); a trigger at the start of its phase, or at its
event (``on hit:`` in Battle, ``on move:`` in a Main phase, ``on summon:`` in Upkeep). So a
Spell played in Main 2 that grants an attack in Battle, and ``at battle: extra move in
main1``, would take the turn back. An extra action for the phase the effect fires in, or one
still to come (``at upkeep: extra move in main1``), or one that lasts into the next turn
(``for 2 turns``), keeps the structure.

Fails: ``effect extra phase movement``. Passes: ``effect extra move in main2``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_never

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import CardFacts
from sgcheck.contract.facts.timing import Grant, phase_words
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards import model as A
from sgcheck.core.windows import EXTRA_WINDOWS
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C050",
    name="turn-structure",
    severity=Severity.ERROR,
    enforces="core §8: cards must not change the turn structure ordering",
    rules=("core §2", "core §8", "R03"),
    scope=Scope.CARD,
)

_HINT = (
    "an extra action inside an existing phase is allowed; a new, skipped or reordered phase is not "
    "(RULINGS note on core §8)"
)


def _problem(action: A.Action) -> tuple[str, str] | None:
    match action:
        case A.ExtraPhase():
            where = f" after {action.after.word}" if action.after else ""
            return (
                f"adds a whole '{action.name}' phase{where} to the turn",
                "grant extra actions inside a phase instead",
            )
        case A.ExtraTurn():
            return "adds a whole turn for its holder", "grant extra actions inside a phase of this turn instead"
        case A.SkipPhase():
            return f"skips the {action.phase.word} phase", "phases can be left empty but never removed"
        case A.SwapPhases():
            return f"swaps {action.first.word} and {action.second.word}", "the phase order is fixed"
        case A.ExtraAction():
            return _extra_outside_window(action)
        case (
            A.CostModifier()
            | A.ToHitModifier()
            | A.DamageModifier()
            | A.DamageReduction()
            | A.Reroll()
            | A.ResourceChange()
            | A.Steal()
            | A.ConvertResource()
            | A.SetParameter()
            | A.DenyRepair()
            | A.DealDamage()
            | A.CapturePiece()
            | A.ConvertPiece()
        ):
            return None  # changes nothing of the turn's structure
        case _:
            assert_never(action)


def _extra_outside_window(action: A.ExtraAction) -> tuple[str, str] | None:
    if action.phase is not None and action.action in EXTRA_WINDOWS:
        allowed = EXTRA_WINDOWS[action.action]
        wrong = [p for p in action.phase.phases if p not in allowed]
        if wrong:
            return (
                f"grants an extra {action.action.value} in {action.phase.word}, outside its window "
                f"({', '.join(p.title for p in allowed)})",
                f"grant the extra {action.action.value} in {allowed[0].title.lower().replace(' ', '')}",
            )
    return None


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect in card.effects:
        found = _problem(effect.action)
        if found is not None:
            problem, advice = found
            yield META.diagnostic(
                f"'{card.name}' {problem}",
                effect.span,
                hint=_HINT,
                fix=Fix(advice),
                label="changes the turn structure",
                context=card_context(card),
            )
    for grant in CardFacts(card, ctx).grants:
        if grant.goes_back:
            yield _back_door(card, grant)


def _back_door(card: A.Card, grant: Grant) -> Diagnostic:
    kind = grant.action.action.value
    article = "an" if kind[0] in "aeiou" else "a"
    into = phase_words(grant.into)
    over = "is" if len(grant.into) == 1 else "are"
    ahead = grant.ahead
    if ahead:
        word = ahead[0].title.lower().replace(" ", "")
        advice = f"grant the extra {kind} in {word}, still to come when it fires, or let it last into the next turn"
    else:
        advice = f"let the extra {kind} last into the next turn ('for 2 turns'), or grant it when {into} is to come"
    return META.diagnostic(
        f"'{card.name}' {grant.timing.words}, grants {article} {kind} in {into}, which {over} already over: "
        "the turn would go back",
        grant.effect.span,
        rules=(*META.rules, "R22") if grant.effect.trigger is None else META.rules,
        hint="phases come strictly in order and a passed phase cannot be re-entered (R03); an extra action "
        "may be granted for the phase its effect fires in or one still to come",
        fix=Fix(advice),
        label="grants into a phase already over",
        context=(*card_context(card), ("fires in", phase_words(grant.timing.phases)), ("grants into", into)),
    )
