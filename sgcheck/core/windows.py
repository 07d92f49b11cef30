"""When things happen in a turn: the phase window of every action and every card event (core §2, R03).

The one table of them. The rules of play (:mod:`sgcheck.core.play`) refuse an action out of its
window from it, the list of legal actions (:mod:`sgcheck.core.legal`) offers each action in it,
the cards in play grant extra actions into it, and the contract checker reads it to say when a
card's effect fires and where its extra actions go. Nothing else writes a phase window down.

* Each core action has one window (core §2, §5, §6, R03): Summon, Break and Repair in Upkeep;
  Move in Main 1 or Main 2; Attack in Battle; SP→LP conversion in Main 2; Teleport at End.
* A card is played, or an activated Relic used, in the phase it names; without one a Relic in
  a Main phase and a Spell in any phase (R22).
* An extra action a card grants is one more of a core action, in that action's window unless the
  card names another phase (R23); an extra activation has no window of its own.
* A trigger's event happens in the window of the action it follows: a hit, a miss or a capture
  in Battle, a move in the Main phases, a Summon in Upkeep, a Teleport at End. Gains and losses
  happen in any phase, and ``attacked`` and ``captured`` in the opponent's turn: they have none.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgcheck.core.actions import Attack, Break, Convert, Move, Repair, Summon, Teleport
from sgcheck.core.cards.model import Card, CardKind, Event, ExtraKind
from sgcheck.core.pieces import Phase
from sgcheck.core.record import pickle_by_fields

#: Both Main phases.
MAIN: tuple[Phase, ...] = (Phase.MAIN1, Phase.MAIN2)
#: All five phases, in order (core §2).
EVERY_PHASE: tuple[Phase, ...] = tuple(Phase)


@dataclass(frozen=True, slots=True)
class Window:
    """The phases an action may be taken in, what a refusal calls the action, and the core
    section that sets its window beside core §2 (``core §5`` for a Summon)."""

    phases: tuple[Phase, ...]
    what: str
    section: str


#: The window of each core action (core §2, R03), keyed by the action's class.
ACTION_WINDOWS: dict[type, Window] = {
    Summon: Window((Phase.UPKEEP,), "Summon", "core §5"),
    Break: Window((Phase.UPKEEP,), "Break", "core §6"),
    Repair: Window((Phase.UPKEEP,), "Repair", "core §6"),
    Move: Window(MAIN, "Move", "core §3"),
    Attack: Window((Phase.BATTLE,), "Attack", "core §4"),
    Convert: Window((Phase.MAIN2,), "SP→LP conversion", "core §2"),
    Teleport: Window((Phase.END,), "Teleport", "core §5"),
}

#: The core action each extra action of a card is one more of (R23). An extra activation is not
#: here: it would be taken in its card's phase, and the contract refuses it (SG-C070, R17).
EXTRA_ACTIONS: dict[ExtraKind, type] = {
    ExtraKind.MOVE: Move,
    ExtraKind.ATTACK: Attack,
    ExtraKind.SUMMON: Summon,
    ExtraKind.BREAK: Break,
    ExtraKind.REPAIR: Repair,
    ExtraKind.TELEPORT: Teleport,
}

#: The window of each extra action: its core action's (R23).
EXTRA_WINDOWS: dict[ExtraKind, tuple[Phase, ...]] = {
    kind: ACTION_WINDOWS[action].phases for kind, action in EXTRA_ACTIONS.items()
}

#: The core action each trigger event follows in its holder's own turn (R23). The other events
#: have no window: gains and losses happen in any phase, ``attacked`` and ``captured`` in the
#: opponent's turn, and ``at PHASE:`` names its phases itself.
EVENT_ACTIONS: dict[Event, type] = {
    Event.HIT: Attack,
    Event.MISS: Attack,
    Event.CAPTURE: Attack,
    Event.MOVE: Move,
    Event.SUMMON: Summon,
    Event.TELEPORT: Teleport,
}

#: The phases of its holder's own turn each event of :data:`EVENT_ACTIONS` can happen in.
EVENT_WINDOWS: dict[Event, tuple[Phase, ...]] = {
    event: ACTION_WINDOWS[action].phases for event, action in EVENT_ACTIONS.items()
}


def card_window(card: Card) -> tuple[Phase, ...]:
    """Where a card is played or used: the phase it names; else a Main phase for a Relic, any for a Spell (R22)."""
    if card.phase is not None:
        return card.phase.phases
    return MAIN if card.kind is CardKind.RELIC else EVERY_PHASE


def next_phase(phase: Phase) -> Phase | None:
    """The phase after ``phase``; None after the End (core §2)."""
    return None if phase is Phase.END else Phase(phase + 1)


pickle_by_fields(globals())
