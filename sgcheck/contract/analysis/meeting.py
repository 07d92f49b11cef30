"""Which cards can meet in a game: what each card is about, and the combinations worth playing.

The contract's explorer (:mod:`sgcheck.contract.analysis.explore`) plays each card alone and with
the cards it *meets*: one sends what the other hears (a resource gained or lost and a trigger on
it, an action made cheaper or granted and a trigger on it, SP taken and LP given, two denials of
repair, shields on one piece, the attacker's and the defender's modifiers of one attack). Cards
that share nothing cannot change what the other does, so they are never played together, and
the work grows with the cards, not with their pairs. :func:`topics` says which actions a card's
effects are about, so the search tries only those.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import assert_never

from sgcheck.core import caps
from sgcheck.core.cards import model as A
from sgcheck.core.cards.compounding import link
from sgcheck.core.cards.parts import CostKind, Event, ExtraKind
from sgcheck.core.record import pickle_by_fields

# --- what a combination of cards can matter to -----------------------------------------------------


class Topic(Enum):
    MOVE = "move"
    ATTACK = "attack"
    GEM = "gem"
    SUMMON = "summon"
    TELEPORT = "teleport"
    REROLL = "reroll"
    RESOURCES = "resources"
    KING = "king"
    OPPONENT = "opponent"  # acts on the other player, or on the attacks made on its holder


_EVENT_TOPICS = {
    Event.MOVE: Topic.MOVE,
    Event.HIT: Topic.ATTACK,
    Event.MISS: Topic.ATTACK,
    Event.CAPTURE: Topic.ATTACK,
    Event.CAPTURED: Topic.ATTACK,
    Event.ATTACKED: Topic.ATTACK,
    Event.SUMMON: Topic.SUMMON,
    Event.TELEPORT: Topic.TELEPORT,
}
_COST_TOPICS = {
    CostKind.MOVE: (Topic.MOVE,),
    CostKind.ATTACK: (Topic.ATTACK,),
    CostKind.DISTANCE: (Topic.MOVE, Topic.ATTACK, Topic.SUMMON, Topic.TELEPORT),
    CostKind.SUMMON: (Topic.SUMMON,),
    CostKind.TELEPORT: (Topic.TELEPORT,),
    CostKind.BREAK: (Topic.GEM,),
    CostKind.REPAIR: (Topic.GEM,),
}
_EXTRA_TOPICS = {
    ExtraKind.MOVE: Topic.MOVE,
    ExtraKind.ATTACK: Topic.ATTACK,
    ExtraKind.SUMMON: Topic.SUMMON,
    ExtraKind.TELEPORT: Topic.TELEPORT,
    ExtraKind.BREAK: Topic.GEM,
    ExtraKind.REPAIR: Topic.GEM,
}


def topics(card: A.Card) -> frozenset[Topic]:
    """What a card's effects price, trigger on, grant or change: the actions worth playing with it."""
    out: set[Topic] = set()
    for effect in card.effects:
        trigger = effect.trigger
        if trigger is not None:
            topic = _EVENT_TOPICS.get(trigger.event)
            if topic is not None:
                out.add(topic)
            if trigger.event in (Event.GAIN_SP, Event.GAIN_LP, Event.LOSE_SP, Event.LOSE_LP) or trigger.pay:
                out.add(Topic.RESOURCES)
        for p in effect.condition.predicates if effect.condition is not None else ():
            if isinstance(p, A.GemIs):
                out.add(Topic.GEM)
            elif isinstance(p, A.PieceIs | A.DistanceIs | A.InCamp):
                out.update((Topic.MOVE, Topic.ATTACK))
        action = effect.action
        if _on_opponent(effect):
            out.add(Topic.OPPONENT)
        match action:
            case A.CostModifier():
                out.update(_COST_TOPICS.get(action.cost, ()))
                if action.only is not None:
                    out.update(_COST_TOPICS.get(action.only, ()))
            case A.ToHitModifier() | A.DamageModifier() | A.DamageReduction():
                out.add(Topic.ATTACK)
            case A.Reroll():
                out.update((Topic.ATTACK, Topic.REROLL))
            case A.ResourceChange() | A.Steal() | A.ConvertResource():
                out.add(Topic.RESOURCES)
            case A.ExtraAction():
                topic = _EXTRA_TOPICS.get(action.action)
                if topic is not None:
                    out.add(topic)
            case A.DenyRepair():
                out.add(Topic.GEM)
            case A.DealDamage() | A.CapturePiece() | A.ConvertPiece():
                out.update((Topic.ATTACK, Topic.KING))
            case A.ExtraPhase() | A.ExtraTurn() | A.SkipPhase() | A.SwapPhases() | A.SetParameter():
                pass  # no topic: a change of the turn or of the core's numbers, refused in every game
            case _:
                assert_never(action)
    return frozenset(out)


