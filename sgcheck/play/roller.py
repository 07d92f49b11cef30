"""Dice from a seeded random source, as many and of the sides :mod:`sgcheck.core.rolls` says.

A policy chooses an action without its dice; the roller throws them. The generator, the simulator
and the roll-off of both draw here, one die after another, so a seed gives the same game.
"""

from __future__ import annotations

import random

from sgcheck.core.actions import Action
from sgcheck.core.legal import with_roll
from sgcheck.core.rolls import ROLL_OFF, Roll, roll_of

Faces = tuple[int, ...]


def random_faces(rng: random.Random, kind: Roll) -> Faces:
    """``kind``'s dice drawn from ``rng``, each face equally likely."""
    low, sides = kind.lowest, kind.sides
    return tuple(low + rng.randrange(sides) for _ in range(kind.count))


def random_dice(rng: random.Random, action: Action) -> Action:
    """``action`` with the dice it throws (none: ``action`` itself) drawn from ``rng``."""
    kind = roll_of(action)
    return action if kind is None else with_roll(action, random_faces(rng, kind))


def random_roll_off(rng: random.Random) -> tuple[Faces, Faces]:
    """One round of the roll-off (core §1, R01): White's dice, then Black's."""
    return random_faces(rng, ROLL_OFF), random_faces(rng, ROLL_OFF)
