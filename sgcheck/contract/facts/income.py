"""SP and LP: a gain that is Soul Gem income under another name (core §6, §8), and the effects
whose resources count in an exchange (core §2, §8, R16)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.conditions import impossible_reason
from sgcheck.contract.facts.timing import phase_words
from sgcheck.core.cards import model as A
from sgcheck.core.cards.semantics import forbidden
from sgcheck.core.parameters import PARAMETERS
from sgcheck.core.windows import card_window

#: Predicates about an attack or a move; at the start of a phase none of them holds.
_ACTION_PREDICATES = (A.PieceIs, A.DistanceIs, A.InCamp)


@dataclass(frozen=True, slots=True)
class Income:
    """A gain that recurs every turn, counted on the holder's own Gem: Soul Gem income again."""

    effect: A.Effect
    amount: str  # "2 SP per piece in own gem"
    when: str  # "at the start of every Upkeep", "at each use (Upkeep)"
    while_broken: bool  # it pays while the holder's Gem is broken, when core §6 pays nothing


def second_income(card: A.Card, effect: A.Effect, ctx: CheckContext) -> Income | None:
    """Whether ``effect`` pays its holder again and again by the pieces in their own Gem.

    The core pays income at each Upkeep, 2 x the value of the pieces in the holder's Gem
    (core §6, R14). A Relic that gains per piece in the holder's own Gem at the start of a
    phase of every turn, or at each use of an activated Relic, pays it a second time under
    another name, whatever the phase and however the Gem is counted. Left out: a Spell or a
    passive Relic's one-off gain (once a game), a gain on an event (a reward), a fixed amount,
    a ``limit`` per game, and a condition that cannot hold then (one about an attack).
    """
    action = effect.action
    gains = isinstance(action, A.ResourceChange) and action.gain and action.who is A.Side.OWN
    if not (gains or isinstance(action, A.Steal)):
        return None
    assert isinstance(action, (A.ResourceChange, A.Steal))
    quantity = action.quantity
    if quantity.kind is not A.QuantityKind.PER or quantity.per is not A.Countable.OWN_GEM:
        return None
    if card.kind is not A.CardKind.RELIC:
        return None
    trigger = effect.trigger
    limits: tuple[A.Effect, ...] = (effect,)
    if trigger is None:
        if card.mode is not A.Mode.ACTIVATED:
            return None
        limits = card.effects
        when = f"at each use ({phase_words(card_window(card))})"
    elif trigger.event is A.Event.PHASE and trigger.phase is not None:
        when = f"at the start of every {phase_words(trigger.phase.phases)}"
    else:
        return None
    if any(e.limit is not None and e.limit.period is A.Period.GAME for e in limits):
        return None
    condition = effect.condition
    predicates = condition.predicates if condition is not None else ()
    if impossible_reason(effect, ctx) is not None or any(isinstance(p, _ACTION_PREDICATES) for p in predicates):
        return None
    broken = any(isinstance(p, A.GemIs) and p.side is A.Side.OWN and p.broken for p in predicates)
    words = f"{quantity.value} {quantity.resource.value} per {quantity.per.value}"
    return Income(effect, words, when, broken)


#: What the core's Soul Gem income is (core §6), as the parameter table says it.
INCOME = PARAMETERS["income.rate"]


# --- conversions (core §2, §8, R16) ------------------------------------------------------------------


def exchange_acts(ctx: CheckContext) -> Callable[[A.Effect], bool]:
    """The effects whose resources count in an exchange: those whose condition can hold, and not a
    conversion at another rate than the core's, which is SG-C020's (it is refused in play)."""

    def acts(effect: A.Effect) -> bool:
        if impossible_reason(effect, ctx) is not None:
            return False
        refused = forbidden(effect)
        return refused is None or refused[0] != "SG-C020"

    return acts
