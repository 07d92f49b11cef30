"""Which dice each roll of a game throws: the one table (core §1, §4.2, §4.5, §6).

A game rolls dice five ways: the roll-off (3d6 a player, core §1, R01), an attack's accuracy roll
(2d10 read as a d100, core §4.2, R10), the second roll a card grants it (a reroll or advantage,
2d10, core §4.5, R20), a Break and a Repair (3d6, core §6, R15). Each is a :class:`Roll` here,
and :func:`roll_of` says which one an action throws. The rules that check dice
(``core/play/``, ``core/setup.py``), the dice protocol (``core/dice.py``), the rollers of
``sgcheck/play/`` (generator, simulator, contract proofs), replay's check of verifiable dice and
the editor's completions read this table; nothing else writes a number of dice down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import final

from sgcheck.core.actions import Action, Attack, Break, Repair
from sgcheck.core.record import pickle_by_fields

#: The sides of a d6 (faces 1-6) and of a d10 (faces 0-9, core §4.2).
D6 = 6
D10 = 10


def lowest_face(sides: int) -> int:
    """The lowest face of a die: a d10 reads 0-9 (two make a d100, core §4.2), a d6 1-6."""
    return 0 if sides == D10 else 1


@final
@dataclass(frozen=True, slots=True)
class Roll:
    """One kind of roll: how many dice of how many sides, as a refusal names it and the rules it cites."""

    what: str  # "an accuracy roll": the words a refusal of its dice starts with
    count: int
    sides: int
    rules: tuple[str, ...]
    purposes: tuple[str, ...]  # the words its purpose starts with in sg-dice-v2 (docs/dice.md)

    @property
    def lowest(self) -> int:
        return lowest_face(self.sides)

    @property
    def highest(self) -> int:
        return self.lowest + self.sides - 1


ROLL_OFF = Roll("a roll-off", 3, D6, ("core §1", "R01"), ("rolloff",))
ACCURACY_ROLL = Roll("an accuracy roll", 2, D10, ("core §4.2", "R10"), ("attack",))
SECOND_ROLL = Roll("the second roll", 2, D10, ("core §4.5", "R20"), ("reroll", "advantage"))
BREAK_ROLL = Roll("a Break roll", 3, D6, ("core §6", "R15"), ("break",))
REPAIR_ROLL = Roll("a Repair roll", 3, D6, ("core §6", "R15"), ("repair",))
#: Every kind of roll, in the order a game first meets them.
ROLLS = (ROLL_OFF, ACCURACY_ROLL, SECOND_ROLL, BREAK_ROLL, REPAIR_ROLL)
#: The roll each purpose word of sg-dice-v2 names (a roll-off names both players' dice: twice its count).
BY_PURPOSE: dict[str, Roll] = {word: roll for roll in ROLLS for word in roll.purposes}


def roll_of(action: Action) -> Roll | None:
    """The roll ``action`` throws (an attack's first; a card's second roll is :data:`SECOND_ROLL`);
    None for an action without dice."""
    if isinstance(action, Attack):
        return ACCURACY_ROLL
    if isinstance(action, Break):
        return BREAK_ROLL
    if isinstance(action, Repair):
        return REPAIR_ROLL
    return None


pickle_by_fields(globals())
