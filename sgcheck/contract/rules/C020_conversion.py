"""A card changes the SP to LP conversion rate or its per-turn cap.

In Main 2 a player may convert SP into LP at 2 SP for 1 LP, at most 20 SP a turn
(core §2, R16). Core §8 names both numbers as untouchable: a ``set conversion.rate`` or
``set conversion.cap`` effect is reported, and so is a card that changes the rate without
naming it: a cost modifier on the conversion (``cost convert -1``: what a conversion costs
is its rate) or a conversion of its own at another rate (``convert 2 SP to 2 LP``). Replay
refuses such a card when it is played (SG-R123). SP given up for LP at a better rate by
other means (``lose 20 SP`` and ``gain 20 LP``) is SG-C022.

A conversion of its own at the core's rate that asks for more than 20 SP a turn (``convert 24
SP to 12 LP``, or ``convert 12 SP to 6 LP`` on an activated Relic, used twice a turn, R17) rewrites
the cap: replay converts no further than the 20 (R16), but the card asks past it, as a bonus past
a cap does.

Fails: ``effect set conversion.rate to 1``. Passes: ``effect gain 2 LP``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.card_edits import removal_fix
from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context, parameter_findings
from sgcheck.core.caps import CONVERSION_CAP_SP
from sgcheck.core.cards import model as A
from sgcheck.core.cards.semantics import at_core_rate, forbidden
from sgcheck.core.parameters import ParamFamily
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C020",
    name="conversion-rewrite",
    severity=Severity.ERROR,
    enforces="core §8: cards must not alter the SP->LP rate (2:1) or the 20 SP/turn conversion cap",
    rules=("core §2", "core §8", "R16"),
    scope=Scope.CARD,
)


def _uses_a_turn(card: A.Card, effect: A.Effect, ctx: CheckContext) -> int:
    """How often the effect can act in one turn: a use of an activated Relic up to the activations of
    a turn (R17) or its ``limit`` per turn; anything else once (a play, a trigger's one firing)."""
    if card.kind is not A.CardKind.RELIC or card.mode is not A.Mode.ACTIVATED or effect.trigger is not None:
        return 1
    limit = effect.limit
    if limit is not None:
        return min(ctx.activations, limit.times)
    return ctx.activations


def _past_the_cap(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect in card.effects:
        action = effect.action
        if not isinstance(action, A.ConvertResource) or not action.is_conversion or not at_core_rate(action):
            continue
        uses = _uses_a_turn(card, effect, ctx)
        asked = action.give * uses
        if asked <= CONVERSION_CAP_SP:
            continue
        times = f" ({uses} uses a turn, R17)" if uses > 1 else ""
        yield META.diagnostic(
            f"'{card.name}' asks to convert {asked} SP into LP in a turn{times}, past the {CONVERSION_CAP_SP} SP "
            "a turn the conversion allows",
            effect.span,
            hint="replay converts no further than the cap (R16); the card asks past it, which core §8 forbids",
            fix=removal_fix(effect, f"convert at most {CONVERSION_CAP_SP} SP a turn"),
            label="past the conversion cap",
            context=card_context(card),
        )


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from parameter_findings(card, ParamFamily.CONVERSION, META, "the conversion setting")
    yield from _past_the_cap(card, ctx)
    for effect in card.effects:
        if isinstance(effect.action, A.SetParameter):
            continue  # reported above, naming the number
        refused = forbidden(effect)
        if refused is None or refused[0] != META.code:
            continue
        yield META.diagnostic(
            f"'{card.name}' changes the conversion: {refused[1]}",
            effect.span,
            hint="the core converts 2 SP for 1 LP in Main 2, at most 20 SP a turn; no card may change either",
            fix=removal_fix(
                effect, "remove this effect; a card may gain LP, or give up SP for LP at 2 SP per LP or more"
            ),
            label="rewrites the conversion",
            context=card_context(card),
        )