def _on_opponent(effect: A.Effect) -> bool:
    action = effect.action
    trigger = effect.trigger
    if trigger is not None and trigger.event in (Event.ATTACKED, Event.CAPTURED):
        return True
    match action:
        case A.CostModifier():
            return action.who is not A.Side.OWN
        case A.ToHitModifier() | A.DamageModifier() | A.Reroll():
            return action.scope is not A.Side.OWN
        case A.ResourceChange():
            return action.who is not A.Side.OWN
        case A.Steal() | A.DenyRepair() | A.DamageReduction() | A.DealDamage() | A.CapturePiece() | A.ConvertPiece():
            return True
        case (
            A.ExtraAction()
            | A.ExtraPhase()
            | A.ExtraTurn()
            | A.ConvertResource()
            | A.SkipPhase()
            | A.SwapPhases()
            | A.SetParameter()
        ):
            return False  # acts for its holder only
        case _:
            assert_never(action)
    return False


# --- combinations -----------------------------------------------------------------------------------


def shape(card: A.Card) -> object:
    """What a card does, without its name, text and positions: cards of one shape play alike."""

    def strip(value: object) -> object:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return (
                type(value).__name__,
                *(
                    strip(getattr(value, f.name))
                    for f in dataclasses.fields(value)
                    if f.name not in ("span", "name_span", "name", "text")
                ),
            )
        if isinstance(value, tuple | frozenset):
            items = [strip(v) for v in value]
            return tuple(items) if isinstance(value, tuple) else tuple(sorted(map(repr, items)))
        return value

    return strip(card)


Hands = tuple[tuple[str, ...], tuple[str, ...]]

_ACT_EVENTS = {
    Event.MOVE: "move",
    Event.SUMMON: "summon",
    Event.TELEPORT: "teleport",
    Event.HIT: "attack",
    Event.MISS: "attack",
    Event.CAPTURE: "attack",
    Event.CAPTURED: "attacked",
    Event.ATTACKED: "attacked",
}
_RESOURCE_EVENTS = {
    (True, A.Resource.SP): Event.GAIN_SP,
    (True, A.Resource.LP): Event.GAIN_LP,
    (False, A.Resource.SP): Event.LOSE_SP,
    (False, A.Resource.LP): Event.LOSE_LP,
}


@dataclass(frozen=True, slots=True)
class Signals:
    """What a card can set going in a game (``sends``) and what it answers (``hears``).

    Two cards meet when one sends what the other hears: a resource gained or lost and a trigger
    on it, an action made cheaper or granted and a trigger on that action, SP taken and LP given
    (an exchange spread over two cards), two denials of repair, a price on the Gem attempts and
    extra attempts, a gain read from a pool and one feeding that pool (ruling CR3). Only cards that
    meet are explored together.
    """

    sends: frozenset[str]
    hears: frozenset[str]


def signals(card: A.Card) -> Signals:
    sends: set[str] = set()
    hears: set[str] = set()
    for effect in card.effects:
        trigger = effect.trigger
        if trigger is not None:
            if trigger.event in _ACT_EVENTS:
                hears.add(f"act:{_ACT_EVENTS[trigger.event]}")
            elif trigger.event is not Event.PHASE:
                hears.add(f"event:{trigger.event.value}")
            if trigger.pay is not None and trigger.pay.of(A.Resource.SP):
                sends.add("sp-out")
        fed = link(card, effect)
        if fed is not None:  # a gain read from the holder's own pool: it meets what feeds that pool (CR3)
            sends.add(f"feeds:{fed.fed.value}")
            hears.add(f"feeds:{fed.read.value}")
        action = effect.action
        match action:
            case A.ResourceChange() if action.who is A.Side.OWN:
                resource = action.quantity.resource
                sends.add(f"event:{_RESOURCE_EVENTS[action.gain, resource].value}")
                sends.add("lp-in" if action.gain and resource is A.Resource.LP else "")
                sends.add("sp-out" if not action.gain and resource is A.Resource.SP else "")
            case A.ResourceChange():  # the opponent's resources: what the opponent's triggers hear
                sends.add(f"event:{_RESOURCE_EVENTS[action.gain, action.quantity.resource].value}")
            case A.Steal():
                sends.update(
                    (f"event:gain {action.quantity.resource.value}", f"event:lose {action.quantity.resource.value}")
                )
            case A.ConvertResource():
                sends.update((f"event:gain {action.get_resource.value}", f"event:lose {action.give_resource.value}"))
                if action.get_resource is A.Resource.LP:
                    sends.add("lp-in")
                if action.give_resource is A.Resource.SP:
                    sends.add("sp-out")
            case A.CostModifier():
                for kind in _COST_ACTS.get(action.cost, ()):
                    sends.add(f"act:{kind}")
                    hears.add(f"price:{kind}")
                    sends.add(f"price:{kind}")
            case A.ExtraAction():
                sends.add(f"act:{action.action.value}")
                sends.add(f"price:{action.action.value}")
            case A.DenyRepair():
                sends.add("deny")
                hears.add("deny")
            case A.ToHitModifier() | A.DamageModifier() | A.Reroll() | A.DamageReduction():
                # an attack is changed by its attacker's cards and by the defender's: each side's
                # modifiers meet the other side's on one attack
                enemy = action_scope_enemy(action)
                if enemy:  # what one side's cards take off the attacks on its pieces adds up
                    sends.add("shield")
                    hears.add("shield")
                sends.add("act:attacked" if enemy else "act:attack")
                sends.add("attack:enemy" if enemy else "attack:own")
                hears.add("attack:own" if enemy else "attack:enemy")
            case (
                A.ExtraPhase()
                | A.ExtraTurn()
                | A.SkipPhase()
                | A.SwapPhases()
                | A.SetParameter()
                | A.DealDamage()
                | A.CapturePiece()
                | A.ConvertPiece()
            ):
                pass  # sends and hears no signal
            case _:
                assert_never(action)
    sends.discard("")
    return Signals(
        frozenset(sends),
        frozenset(hears | ({"lp-in"} if "sp-out" in sends else set()) | ({"sp-out"} if "lp-in" in sends else set())),
    )


_COST_ACTS = {
    A.CostKind.MOVE: ("move",),
    A.CostKind.ATTACK: ("attack",),
    A.CostKind.DISTANCE: ("move", "attack", "summon", "teleport"),
    A.CostKind.SUMMON: ("summon",),
    A.CostKind.TELEPORT: ("teleport",),
    A.CostKind.BREAK: ("break",),
    A.CostKind.REPAIR: ("repair",),
}


def action_scope_enemy(action: A.ToHitModifier | A.DamageModifier | A.Reroll | A.DamageReduction) -> bool:
    return isinstance(action, A.DamageReduction) or action.scope is not A.Side.OWN


def combinations(
    cards: Sequence[A.Card],
    hand_limit: int = caps.HAND_LIMIT,
    partners: int = 2,
    thirds: int = 1,
    market: Sequence[str] = (),
) -> list[Hands]:
    """The hands to explore: each card alone (one card of each shape); each card with the cards it
    meets (:class:`Signals`), in one hand and, when one of them acts on the opponent, split between
    the players; and each such pair with a third card that meets one of them (a chain of three).

    Cards that do not meet cannot change what the other does in a game, so they are never played
    together: the work grows with the cards and the few partners each has (at most
    ``partners``, those meeting it on the rarest signal first), not with their pairs.

    One hand holds at most ``hand_limit`` cards of the draft, and with a ``market`` (a market
    module's deck, R26) one card of the deck besides, which the capturer places before the player;
    a card the deck holds twice or more can be before both players at once.
    """
    playable = [card for card in cards if card.effects]
    by_name = {card.name: card for card in playable}
    names = list(by_name)
    out: list[Hands] = []
    shapes = {name: shape(by_name[name]) for name in names}
    seen_shapes: set[object] = set()
    for name in names:
        if shapes[name] not in seen_shapes:
            seen_shapes.add(shapes[name])
            out.append(((name,), ()))
    sig = {name: signals(by_name[name]) for name in names}
    tops = {name: topics(by_name[name]) for name in names}
    hearing: dict[str, list[str]] = {}
    for name in names:
        for signal in sig[name].hears:
            hearing.setdefault(signal, []).append(name)

    def partners_of(name: str) -> list[str]:
        found: list[str] = []
        for signal in sorted(sig[name].sends, key=lambda x: len(hearing.get(x, ()))):
            for other in hearing.get(signal, ()):
                if other != name and other not in found:
                    found.append(other)
                    if len(found) >= partners:
                        return found
        return found

    deck = frozenset(name for name in market if name in by_name)
    for name in names:  # copies of one card, one before each player (R26)
        if name in deck and list(market).count(name) >= 2:
            out.append(((name,), (name,)))

    def fits(*hand: str) -> bool:
        """Whether one player can hold ``hand`` together: the draft's cards, one from the deck besides."""
        return len(hand) <= hand_limit or (len(hand) <= hand_limit + 1 and any(n in deck for n in hand))

    met = {name: partners_of(name) for name in names}
    pairs: list[tuple[str, str]] = []
    seen_pairs: set[frozenset[object]] = set()
    for name in names:
        for other in met[name]:
            key = frozenset((shapes[name], shapes[other], (name, other) if shapes[name] == shapes[other] else None))
            if key in seen_pairs:
                continue
            seen_pairs.add(key)
            pairs.append((name, other))
            if fits(name, other):  # one player holds both only if the draft keeps two (R19), or the market adds one
                out.append(((name, other), ()))
            if Topic.OPPONENT in tops[name] or Topic.OPPONENT in tops[other]:
                out.append(((name,), (other,)))
    for first, second in pairs:
        for third in (*met[second], *met[first])[:thirds]:
            if third not in (first, second) and fits(first, second, third):
                out.append(((first, second, third), ()))
    return out


pickle_by_fields(globals())
