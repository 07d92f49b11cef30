"""The rolls of ``sgcheck dice next`` as typed results: the dice both players' keys give, derived
by the protocol (:mod:`sgcheck.core.dice`, docs/dice.md) and spelled by the report layer
(:mod:`sgcheck.report.dice_report`) in any format that renders them.

Without a purpose (``sg-dice-v1``) each roll is shown in every reading: two d10 (an attack's
accuracy or a second roll), three d6 (Break, Repair) and a roll-off round (:class:`NextRolls`).
With one (``sg-dice-v2``) each roll is derived for that purpose alone and read as its dice: a
roll-off round, two d10 or three d6 (:class:`PurposeRolls`). The keys given are checked against
the commitments before (by the command); here they are only read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sgcheck.core import dice
from sgcheck.core.rolls import ACCURACY_ROLL, BREAK_ROLL, BY_PURPOSE

#: The keys of each side's chain by roll number, and each side's commitment, by side (``White``, ``Black``).
Chains = Mapping[str, Mapping[int, bytes]]
Commits = Mapping[str, bytes]


@dataclass(frozen=True, slots=True)
class RollReadings:
    """One roll read every way ``sg-dice-v1`` reads it: two d10, three d6, a roll-off round."""

    roll: int
    d10: tuple[int, ...]
    d6: tuple[int, ...]
    rolloff_white: tuple[int, ...]
    rolloff_black: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NextRolls:
    """``dice next`` without a purpose: the protocol, the game's id and each roll's readings."""

    protocol: str
    game_id: str
    rolls: tuple[RollReadings, ...]


@dataclass(frozen=True, slots=True)
class PurposeRoll:
    """One roll derived for a purpose: its dice (two d10, three d6) or, for ``rolloff``, each
    side's die of the round."""

    roll: int
    dice: tuple[int, ...] | None = None
    rolloff: tuple[tuple[int, ...], tuple[int, ...]] | None = None


@dataclass(frozen=True, slots=True)
class PurposeRolls:
    """``dice next --purpose``: the protocol, the game's id, the purpose and each roll."""

    protocol: str
    game_id: str
    purpose: str
    rolls: tuple[PurposeRoll, ...]


def next_rolls(game_id: str, commits: Commits, chains: Chains, indices: Iterable[int]) -> NextRolls:
    """Each roll of ``indices`` in every reading of ``sg-dice-v1``."""
    white, black = commits["White"], commits["Black"]
    rolls = []
    for index in indices:
        w, b = chains["White"][index], chains["Black"][index]
        d10 = dice.roll_for(w, b, white, black, game_id, index, ACCURACY_ROLL.sides, ACCURACY_ROLL.count)
        d6 = dice.roll_for(w, b, white, black, game_id, index, BREAK_ROLL.sides, BREAK_ROLL.count)
        rw, rb = dice.rolloff_for(w, b, white, black, game_id, index)
        rolls.append(RollReadings(index, tuple(d10), tuple(d6), tuple(rw), tuple(rb)))
    return NextRolls(dice.PROTOCOL, game_id, tuple(rolls))


def purpose_rolls(game_id: str, commits: Commits, chains: Chains, indices: Iterable[int], aim: str) -> PurposeRolls:
    """Each roll of ``indices`` derived by ``sg-dice-v2`` for ``aim`` (a purpose as
    :func:`sgcheck.core.dice.parse_purpose` gives it) and read as its dice."""
    white, black = commits["White"], commits["Black"]
    word = aim.split()[0]
    rolls = []
    for index in indices:
        w, b = chains["White"][index], chains["Black"][index]
        if word == "rolloff":
            rw, rb = dice.rolloff_for(w, b, white, black, game_id, index, 2)
            rolls.append(PurposeRoll(index, rolloff=(tuple(rw), tuple(rb))))
            continue
        kind = BY_PURPOSE[word]
        faces = dice.roll_for(w, b, white, black, game_id, index, kind.sides, kind.count, aim)
        rolls.append(PurposeRoll(index, dice=tuple(faces)))
    return PurposeRolls(dice.PROTOCOL_V2, game_id, aim, tuple(rolls))
