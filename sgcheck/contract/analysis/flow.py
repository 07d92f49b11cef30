"""How effects feed triggers: the events an effect causes, and what each firing costs.

Events are seen from the card holder: ``(SELF, Event.CAPTURE)`` is "you captured",
``(OTHER, Event.CAPTURED)`` is "one of the opponent's pieces was captured", which fires
the opponent's ``on captured`` cards. An extra attack causes hits, misses, captures,
capture rewards (SP) and payments; stealing causes your gain and their loss; and so on.
A step (one firing of a triggered effect) is *bounded* when something outside the loop
limits it: a spell is discarded, a use of an activated relic spends one of the 2
activations a turn (R17; its triggers fire on every event, as a passive relic's do), a use
limit, or a real price in LP/SP. A loop made only of free steps never
ends (core §8: no infinite loops).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from sgcheck.core.cards import model as A
from sgcheck.core.pieces import Phase
from sgcheck.lang.cards.vocab import PHASE_WORDS, resource_event

SELF, OTHER = 0, 1
EventKey = tuple[A.Event, Phase | None]

_PAYMENT = ((SELF, (A.Event.LOSE_SP, None)), (SELF, (A.Event.LOSE_LP, None)))
_ATTACK_EVENTS = (
    (SELF, (A.Event.HIT, None)),
    (SELF, (A.Event.MISS, None)),
    (SELF, (A.Event.CAPTURE, None)),
    (SELF, (A.Event.GAIN_SP, None)),  # the capture reward, core §4.3
    (OTHER, (A.Event.ATTACKED, None)),
    (OTHER, (A.Event.CAPTURED, None)),
)
_CAPTURE_EVENTS = (
    (SELF, (A.Event.CAPTURE, None)),
    (SELF, (A.Event.GAIN_SP, None)),
    (OTHER, (A.Event.CAPTURED, None)),
)
_EXTRA_EVENTS = {
    A.ExtraKind.MOVE: ((SELF, (A.Event.MOVE, None)), *_PAYMENT),
    A.ExtraKind.ATTACK: (*_ATTACK_EVENTS, *_PAYMENT),
    A.ExtraKind.SUMMON: ((SELF, (A.Event.SUMMON, None)), *_PAYMENT),
    A.ExtraKind.TELEPORT: ((SELF, (A.Event.TELEPORT, None)), *_PAYMENT),
    A.ExtraKind.BREAK: _PAYMENT,
    A.ExtraKind.REPAIR: _PAYMENT,
    A.ExtraKind.ACTIVATION: (),
}


def listens(effect: A.Effect) -> tuple[EventKey, ...]:
    """The events that fire ``effect`` (none if it has no trigger)."""
    trigger = effect.trigger
    if trigger is None:
        return ()
    if trigger.event is A.Event.PHASE and trigger.phase is not None:
        return tuple((A.Event.PHASE, phase) for phase in trigger.phase.phases)
    return ((trigger.event, None),)


def _amount_positive(quantity: A.Quantity) -> bool:
    return quantity.kind is not A.QuantityKind.FIXED or quantity.value > 0


def causes(effect: A.Effect) -> tuple[tuple[int, EventKey], ...]:
    """The events firing ``effect`` causes, each for SELF (the holder) or OTHER (the opponent)."""
    action = effect.action
    found: list[tuple[int, EventKey]] = []
    match action:
        case A.ResourceChange():
            if _amount_positive(action.quantity):
                side = SELF if action.who is A.Side.OWN else OTHER
                found.append((side, (resource_event(action.gain, action.quantity.resource), None)))
        case A.Steal():
            if _amount_positive(action.quantity):
                found.append((SELF, (resource_event(True, action.quantity.resource), None)))
                found.append((OTHER, (resource_event(False, action.quantity.resource), None)))
        case A.ExtraAction():
            found.extend(_EXTRA_EVENTS[action.action])
        case A.DealDamage() | A.CapturePiece() | A.ConvertPiece():
            if action.target.side is A.Side.ENEMY:
                found.extend(_CAPTURE_EVENTS)
        case A.ExtraPhase():
            found.extend((SELF, (A.Event.PHASE, phase)) for phase in PHASE_WORDS.get(action.name, ()))
        case (
            A.CostModifier()
            | A.ToHitModifier()
            | A.DamageModifier()
            | A.DamageReduction()
            | A.Reroll()
            | A.ExtraTurn()
            | A.ConvertResource()
            | A.SkipPhase()
            | A.SwapPhases()
            | A.SetParameter()
            | A.DenyRepair()
        ):
            pass  # causes no event of its own
        case _:
            assert_never(action)
    trigger = effect.trigger
    if trigger is not None and trigger.pay is not None:
        found.extend(_payment_events(trigger.pay))
    return tuple(found)


def _payment_events(cost: A.Cost) -> tuple[tuple[int, EventKey], ...]:
    if any(item.resource is None for item in cost.items):
        return _PAYMENT
    return tuple((SELF, (resource_event(False, item.resource), None)) for item in cost.items if item.resource)


@dataclass(frozen=True, slots=True)
class Step:
    """One triggered effect of one card, as a link in a chain."""

    card: A.Card
    effect: A.Effect
    bounded: bool
    why: str

    def describe(self) -> str:
        trigger = self.effect.trigger.label if self.effect.trigger else "when played"
        return f'"{self.card.name}" ({trigger}, {_action_word(self.effect.action)}): {self.why}'


def step_of(card: A.Card, effect: A.Effect) -> Step:
    """Whether one firing of ``effect`` is limited by something outside the loop, and how."""
    if card.mode is A.Mode.INSTANT:
        return Step(card, effect, True, "single use (the spell is discarded)")
    # an activated Relic's triggers are set up when it is played and fire on every event, as a
    # passive Relic's do (docs/cards.md): its 2 uses a turn (R17) bound its uses, not its triggers
    if effect.limit is not None:
        return Step(card, effect, True, f"limited to {effect.limit.times} per {effect.limit.period.value}")
    action = effect.action
    if isinstance(action, A.ExtraAction) and action.action not in (A.ExtraKind.ACTIVATION,):
        return Step(card, effect, True, f"each extra {action.action.value} costs LP/SP as usual")
    pay = effect.trigger.pay if effect.trigger is not None else None
    if pay is not None and pay.total > 0:
        return Step(card, effect, True, f"costs {pay.total} {_resources(pay)} each time")
    return Step(card, effect, False, "free")


def _resources(cost: A.Cost) -> str:
    kinds = {item.resource.value for item in cost.items if item.resource is not None}
    return "/".join(sorted(kinds)) if len(kinds) == 1 and all(i.resource for i in cost.items) else "LP/SP"


def _action_word(action: A.Action) -> str:
    match action:
        case A.ResourceChange():
            verb = "gain" if action.gain else "lose"
            who = "opponent " if action.who is A.Side.ENEMY else ""
            return f"{who}{verb} {_quantity_word(action.quantity)}"
        case A.Steal():
            return f"steal {_quantity_word(action.quantity)}"
        case A.ExtraAction():
            return f"extra {action.action.value}"
        case A.ExtraPhase():
            return f"extra phase {action.name}"
        case A.DealDamage():
            return f"deal {action.amount} damage to {action.target.word}"
        case A.CapturePiece() | A.ConvertPiece():
            verb = "capture" if isinstance(action, A.CapturePiece) else "convert"
            return f"{verb} {action.target.word}"
        case (
            A.CostModifier()
            | A.ToHitModifier()
            | A.DamageModifier()
            | A.DamageReduction()
            | A.Reroll()
            | A.ExtraTurn()
            | A.ConvertResource()
            | A.SkipPhase()
            | A.SwapPhases()
            | A.SetParameter()
            | A.DenyRepair()
        ):
            return type(action).__name__  # causes no event (causes): never a step of a chain
        case _:
            assert_never(action)


def _quantity_word(quantity: A.Quantity) -> str:
    resource = quantity.resource.value
    if quantity.kind is A.QuantityKind.FIXED:
        return f"{quantity.value} {resource}"
    if quantity.kind is A.QuantityKind.PER:
        return f"{quantity.value} {resource} per {quantity.per.value if quantity.per else '?'}"
    if quantity.kind is A.QuantityKind.UNLIMITED:
        return f"unlimited {resource}"
    scale = f"{quantity.scale_side.value if quantity.scale_side else ''} "
    scale += quantity.scale_resource.value if quantity.scale_resource else ""
    return f"{resource} equal to {scale}"
