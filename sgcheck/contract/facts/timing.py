"""When an effect acts in its holder's turn, and which phases its extra actions are granted into (core §2, R03, R22).

The phase windows themselves are the core's (:mod:`sgcheck.core.windows`); this module puts
them in words and applies them to a card's effects.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sgcheck.core.cards import model as A
from sgcheck.core.cards.semantics import until
from sgcheck.core.pieces import Phase
from sgcheck.core.windows import EVENT_WINDOWS, EXTRA_WINDOWS, MAIN, card_window


def phase_words(phases: Iterable[Phase]) -> str:
    """``Main 1 or Main 2``; ``any phase`` for all five."""
    found = sorted(set(phases))
    return "any phase" if len(found) == len(Phase) else " or ".join(p.title for p in found)


def _where(phases: tuple[Phase, ...]) -> str:
    """``in Battle``, ``in the Main phases``, ``at End``."""
    if phases == MAIN:
        return "in the Main phases"
    return "at End" if phases == (Phase.END,) else f"in {phase_words(phases)}"


#: How the action each event of :data:`~sgcheck.core.windows.EVENT_WINDOWS` follows is said:
#: hits, misses and captures follow attacks (a card's direct capture fires nothing, R23).
_EVENT_DONE: dict[A.Event, str] = {
    A.Event.HIT: "attacks are made",
    A.Event.MISS: "attacks are made",
    A.Event.CAPTURE: "captures happen",
    A.Event.MOVE: "moves are made",
    A.Event.SUMMON: "Summons are made",
    A.Event.TELEPORT: "Teleports are made",
}


@dataclass(frozen=True, slots=True)
class Timing:
    """The phases of the holder's turn an effect fires (or is played, or used) in, and how, in words."""

    phases: tuple[Phase, ...]
    words: str  # "is played in Main 2", "fires at the start of Battle", "fires on hit (attacks are made in Battle)"


def effect_timing(card: A.Card, effect: A.Effect) -> Timing | None:
    """When ``effect`` acts in its holder's turn (None: at no phase of it in particular).

    An effect without a trigger acts when its card is played, or, for an activated Relic, each
    time it is used, in the phases the card names (R22); a passive Relic's acts while it is in
    play. A trigger fires at the start of the phases it names, or when its event happens.
    """
    trigger = effect.trigger
    if trigger is None:
        if card.kind is A.CardKind.RELIC and card.mode is A.Mode.PASSIVE:
            return None
        phases = card_window(card)
        verb = "is used" if card.kind is A.CardKind.RELIC else "is played"
        where = "at End" if phases == (Phase.END,) else f"in {phase_words(phases)}"
        return Timing(phases, f"{verb} {where}")
    if trigger.event is A.Event.PHASE and trigger.phase is not None:
        return Timing(trigger.phase.phases, f"fires at the start of {phase_words(trigger.phase.phases)}")
    window = EVENT_WINDOWS.get(trigger.event)
    if window is None:
        return None
    return Timing(window, f"fires {trigger.label} ({_EVENT_DONE[trigger.event]} {_where(window)})")


def lasts_past_turn(card: A.Card, effect: A.Effect) -> bool:
    """Whether what ``effect`` starts still acts in its holder's next turn (replay's durations)."""
    relic = card.kind is A.CardKind.RELIC and card.mode is A.Mode.PASSIVE and effect.trigger is None
    last, _ = until(effect, 0, relic=relic)
    return last is None or last >= 2


@dataclass(frozen=True, slots=True)
class Grant:
    """An extra action: when its effect fires, and the phases it is granted into."""

    effect: A.Effect
    action: A.ExtraAction
    timing: Timing
    into: tuple[Phase, ...]

    @property
    def goes_back(self) -> bool:
        """Whenever it fires, every phase it grants into is already over: taking the action
        would take the turn back to a phase that has ended (R03)."""
        return max(self.into) < min(self.timing.phases)

    @property
    def ahead(self) -> tuple[Phase, ...]:
        """The phases of its action still to come when it fires first (where to grant it instead)."""
        start = min(self.timing.phases)
        return tuple(p for p in EXTRA_WINDOWS[self.action.action] if p >= start)


def extra_grants(card: A.Card) -> tuple[Grant, ...]:
    """Each extra action of ``card`` that lasts only the turn it is granted in, with its timing.

    Those granted outside their action's window, and those lasting into a later turn (a
    passive Relic's, ``for 2 turns``, ``permanently``), are left out: the first change the
    structure anyway, the second can be taken in a later turn without going back.
    """
    found: list[Grant] = []
    for effect in card.effects:
        action = effect.action
        if not isinstance(action, A.ExtraAction) or action.action not in EXTRA_WINDOWS:
            continue
        window = EXTRA_WINDOWS[action.action]
        into = tuple(p for p in (action.phase.phases if action.phase is not None else window) if p in window)
        timing = effect_timing(card, effect)
        if not into or timing is None or lasts_past_turn(card, effect):
            continue
        found.append(Grant(effect, action, timing, into))
    return tuple(found)
