"""One table of the dice each roll throws (core/rolls.py): it says what the rulings say, the engine
takes exactly those dice and no others, and no roller of the library writes a number of dice of its
own (core §1, §4.2, §4.5, §6; R01, R10, R15, R20)."""

from __future__ import annotations

import ast
import random
import re
from itertools import product
from pathlib import Path

import pytest

from sgcheck.core import dice
from sgcheck.core.actions import Action, Attack, Break, EndTurn, Move, Repair
from sgcheck.core.engine import apply
from sgcheck.core.outcome import Applied, Rejected
from sgcheck.core.pieces import Phase
from sgcheck.core.rolls import ACCURACY_ROLL, BREAK_ROLL, BY_PURPOSE, REPAIR_ROLL, ROLL_OFF, ROLLS, SECOND_ROLL, roll_of
from sgcheck.core.rulings import RULINGS
from sgcheck.core.setup import check_rolloff
from sgcheck.play.roller import random_dice, random_faces, random_roll_off

from .helpers import position, sq

PACKAGE = Path(__file__).resolve().parents[2] / "sgcheck"
_NUMBERS = {"one": 1, "two": 2, "three": 3}
_NAMED = re.compile(r"\b(\d|one|two|three)\s*d(\d+)\b", re.IGNORECASE)


def _named_dice(text: str) -> set[tuple[int, int]]:
    """The dice a ruling's words name: ``3d6``, ``Two d10``."""
    return {(int(_NUMBERS.get(n.lower(), n)), int(s)) for n, s in _NAMED.findall(text)}


def test_each_roll_throws_the_dice_its_ruling_names() -> None:
    """R01 (the roll-off: 3d6), R10 (two d10 make the d100), R15 (Break and Repair: 3d6); a second
    roll is the accuracy roll thrown again (core §4.5, R20)."""
    words = {ruling.id: ruling.text for ruling in RULINGS}
    for kind, ruling in ((ROLL_OFF, "R01"), (ACCURACY_ROLL, "R10"), (BREAK_ROLL, "R15"), (REPAIR_ROLL, "R15")):
        assert ruling in kind.rules
        assert _named_dice(words[ruling]) == {(kind.count, kind.sides)}, kind.what
    assert (SECOND_ROLL.count, SECOND_ROLL.sides) == (ACCURACY_ROLL.count, ACCURACY_ROLL.sides)
    assert "R20" in SECOND_ROLL.rules
    # R10: "0 0 reads 100": a d10 shows 0-9; a d6 shows 1-6
    assert "0 0 reads 100" in words["R10"] and (ACCURACY_ROLL.lowest, ACCURACY_ROLL.highest) == (0, 9)
    assert (BREAK_ROLL.lowest, BREAK_ROLL.highest) == (1, 6)


def test_every_action_that_throws_dice_names_its_roll() -> None:
    assert roll_of(Attack(sq("a1"), sq("a2"), ())) is ACCURACY_ROLL
    assert roll_of(Break(())) is BREAK_ROLL and roll_of(Repair(())) is REPAIR_ROLL
    assert roll_of(Move(sq("a1"), sq("a2"))) is None and roll_of(EndTurn()) is None


def test_the_protocol_names_each_roll_by_its_purpose() -> None:
    """sg-dice-v2's purpose words (docs/dice.md) are the table's, one roll each."""
    assert dice.PURPOSES == ("rolloff", "attack", "reroll", "advantage", "break", "repair")
    assert [BY_PURPOSE[word] for word in dice.PURPOSES] == [
        ROLL_OFF, ACCURACY_ROLL, SECOND_ROLL, SECOND_ROLL, BREAK_ROLL, REPAIR_ROLL,
    ]  # fmt: skip
    white, black = dice.rolloff_for(bytes(32), bytes(range(32)), dice.commitment(b"w"), dice.commitment(b"b"), "g", 0)
    assert len(white) == len(black) == ROLL_OFF.count
    assert all(ROLL_OFF.lowest <= face <= ROLL_OFF.highest for face in (*white, *black))


