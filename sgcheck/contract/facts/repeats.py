"""A lasting attack bonus that adds up with itself: how many copies of it act at once (core §4.5, R17, R23)."""

from __future__ import annotations

from dataclasses import dataclass

from sgcheck.contract.context import CheckContext
from sgcheck.core.actions import Attack
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import attack_part
from sgcheck.core.cards.semantics import starts, until
from sgcheck.core.windows import ACTION_WINDOWS, EVENT_ACTIONS, EVENT_WINDOWS, card_window

#: What one firing of each event is called, one and several.
_EVENT_NOUNS: dict[A.Event, tuple[str, str]] = {
    A.Event.CAPTURE: ("capture", "captures"),
    A.Event.HIT: ("hit", "hits"),
    A.Event.MISS: ("miss", "misses"),
    A.Event.MOVE: ("move", "moves"),
    A.Event.SUMMON: ("Summon", "Summons"),
    A.Event.TELEPORT: ("Teleport", "Teleports"),
    A.Event.GAIN_SP: ("SP gain", "SP gains"),
    A.Event.GAIN_LP: ("LP gain", "LP gains"),
    A.Event.LOSE_SP: ("SP loss", "SP losses"),
    A.Event.LOSE_LP: ("LP loss", "LP losses"),
}
#: The events that follow an attack (a hit, a miss, a capture).
_ATTACK_EVENTS = frozenset(event for event, action in EVENT_ACTIONS.items() if action is Attack)
#: The last phase attacks are made in (core §2): what starts by then can act on an attack of the turn.
_LAST_ATTACKS = max(ACTION_WINDOWS[Attack].phases)


def _after_attacks(event: A.Event) -> bool:
    """Whether ``event`` happens only after the turn's attacks are over (a Teleport, at End)."""
    phases = EVENT_WINDOWS.get(event)
    return phases is not None and min(phases) > _LAST_ATTACKS


@dataclass(frozen=True, slots=True)
class Repeats:
    """How many copies of one lasting attack bonus of a card can act on one attack at once."""

    copies: int | None  # None: no bound
    each: tuple[str, str]  # what adds a copy, one and several: ("activation", "activations")
    lasting: str  # how long each copy lasts: "permanently", "for the turn"


def _duration_words(duration: A.Duration | None) -> str:
    if duration is None:
        return "for the turn"
    if duration.kind is A.DurationKind.PERMANENT:
        return "permanently"
    if duration.kind is A.DurationKind.THIS_TURN:
        return "for the turn"
    if duration.kind is A.DurationKind.THIS_ATTACK:
        return "for the next attack"
    if duration.kind is A.DurationKind.TURNS:
        return f"for {duration.turns} turn{'s' if duration.turns != 1 else ''}"
    return duration.kind.value


def _at_most(value: int | None, bound: int | None) -> int | None:
    if bound is None:
        return value
    return bound if value is None else min(value, bound)


def repeats(card: A.Card, effect: A.Effect, ctx: CheckContext) -> Repeats | None:
    """How many copies of ``effect``'s bonus can act on one of the holder's attacks (None: one).

    Each use of an activated Relic, and each firing of a trigger, starts a new copy of what the
    effect does, for its duration, beside the copies still acting (R17, R23): two uses a turn of
    a permanent +1 give +2, the next turn's +4. Copies started this turn act on an attack if they
    can start before it (a use or a phase up to Battle, or any event but a Teleport); an ``on
    hit:`` (``miss``, ``capture``) copy that lasts ``this attack`` ends with the next attack. A
    ``limit`` per turn bounds the copies of a turn, one per game all of them. The bonuses on the
    enemy's attacks and on-hit damage (part of each hit, R23) are not repeated here.
    """
    part = attack_part(effect)
    if part is None or part.on_hit or part.scope is not A.Side.OWN:
        return None
    trigger = effect.trigger
    limits: tuple[A.Effect, ...] = (effect,)
    each: tuple[str, str]
    per_turn: int | None
    early: int | None  # copies of this turn that can start before an attack
    if trigger is None:
        if card.kind is not A.CardKind.RELIC or card.mode is not A.Mode.ACTIVATED:
            return None
        limits = card.effects  # a limit on any effect of an activated Relic counts its uses (R22)
        per_turn, each = ctx.activations, ("activation", "activations")
        early = per_turn if any(p <= _LAST_ATTACKS for p in card_window(card)) else 0
    elif trigger.event is A.Event.PHASE and trigger.phase is not None:
        phases = trigger.phase.phases
        per_turn = len(phases)
        early = sum(1 for p in phases if p <= _LAST_ATTACKS)
        each = ("Main phase", "Main phases") if len(phases) > 1 else (phases[0].title, f"{phases[0].title} phases")
    elif trigger.event in _EVENT_NOUNS:
        per_turn, each = None, _EVENT_NOUNS[trigger.event]
        early = 0 if _after_attacks(trigger.event) else None
        if trigger.event in (A.Event.SUMMON, A.Event.TELEPORT) and not _grants_more(card, trigger.event):
            # one Summon an Upkeep, one Teleport an End (R12, R13), unless the card grants more
            per_turn = 1
            early = 0 if _after_attacks(trigger.event) else 1
        duration = effect.duration
        if trigger.event in _ATTACK_EVENTS and duration is not None and duration.kind is A.DurationKind.THIS_ATTACK:
            return None  # each copy ends with the next attack, before the next event can start one
    else:
        return None  # ``attacked``, ``captured``: the opponent's turn
    game: int | None = None
    for limited in limits:
        if limited.limit is None:
            continue
        if limited.limit.period is A.Period.TURN:
            per_turn, early = _at_most(per_turn, limited.limit.times), _at_most(early, limited.limit.times)
        else:
            game = _at_most(game, limited.limit.times)
    copies = _copies(effect, per_turn, early)
    copies = _at_most(copies, game)
    if copies is not None and copies <= 1:
        return None
    return Repeats(copies, each, _duration_words(effect.duration))


def _grants_more(card: A.Card, event: A.Event) -> bool:
    """Whether ``card`` itself grants extra actions of the kind ``event`` follows (a Summon, a Teleport)."""
    kind = A.ExtraKind.SUMMON if event is A.Event.SUMMON else A.ExtraKind.TELEPORT
    return any(isinstance(e.action, A.ExtraAction) and e.action.action is kind for e in card.effects)


def _copies(effect: A.Effect, per_turn: int | None, early: int | None) -> int | None:
    """Copies acting at once: those of earlier turns still acting, and this turn's early ones."""
    first, last = starts(effect, 0), until(effect, 0, relic=False)[0]
    now = early if first == 0 else 0
    if last is None:
        return None if per_turn is None or per_turn > 0 else now
    earlier = max(0, last // 2 - max(1, (first + 1) // 2) + 1)  # own turns before this one still acting
    if earlier == 0:
        return now
    return None if per_turn is None or now is None else per_turn * earlier + now