def _situations() -> list[tuple[Action, object]]:
    """An attack (core §4.2), a Break and a Repair (core §6), each legal with any faces of its dice."""
    battle = position("Ra3 pa5 Ke1 ke8", phase=Phase.BATTLE, lp=100)
    upkeep = position("Ke1 ke8", phase=Phase.UPKEEP, lp=100)
    broken = position("Ke1 ke8", phase=Phase.UPKEEP, lp=100, gem_broken=(True, False))
    return [
        (Attack(sq("a3"), sq("a5"), ()), battle),
        (Break(()), upkeep),
        (Repair(()), broken),
    ]


@pytest.mark.parametrize("index", range(3))
def test_the_engine_takes_exactly_the_dice_of_the_table(index: int) -> None:
    """Every count of dice but the table's, and every face outside a die's, is refused (SG-R114)
    citing the roll's rules; every throw of the right dice is taken."""
    action, state = _situations()[index]
    kind = roll_of(action)
    assert kind is not None
    faces = range(kind.lowest, kind.highest + 1)
    for throw in product(faces, repeat=kind.count):
        assert isinstance(apply(state, _rolled(action, throw)), Applied), throw  # type: ignore[arg-type]
    for count in (0, 1, kind.count - 1, kind.count + 1, kind.count + 2):
        if count == kind.count:
            continue
        refused = apply(state, _rolled(action, (kind.lowest,) * count))  # type: ignore[arg-type]
        assert isinstance(refused, Rejected) and refused.first.diagnostic.code == "SG-R114", count
        assert set(kind.rules) <= set(refused.first.diagnostic.rules)
    for bad in (kind.lowest - 1, kind.highest + 1):
        refused = apply(state, _rolled(action, (bad,) + (kind.lowest,) * (kind.count - 1)))  # type: ignore[arg-type]
        assert isinstance(refused, Rejected) and refused.first.diagnostic.code == "SG-R114", bad


def _rolled(action: Action, faces: tuple[int, ...]) -> Action:
    return action.replace(roll=faces)


def test_the_roll_off_takes_the_table_dice() -> None:
    """core §1, R01: 3d6 each; fewer, more, or a face off the die is SG-R114."""
    good = (ROLL_OFF.highest,) * ROLL_OFF.count
    assert list(check_rolloff(good, good)) == []
    for bad in (good[:-1], (*good, 1), (0,) * ROLL_OFF.count):
        found = list(check_rolloff(bad, good))
        assert [v.diagnostic.code for v in found] == ["SG-R114"]


def test_the_rollers_throw_fair_dice_of_the_table() -> None:
    """The seeded roller gives every face of a die, and only those, about equally often."""
    rng = random.Random(7)
    for kind in ROLLS:
        seen = [face for _ in range(3000) for face in random_faces(rng, kind)]
        assert len(seen) == 3000 * kind.count
        counts = [seen.count(face) for face in range(kind.lowest, kind.highest + 1)]
        assert sum(counts) == len(seen)  # no face outside the die
        expected = len(seen) / kind.sides
        assert all(abs(c - expected) < 0.15 * expected for c in counts), (kind.what, counts)
    white, black = random_roll_off(rng)
    assert len(white) == len(black) == ROLL_OFF.count
    thrown = random_dice(rng, Break(()))
    assert isinstance(thrown, Break) and len(thrown.roll) == BREAK_ROLL.count
    assert random_dice(rng, EndTurn()) == EndTurn()


#: Calls that throw a die of their own: randint(a, b) for a d6, randrange(10) for a d10.
_OWN_DIE = re.compile(r"\brandint\(\s*1\s*,\s*6\s*\)|\brandrange\(\s*10\s*\)|\brange\(\s*1\s*,\s*7\s*\)")


def test_no_roller_of_the_library_throws_dice_of_its_own() -> None:
    """Every roller reads core/rolls.py: no module of the library throws a d6 or a d10 by itself,
    or writes a count of dice into a call that reads faces (``roll_for(..., 10, 2)``)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if _OWN_DIE.search(text):
            found.append(f"{path.relative_to(PACKAGE)}: {_OWN_DIE.search(text).group(0)}")  # type: ignore[union-attr]
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "roll_for",
                "roll_faces",
                "peek",
                "roll",
            ):
                numbers = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, int)]
                if any(n in (2, 3, 6, 10) for n in numbers):
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []
